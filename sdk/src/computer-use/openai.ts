// OpenAI's computer use tool (Responses API): a computer_call's action -> our command, and a finished
// command -> the computer_call_output the model expects back (always a screenshot).
import type { Command, CommandParams } from '../types.js';
import {
  asDisplay,
  type ModelDisplay,
  modelNumber,
  type ScreenOrDisplay,
  screenshotSize,
  toScreenDistance,
  toScreenPoint,
} from './display.js';
import { ComputerUseError } from './errors.js';
import { mapKeys, mapModifiers } from './keys.js';
import { commandScreenshot, failure } from './results.js';

type Keys = readonly string[] | null | undefined;
export type OpenAIMouseButton = 'left' | 'right' | 'wheel' | 'back' | 'forward';

/** One action of a `computer_call`, as the model writes it (x, y in the display's pixels). */
export type OpenAIComputerAction =
  | { type: 'click'; button: OpenAIMouseButton; x: number; y: number; keys?: Keys }
  | { type: 'double_click'; x: number; y: number; keys?: Keys }
  | { type: 'drag'; path: ReadonlyArray<{ x: number; y: number }>; keys?: Keys }
  | { type: 'keypress'; keys: readonly string[] }
  | { type: 'move'; x: number; y: number; keys?: Keys }
  | { type: 'screenshot' }
  | { type: 'scroll'; x: number; y: number; scroll_x: number; scroll_y: number; keys?: Keys }
  | { type: 'type'; text: string }
  | { type: 'wait' };

export interface OpenAISafetyCheck {
  id: string;
  code?: string | null | undefined;
  message?: string | null | undefined;
}

/** A `computer_call` output item: one `action`, or a batch in `actions`. */
export interface OpenAIComputerCall {
  type: 'computer_call';
  call_id: string;
  id?: string | undefined;
  action?: OpenAIComputerAction | undefined;
  actions?: readonly OpenAIComputerAction[] | undefined;
  pending_safety_checks?: readonly OpenAISafetyCheck[] | undefined;
  status?: string | undefined;
}

/** The input item answering a computer_call. */
export interface OpenAIComputerCallOutput {
  type: 'computer_call_output';
  call_id: string;
  output: { type: 'computer_screenshot'; image_url: string };
  acknowledged_safety_checks?: OpenAISafetyCheck[];
}

export type OpenAIComputerEnvironment = 'linux' | 'ubuntu' | 'mac' | 'windows' | 'browser';

/** The `computer_use_preview` tool definition for `tools: [...]` of a Responses request. */
export interface OpenAIComputerTool {
  type: 'computer_use_preview';
  display_width: number;
  display_height: number;
  environment: OpenAIComputerEnvironment;
}

export interface OpenAIComputerCallOutputOptions {
  /** A finished screenshot command to send when the command itself carried none (every output is a screenshot). */
  screenshot?: Command | undefined;
  /** The call's `pending_safety_checks` you acknowledge. */
  acknowledgedSafetyChecks?: readonly OpenAISafetyCheck[] | undefined;
}

/** OpenAI's wait has no duration; two seconds is what its own samples wait. */
export const OPENAI_WAIT_MS = 2000;
const MAX_PATH_POINTS = 100;
const BUTTONS = { left: 'left', right: 'right', wheel: 'middle', back: 'back', forward: 'forward' } as const;

/** The tool definition for this display; `environment` default `linux`. */
export function openAIComputerTool(target: ScreenOrDisplay, options: { environment?: OpenAIComputerEnvironment } = {}): OpenAIComputerTool {
  const display = asDisplay(target);
  return {
    type: 'computer_use_preview',
    display_width: display.width,
    display_height: display.height,
    environment: options.environment ?? 'linux',
  };
}

/**
 * One action of a computer_call -> the command that does it, coordinates scaled from the model's
 * display to the screen (`target`: `Computer.screen`, or a display from `modelDisplay`). Throws
 * ComputerUseError, naming the field, for what cannot be done.
 */
export function fromOpenAIComputerAction(action: OpenAIComputerAction, target: ScreenOrDisplay): CommandParams {
  return mapAction(action, asDisplay(target), '');
}

/** A whole computer_call -> its commands, in order: its `actions` batch, or its one `action`. */
export function fromOpenAIComputerCall(call: OpenAIComputerCall, target: ScreenOrDisplay): CommandParams[] {
  const display = asDisplay(target);
  if (call.actions && call.actions.length > 0) return call.actions.map((action, i) => mapAction(action, display, `actions[${i}].`));
  if (call.action) return [mapAction(call.action, display, 'action.')];
  throw new ComputerUseError('action', 'the computer_call has neither action nor actions');
}

