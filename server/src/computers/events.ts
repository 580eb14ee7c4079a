import type { Command } from '@mindservice/contract';
import type { AppContext } from '../core/context.js';
import type { Trx } from '../db/database.js';

/** An event's copy of a command: the screenshot's bytes stay out of events and webhook deliveries. */
export function commandForEvent(command: Command): Record<string, unknown> {
  if (!command.result || !('screenshot_b64' in command.result)) return { ...command };
  const { screenshot_b64: _bytes, ...rest } = command.result;
  return { ...command, result: rest };
}

/**
 * Events belong to a mind. A computer registered with a user's JWT and no mind has no mind to
 * record into (and no webhook could subscribe to it), so its changes record no event.
 */
export async function recordComputerEvent(
  ctx: AppContext,
  trx: Trx,
  mindId: string | null,
  name: 'computer.registered' | 'computer.command_finished',
  data: Record<string, unknown>,
) {
  if (mindId) await ctx.events.record(trx, mindId, name, data);
}

/** `computer.command_finished` for a command that reached a final status. */
export const recordCommandFinished = (ctx: AppContext, trx: Trx, mindId: string | null, command: Command) =>
  recordComputerEvent(ctx, trx, mindId, 'computer.command_finished', commandForEvent(command));
