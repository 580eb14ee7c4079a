// Anthropic's computer tool (`computer_20250124`, `computer_20251124`): a tool_use's input -> our
// command, and a finished command -> the tool_result the model expects back.
import type { Command, CommandParams } from '../types.js';
import { asDisplay, type ModelDisplay, modelNumber, type ScreenOrDisplay, screenshotSize, toModelPoint, toScreenPoint } from './display.js';
import { ComputerUseError } from './errors.js';
import { mapKeys, mapModifiers } from './keys.js';
import { commandScreenshot, failure, MAX_WAIT_MS, pointOf } from './results.js';

export type AnthropicComputerActionName =
  | 'key'
  | 'hold_key'
  | 'type'
  | 'cursor_position'
  | 'mouse_move'
  | 'left_mouse_down'
  | 'left_mouse_up'
  | 'left_click'
  | 'left_click_drag'
  | 'right_click'
  | 'middle_click'
  | 'double_click'
  | 'triple_click'
  | 'scroll'
  | 'wait'
  | 'screenshot'
  | 'zoom';

/** The `input` of a `tool_use` block for the computer tool, as the model writes it. */
export interface AnthropicComputerInput {
  action: AnthropicComputerActionName;
  /** [x, y] in the display's pixels. */
  coordinate?: readonly number[] | null | undefined;
  /** [x, y], where `left_click_drag` starts. */
  start_coordinate?: readonly number[] | null | undefined;
  /** `type`: the text; `key`, `hold_key`: a combination (`ctrl+s`); clicks and `scroll`: keys held. */
  text?: string | null | undefined;
  /** Seconds, for `hold_key` and `wait`. */
  duration?: number | null | undefined;
  scroll_direction?: 'up' | 'down' | 'left' | 'right' | null | undefined;
  /** Wheel clicks. */
  scroll_amount?: number | null | undefined;
  /** `zoom` (computer_20251124): [x0, y0, x1, y1], top-left and bottom-right. */
  region?: readonly number[] | null | undefined;
}

export type AnthropicComputerToolVersion = 'computer_20250124' | 'computer_20251124';

/** The tool definition for `tools: [...]` of a Messages request. */
export interface AnthropicComputerTool {
  type: AnthropicComputerToolVersion;
  name: 'computer';
  display_width_px: number;
  display_height_px: number;
  display_number?: number;
  enable_zoom?: boolean;
}

export interface AnthropicTextBlock {
  type: 'text';
  text: string;
}
export interface AnthropicImageBlock {
  type: 'image';
  source: { type: 'base64'; media_type: 'image/png'; data: string };
}
/** A `tool_result` content block, for the next user message. */
export interface AnthropicToolResult {
  type: 'tool_result';
  tool_use_id: string;
  content: Array<AnthropicTextBlock | AnthropicImageBlock>;
  is_error?: boolean;
}

export interface AnthropicToolResultOptions {
  /** A finished screenshot command to show after the action (the model sees what it did). */
  screenshot?: Command | undefined;
}

/** The computer tool's definition for this display (`computer_20250124` unless `version` says otherwise). */
export function anthropicComputerTool(
  target: ScreenOrDisplay,
  options: { version?: AnthropicComputerToolVersion; displayNumber?: number; enableZoom?: boolean } = {},
): AnthropicComputerTool {
  const display = asDisplay(target);
  const tool: AnthropicComputerTool = {
    type: options.version ?? 'computer_20250124',
    name: 'computer',
    display_width_px: display.width,
    display_height_px: display.height,
  };
  if (options.displayNumber !== undefined) tool.display_number = options.displayNumber;
  if (options.enableZoom !== undefined) tool.enable_zoom = options.enableZoom;
  return tool;
}

const CLICKS = {
  left_click: { button: 'left', count: 1 },
  right_click: { button: 'right', count: 1 },
  middle_click: { button: 'middle', count: 1 },
  double_click: { button: 'left', count: 2 },
  triple_click: { button: 'left', count: 3 },
} as const;

/** One wheel click of Anthropic's `scroll_amount` is one wheel step, 100 pixels of ours. */
const PIXELS_PER_WHEEL_CLICK = 100;
const SCROLL = { up: [0, -1], down: [0, 1], left: [-1, 0], right: [1, 0] } as const;

