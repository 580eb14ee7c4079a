// Runs one polled command on a driver and shapes what the agent reports: `{ok, duration_ms, ...}`.
// Payloads are checked again first (payload.ts).
import { setTimeout as sleep } from 'node:timers/promises';
import type { Driver, Screenshot } from './drivers/driver.js';
import {
  button,
  clickCount,
  coordinate,
  delta,
  dragPath,
  flag,
  keyNames,
  maxSize,
  milliseconds,
  modifiers,
  optionalPoint,
  positive,
} from './payload.js';

export interface CommandToRun {
  command_id: string;
  type: string;
  payload: Record<string, unknown>;
}

export type CommandOutcome =
  | { status: 'done'; result: Record<string, unknown> }
  | { status: 'failed'; result: Record<string, unknown>; error: string };

export const KNOWN_TYPES = [
  'screenshot',
  'click',
  'move',
  'type',
  'key',
  'scroll',
  'drag',
  'mouse_down',
  'mouse_up',
  'hold_key',
  'wait',
  'cursor_position',
  'zoom',
] as const;

export async function executeCommand(driver: Driver, command: CommandToRun): Promise<CommandOutcome> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  try {
    const extra = await dispatch(driver, command.type, command.payload ?? {});
    return { status: 'done', result: { ok: true, duration_ms: elapsed(), ...extra } };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { status: 'failed', result: { ok: false, duration_ms: elapsed() }, error: message };
  }
}

async function dispatch(driver: Driver, type: string, p: Record<string, unknown>): Promise<Record<string, unknown>> {
  switch (type) {
    case 'screenshot':
      return screenshotResult(await driver.screenshot(maxSize(p)));
    case 'click':
      return driver.click({ at: optionalPoint(p), button: button(p), count: clickCount(p), modifiers: modifiers(p) });
    case 'move':
      return driver.move({ x: coordinate(p, 'x'), y: coordinate(p, 'y'), modifiers: modifiers(p) });
    case 'type': {
      if (typeof p.text !== 'string' || p.text.length === 0) throw new Error('payload.text: must be a non-empty string');
      return driver.type({ text: p.text });
    }
    case 'key':
      return driver.key({ keys: keyNames(p) });
    case 'scroll':
      return driver.scroll({ at: optionalPoint(p), deltaX: delta(p, 'deltaX'), deltaY: delta(p, 'deltaY'), modifiers: modifiers(p) });
    case 'drag':
      return driver.drag({ path: dragPath(p), button: button(p), modifiers: modifiers(p) });
    case 'mouse_down':
      return driver.mouseDown({ at: optionalPoint(p), button: button(p) });
    case 'mouse_up':
      return driver.mouseUp({ at: optionalPoint(p), button: button(p) });
    case 'hold_key':
      return driver.holdKey({ keys: keyNames(p), durationMs: milliseconds(p, 1) });
    case 'wait': {
      const durationMs = milliseconds(p, 0);
      const screenshot = flag(p, 'screenshot');
      const max = maxSize(p);
      if (!screenshot && (max.maxWidth !== undefined || max.maxHeight !== undefined))
        throw new Error('payload.max_width / max_height: need screenshot: true');
      await sleep(durationMs);
      return screenshot ? screenshotResult(await driver.screenshot(max)) : {};
    }
    case 'cursor_position':
      return { ...(await driver.cursorPosition()) };
    case 'zoom': {
      const region = {
        x: coordinate(p, 'x'),
        y: coordinate(p, 'y'),
        width: positive(p, 'width'),
        height: positive(p, 'height'),
      };
      return { ...screenshotResult(await driver.zoom({ region, ...maxSize(p) })), region };
    }
    default:
      throw new Error(`unknown command type "${type}": this agent knows ${KNOWN_TYPES.join(', ')}`);
  }
}

/** A screenshot's result fields, in the contract's names. */
function screenshotResult(shot: Screenshot): Record<string, unknown> {
  return {
    screenshot_b64: shot.png.toString('base64'),
    width: shot.width,
    height: shot.height,
    screen_width: shot.screenWidth,
    screen_height: shot.screenHeight,
    scale: shot.scale,
  };
}