/**
 * A finished command -> the computer_call_output for `callId`: the command's own screenshot, else
 * `options.screenshot`'s, as a PNG data URL. OpenAI takes nothing but a screenshot back, so a command
 * that failed, or one without a screenshot and no `options.screenshot`, throws ComputerUseError.
 */
export function toOpenAIComputerCallOutput(
  callId: string,
  command: Command,
  options: OpenAIComputerCallOutputOptions = {},
): OpenAIComputerCallOutput {
  const failed = failure(command);
  if (failed) throw new ComputerUseError('command', failed);
  let png = commandScreenshot(command, 'command');
  if (!png && options.screenshot) {
    const after = failure(options.screenshot);
    if (after) throw new ComputerUseError('options.screenshot', after);
    png = commandScreenshot(options.screenshot, 'options.screenshot');
  }
  if (!png) {
    throw new ComputerUseError(
      'options.screenshot',
      `a ${command.type} command carries no screenshot; pass a finished screenshot command (OpenAI expects one after every action)`,
    );
  }
  const output: OpenAIComputerCallOutput = {
    type: 'computer_call_output',
    call_id: callId,
    output: { type: 'computer_screenshot', image_url: `data:image/png;base64,${png}` },
  };
  if (options.acknowledgedSafetyChecks) output.acknowledged_safety_checks = options.acknowledgedSafetyChecks.map((c) => ({ ...c }));
  return output;
}

function mapAction(action: OpenAIComputerAction, display: ModelDisplay, at: string): CommandParams {
  if (typeof action !== 'object' || action === null) throw new ComputerUseError(at.slice(0, -1) || 'action', 'must be an object');
  const held = (keys: Keys) => {
    const modifiers = mapModifiers(keys, `${at}keys`);
    return modifiers ? { modifiers } : {};
  };
  const pointAt = (a: { x: unknown; y: unknown }) => toScreenPoint(display, modelNumber(a.x, `${at}x`), modelNumber(a.y, `${at}y`));
  switch (action.type) {
    case 'click': {
      const button = BUTTONS[action.button ?? 'left'];
      if (!button)
        throw new ComputerUseError(`${at}button`, `must be left, right, wheel, back or forward, got ${JSON.stringify(action.button)}`);
      return { type: 'click', payload: { ...pointAt(action), button, ...held(action.keys) } };
    }
    case 'double_click':
      return { type: 'click', payload: { ...pointAt(action), button: 'left', count: 2, ...held(action.keys) } };
    case 'move':
      return { type: 'move', payload: { ...pointAt(action), ...held(action.keys) } };
    case 'drag': {
      if (!Array.isArray(action.path) || action.path.length < 2) {
        throw new ComputerUseError(`${at}path`, `needs at least 2 points, got ${JSON.stringify(action.path)}`);
      }
      const points = thin(action.path).map((p, i) =>
        toScreenPoint(display, modelNumber(p?.x, `${at}path[${i}].x`), modelNumber(p?.y, `${at}path[${i}].y`)),
      );
      return { type: 'drag', payload: { path: points, button: 'left', ...held(action.keys) } };
    }
    case 'scroll': {
      const { dx, dy } = toScreenDistance(
        display,
        modelNumber(action.scroll_x, `${at}scroll_x`),
        modelNumber(action.scroll_y, `${at}scroll_y`),
      );
      return { type: 'scroll', payload: { deltaX: dx, deltaY: dy, ...pointAt(action), ...held(action.keys) } };
    }
    case 'keypress':
      if (!Array.isArray(action.keys))
        throw new ComputerUseError(`${at}keys`, `must be a list of key names, got ${JSON.stringify(action.keys)}`);
      return { type: 'key', payload: { keys: mapKeys(action.keys, `${at}keys`) } };
    case 'type': {
      if (typeof action.text !== 'string' || action.text.length === 0)
        throw new ComputerUseError(`${at}text`, 'is required (a non-empty string)');
      if (action.text.length > 10_000) throw new ComputerUseError(`${at}text`, `is ${action.text.length} characters; at most 10000`);
      return { type: 'type', payload: { text: action.text } };
    }
    case 'wait':
      return { type: 'wait', payload: { duration_ms: OPENAI_WAIT_MS, screenshot: true, ...screenshotSize(display) } };
    case 'screenshot':
      return { type: 'screenshot', payload: screenshotSize(display) };
    default:
      throw new ComputerUseError(`${at}type`, `unknown action ${JSON.stringify((action as { type?: unknown }).type)}`);
  }
}

/** At most 100 points, the first and the last kept, the rest picked evenly. */
function thin<T>(path: readonly T[]): T[] {
  if (path.length <= MAX_PATH_POINTS) return [...path];
  const step = (path.length - 1) / (MAX_PATH_POINTS - 1);
  return Array.from({ length: MAX_PATH_POINTS }, (_, i) => path[Math.round(i * step)]!);
}