/**
 * A computer tool call's `input` -> the command that does it on the computer. Coordinates are scaled
 * from the model's display to the screen (`target`: `Computer.screen`, or a display from `modelDisplay`).
 * Throws ComputerUseError, naming the field, for what cannot be done.
 */
export function fromAnthropicComputerAction(input: AnthropicComputerInput, target: ScreenOrDisplay): CommandParams {
  if (typeof input !== 'object' || input === null) throw new ComputerUseError('input', 'must be an object');
  const display = asDisplay(target);
  const action = input.action;
  switch (action) {
    case 'screenshot':
      return { type: 'screenshot', payload: screenshotSize(display) };
    case 'left_click':
    case 'right_click':
    case 'middle_click':
    case 'double_click':
    case 'triple_click': {
      const { button, count } = CLICKS[action];
      const modifiers = mapModifiers(input.text, 'text');
      return {
        type: 'click',
        payload: {
          ...optionalPoint(display, input.coordinate, 'coordinate'),
          button,
          ...(count > 1 ? { count } : {}),
          ...(modifiers ? { modifiers } : {}),
        },
      };
    }
    case 'mouse_move': {
      const modifiers = mapModifiers(input.text, 'text');
      return { type: 'move', payload: { ...point(display, input.coordinate, 'coordinate'), ...(modifiers ? { modifiers } : {}) } };
    }
    case 'left_mouse_down':
    case 'left_mouse_up':
      return {
        type: action === 'left_mouse_down' ? 'mouse_down' : 'mouse_up',
        payload: { button: 'left', ...optionalPoint(display, input.coordinate, 'coordinate') },
      };
    case 'left_click_drag': {
      if (input.start_coordinate === undefined || input.start_coordinate === null) {
        throw new ComputerUseError('start_coordinate', 'is required for left_click_drag (where the drag starts)');
      }
      const from = point(display, input.start_coordinate, 'start_coordinate');
      const to = point(display, input.coordinate, 'coordinate');
      const modifiers = mapModifiers(input.text, 'text');
      return {
        type: 'drag',
        payload: { fromX: from.x, fromY: from.y, toX: to.x, toY: to.y, button: 'left', ...(modifiers ? { modifiers } : {}) },
      };
    }
    case 'scroll': {
      const direction = input.scroll_direction;
      if (direction === undefined || direction === null || !(direction in SCROLL)) {
        throw new ComputerUseError('scroll_direction', `must be up, down, left or right, got ${JSON.stringify(direction)}`);
      }
      const amount = modelNumber(input.scroll_amount, 'scroll_amount');
      if (amount < 0) throw new ComputerUseError('scroll_amount', 'must not be negative');
      const pixels = Math.min(1000, Math.round(amount)) * PIXELS_PER_WHEEL_CLICK;
      const [sx, sy] = SCROLL[direction];
      const modifiers = mapModifiers(input.text, 'text');
      return {
        type: 'scroll',
        payload: {
          deltaX: sx * pixels || 0,
          deltaY: sy * pixels || 0,
          ...optionalPoint(display, input.coordinate, 'coordinate'),
          ...(modifiers ? { modifiers } : {}),
        },
      };
    }
    case 'type':
      return { type: 'type', payload: { text: requiredText(input.text, 'text', 10_000) } };
    case 'key':
      return { type: 'key', payload: { keys: mapKeys(requiredText(input.text, 'text'), 'text') } };
    case 'hold_key': {
      const keys = mapKeys(requiredText(input.text, 'text'), 'text');
      const ms = Math.round(modelNumber(input.duration, 'duration') * 1000);
      if (ms > MAX_WAIT_MS) throw new ComputerUseError('duration', `is ${input.duration} s; a key is held at most 10 s`);
      return { type: 'hold_key', payload: { keys, duration_ms: Math.max(1, ms) } };
    }
    case 'wait': {
      const seconds = modelNumber(input.duration, 'duration');
      if (seconds < 0) throw new ComputerUseError('duration', 'must not be negative');
      // Longer waits are cut to 10 s: the model sees the screen then, and can wait again.
      return {
        type: 'wait',
        payload: { duration_ms: Math.min(MAX_WAIT_MS, Math.round(seconds * 1000)), screenshot: true, ...screenshotSize(display) },
      };
    }
    case 'cursor_position':
      return { type: 'cursor_position', payload: {} };
    case 'zoom':
      return { type: 'zoom', payload: zoomRegion(display, input.region) };
    default:
      throw new ComputerUseError('action', `unknown action ${JSON.stringify(action)}`);
  }
}

