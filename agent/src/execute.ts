// Runs one polled command on a driver and shapes what the agent reports: `{ok, duration_ms, ...}`.
// The server validates payloads when commands are queued; the agent checks again so that a newer
// server (or a bug) can never make it run a command with missing or odd values.
import { setTimeout as sleep } from 'node:timers/promises';
import type { Driver, MaxSize, Modifier, MouseButton, Point, Screenshot } from './drivers/driver.js';

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

function coordinate(p: Record<string, unknown>, field: string): number {
  const value = p[field];
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0)
    throw new Error(`payload.${field}: must be a whole number of pixels, 0 or more`);
  return value;
}

function positive(p: Record<string, unknown>, field: string): number {
  const value = p[field];
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1)
    throw new Error(`payload.${field}: must be a whole number, 1 or more`);
  return value;
}

/** `x` and `y` together, or neither (then the action happens where the pointer is). */
function optionalPoint(p: Record<string, unknown>): Point | undefined {
  if (p.x === undefined && p.y === undefined) return undefined;
  if (p.x === undefined || p.y === undefined)
    throw new Error(`payload.${p.x === undefined ? 'x' : 'y'}: is required with ${p.x === undefined ? 'y' : 'x'}`);
  return { x: coordinate(p, 'x'), y: coordinate(p, 'y') };
}

function delta(p: Record<string, unknown>, field: string): number {
  const value = p[field] ?? 0;
  if (typeof value !== 'number' || !Number.isInteger(value)) throw new Error(`payload.${field}: must be a whole number of pixels`);
  return value;
}

const BUTTONS: readonly MouseButton[] = ['left', 'right', 'middle', 'back', 'forward'];

function button(p: Record<string, unknown>): MouseButton {
  const value = p.button ?? 'left';
  if (!BUTTONS.includes(value as MouseButton)) throw new Error(`payload.button: must be one of ${BUTTONS.join(', ')}`);
  return value as MouseButton;
}

const MODIFIERS: readonly Modifier[] = ['shift', 'ctrl', 'alt', 'super'];

function modifiers(p: Record<string, unknown>): Modifier[] {
  const value = p.modifiers ?? [];
  if (
    !Array.isArray(value) ||
    !value.every((m) => MODIFIERS.includes(m as Modifier)) ||
    new Set(value).size !== value.length ||
    (p.modifiers !== undefined && value.length === 0)
  ) {
    throw new Error(`payload.modifiers: must be a list of different names of: ${MODIFIERS.join(', ')}`);
  }
  return value as Modifier[];
}

/** `count` 1..3, or the older `double`; both given must agree. */
function clickCount(p: Record<string, unknown>): 1 | 2 | 3 {
  const double = flag(p, 'double');
  if (p.count === undefined) return double ? 2 : 1;
  if (p.count !== 1 && p.count !== 2 && p.count !== 3) throw new Error('payload.count: must be 1, 2 or 3');
  if (p.double !== undefined && (double ? 2 : 1) !== p.count) throw new Error(`payload.count: is ${p.count} but double is ${double}`);
  return p.count;
}

function keyNames(p: Record<string, unknown>): string[] {
  if (!Array.isArray(p.keys) || p.keys.length === 0 || !p.keys.every((k) => typeof k === 'string')) {
    throw new Error('payload.keys: must be a non-empty array of key names');
  }
  return p.keys as string[];
}

function milliseconds(p: Record<string, unknown>, min: number): number {
  const value = p.duration_ms;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > 10_000)
    throw new Error(`payload.duration_ms: must be a whole number of milliseconds from ${min} to 10000`);
  return value;
}

function maxSize(p: Record<string, unknown>): MaxSize {
  const side = (field: string) => {
    const value = p[field];
    if (value === undefined) return undefined;
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 16)
      throw new Error(`payload.${field}: must be a whole number, 16 or more`);
    return value;
  };
  return { maxWidth: side('max_width'), maxHeight: side('max_height') };
}

/** Either `path` (2..100 points) or `fromX`, `fromY`, `toX`, `toY`. */
function dragPath(p: Record<string, unknown>): Point[] {
  if (p.path === undefined) {
    return fromToPath({ x: coordinate(p, 'fromX'), y: coordinate(p, 'fromY') }, { x: coordinate(p, 'toX'), y: coordinate(p, 'toY') });
  }
  if (['fromX', 'fromY', 'toX', 'toY'].some((name) => p[name] !== undefined))
    throw new Error('payload.path: cannot be given with fromX, fromY, toX, toY (give one form)');
  if (!Array.isArray(p.path) || p.path.length < 2 || p.path.length > 100)
    throw new Error('payload.path: must be a list of 2 to 100 points {x, y}');
  return p.path.map((point: unknown, i: number) => {
    if (typeof point !== 'object' || point === null) throw new Error(`payload.path[${i}]: must be a point {x, y}`);
    const q = point as Record<string, unknown>;
    try {
      return { x: coordinate(q, 'x'), y: coordinate(q, 'y') };
    } catch {
      throw new Error(`payload.path[${i}]: x and y must be whole numbers of pixels, 0 or more`);
    }
  });
}

/** The from/to form of a drag as a path through the midpoint, as the agent always moved. */
export function fromToPath(from: Point, to: Point): Point[] {
  return [from, { x: Math.round((from.x + to.x) / 2), y: Math.round((from.y + to.y) / 2) }, to];
}

function flag(p: Record<string, unknown>, field: string): boolean {
  const value = p[field] ?? false;
  if (typeof value !== 'boolean') throw new Error(`payload.${field}: must be true or false`);
  return value;
}
