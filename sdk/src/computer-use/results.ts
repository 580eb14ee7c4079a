// What both vocabularies read from a finished command: its screenshot, its point, or why it failed.
import type { Command } from '../types.js';
import { ComputerUseError } from './errors.js';

/** The longest `wait` and `hold_key` a command takes. */
export const MAX_WAIT_MS = 10_000;

/** Why a command did not finish well, or undefined when it is `done`. */
export function failure(command: Command): string | undefined {
  if (command.status === 'done') return undefined;
  return `${command.type} ${command.status}${command.error ? `: ${command.error}` : ''}`;
}

/**
 * The PNG a finished command carried, base64, or undefined when it carried none. Lists and events hold
 * only `result.screenshot: {bytes, url}`; the bytes come with `computers.getCommand()` (and `run()`).
 */
export function commandScreenshot(command: Command, field: string): string | undefined {
  const result = command.result;
  if (!result) return undefined;
  if (typeof result.screenshot_b64 === 'string') return result.screenshot_b64;
  if (result.screenshot) {
    throw new ComputerUseError(
      `${field}.result.screenshot_b64`,
      'is missing: read the command with computers.getCommand() (lists and events leave the bytes out)',
    );
  }
  return undefined;
}

/** The `x`, `y` of a `cursor_position` result, in screen pixels. */
export function pointOf(command: Command): { x: number; y: number } {
  const { x, y } = (command.result ?? {}) as { x?: unknown; y?: unknown };
  if (typeof x !== 'number' || typeof y !== 'number') {
    throw new ComputerUseError('command.result', `a cursor_position result needs numbers x and y, got ${JSON.stringify(command.result)}`);
  }
  return { x, y };
}