/**
 * A finished command -> the `tool_result` block for the tool_use `toolUseId`: its screenshot as an
 * image, `cursor_position` as `X=..,Y=..` in the display's pixels, a failure as `is_error`. With
 * `options.screenshot`, that screenshot follows, so the model sees the screen after its action.
 */
export function toAnthropicToolResult(
  toolUseId: string,
  command: Command,
  target: ScreenOrDisplay,
  options: AnthropicToolResultOptions = {},
): AnthropicToolResult {
  const display = asDisplay(target);
  const failed = failure(command);
  if (failed) return { type: 'tool_result', tool_use_id: toolUseId, content: [{ type: 'text', text: failed }], is_error: true };
  const content: AnthropicToolResult['content'] = [];
  const own = commandScreenshot(command, 'command');
  if (own) content.push(image(own));
  else if (command.type === 'cursor_position') {
    const at = pointOf(command);
    const shown = toModelPoint(display, at.x, at.y);
    content.push({ type: 'text', text: `X=${shown.x},Y=${shown.y}` });
  } else content.push({ type: 'text', text: `${command.type} done` });
  if (options.screenshot) {
    const after = failure(options.screenshot);
    if (after) content.push({ type: 'text', text: `no screenshot after it: ${after}` });
    else {
      const png = commandScreenshot(options.screenshot, 'options.screenshot');
      if (!png) throw new ComputerUseError('options.screenshot', `is a ${options.screenshot.type} command, which has no screenshot`);
      content.push(image(png));
    }
  }
  return { type: 'tool_result', tool_use_id: toolUseId, content };
}

function image(data: string): AnthropicImageBlock {
  return { type: 'image', source: { type: 'base64', media_type: 'image/png', data } };
}

function point(display: ModelDisplay, value: unknown, field: string): { x: number; y: number } {
  if (!Array.isArray(value) || value.length !== 2) throw new ComputerUseError(field, `must be [x, y], got ${JSON.stringify(value)}`);
  return toScreenPoint(display, modelNumber(value[0], `${field}[0]`), modelNumber(value[1], `${field}[1]`));
}

function optionalPoint(display: ModelDisplay, value: unknown, field: string): { x?: number; y?: number } {
  return value === undefined || value === null ? {} : point(display, value, field);
}

function requiredText(value: unknown, field: string, max = 10_000): string {
  if (typeof value !== 'string' || value.length === 0) throw new ComputerUseError(field, 'is required (a non-empty string)');
  if (value.length > max) throw new ComputerUseError(field, `is ${value.length} characters; at most ${max}`);
  return value;
}

/** [x0, y0, x1, y1] of the display -> the screen's region, shown at the display's size. */
function zoomRegion(display: ModelDisplay, region: unknown) {
  if (!Array.isArray(region) || region.length !== 4) {
    throw new ComputerUseError('region', `must be [x0, y0, x1, y1], got ${JSON.stringify(region)}`);
  }
  const [x0, y0, x1, y1] = region.map((v, i) => modelNumber(v, `region[${i}]`)) as [number, number, number, number];
  if (x1 <= x0 || y1 <= y0) throw new ComputerUseError('region', `[${region.join(', ')}] is empty: x1 must exceed x0 and y1 y0`);
  const from = toScreenPoint(display, x0, y0);
  // The bottom-right corner is exclusive; a region scaled to less than a pixel still shows one.
  const right = Math.min(display.screen.width, Math.max(from.x + 1, Math.round((x1 * display.screen.width) / display.width)));
  const bottom = Math.min(display.screen.height, Math.max(from.y + 1, Math.round((y1 * display.screen.height) / display.height)));
  return {
    x: from.x,
    y: from.y,
    width: right - from.x,
    height: bottom - from.y,
    max_width: Math.max(16, display.width),
    max_height: Math.max(16, display.height),
  };
}
