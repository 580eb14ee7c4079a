// Runs one polled command on a driver and shapes what the agent reports: `{ok, duration_ms, ...}`.
// The server validates payloads when commands are queued; the agent checks again so that a newer
// server (or a bug) can never make it run a command with missing or odd values.
import type { Driver, MouseButton } from './drivers/driver.js';

export interface CommandToRun {
  command_id: string;
  type: string;
  payload: Record<string, unknown>;
}

export type CommandOutcome =
  | { status: 'done'; result: Record<string, unknown> }
  | { status: 'failed'; result: Record<string, unknown>; error: string };

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
    case 'screenshot': {
      const shot = await driver.screenshot();
      return { screenshot_b64: shot.png.toString('base64'), width: shot.width, height: shot.height };
    }
    case 'click':
      return driver.click({ x: coordinate(p, 'x'), y: coordinate(p, 'y'), button: button(p), double: flag(p, 'double') });
    case 'move':
      return driver.move({ x: coordinate(p, 'x'), y: coordinate(p, 'y') });
    case 'type': {
      if (typeof p.text !== 'string' || p.text.length === 0) throw new Error('payload.text: must be a non-empty string');
      return driver.type({ text: p.text });
    }
    case 'key': {
      if (!Array.isArray(p.keys) || p.keys.length === 0 || !p.keys.every((k) => typeof k === 'string')) {
        throw new Error('payload.keys: must be a non-empty array of key names');
      }
      return driver.key({ keys: p.keys as string[] });
    }
    case 'scroll':
      return driver.scroll({ deltaX: delta(p, 'deltaX'), deltaY: delta(p, 'deltaY') });
    case 'drag':
      return driver.drag({
        fromX: coordinate(p, 'fromX'),
        fromY: coordinate(p, 'fromY'),
        toX: coordinate(p, 'toX'),
        toY: coordinate(p, 'toY'),
      });
    default:
      throw new Error(`unknown command type "${type}": this agent knows screenshot, click, move, type, key, scroll and drag`);
  }
}

function coordinate(p: Record<string, unknown>, field: string): number {
  const value = p[field];
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0)
    throw new Error(`payload.${field}: must be a whole number of pixels, 0 or more`);
  return value;
}

function delta(p: Record<string, unknown>, field: string): number {
  const value = p[field] ?? 0;
  if (typeof value !== 'number' || !Number.isInteger(value)) throw new Error(`payload.${field}: must be a whole number of pixels`);
  return value;
}

function button(p: Record<string, unknown>): MouseButton {
  const value = p.button ?? 'left';
  if (value !== 'left' && value !== 'right' && value !== 'middle') throw new Error('payload.button: must be left, right or middle');
  return value;
}

function flag(p: Record<string, unknown>, field: string): boolean {
  const value = p[field] ?? false;
  if (typeof value !== 'boolean') throw new Error(`payload.${field}: must be true or false`);
  return value;
}
