import { type Command, ERROR_MESSAGES } from '@mindservice/contract';
import type { AppContext } from '../core/context.js';
import { ApiError } from '../http/api-error.js';
import type { CommandBus } from './bus.js';
import type { OneStatementDispatch, QueueFacts } from './dispatch.js';
import type { ComputerScope, StoredComputer } from './store.js';

/** The computer a command was queued on. */
export type QueuedOn = Pick<StoredComputer, 'id' | 'mind_id'>;

/** PostgreSQL: looks, checks, queues and notifies the other instances in one round trip. */
export async function queueInOneStatement(
  ctx: AppContext,
  bus: CommandBus,
  dispatch: OneStatementDispatch,
  { scope, command, channel }: { scope: ComputerScope; command: Command; channel: string },
): Promise<QueuedOn> {
  const cap = ctx.config.maxQueuedCommandsPerComputer;
  // The computer's poll held here, if any, waits for this statement instead of claiming afterwards.
  const poll = bus.takePoll(command.computer_id);
  let facts: QueueFacts | undefined;
  try {
    facts = await dispatch.queue(ctx.db, { command, scope, cap, notifyChannel: channel, handOver: !!poll });
  } finally {
    if (!facts?.handedOver) poll?.release();
  }
  if (!facts) throw ApiError.notFound('Computer');
  if (!facts.queued) {
    if (facts.mindDisabled) throw ApiError.forbidden('mind_disabled', ERROR_MESSAGES.mindDisabled);
    if (!facts.active) throw ApiError.conflict('computer_disabled', ERROR_MESSAGES.computerDisabled);
    throw ApiError.conflict('command_queue_full', ERROR_MESSAGES.commandQueueFull(cap));
  }
  if (facts.handedOver) {
    const { command_id, type, payload, created_at } = command;
    // Its client went away meanwhile: nobody has seen the command, so it waits for the next poll.
    if (!poll!.deliver([{ command_id, type, payload, created_at }])) {
      // The command is stored either way; should this fail, the sweeper ends it as not reported.
      await dispatch.requeue(ctx.db, command_id, channel).then(
        () => bus.notifyComputerHere(command.computer_id),
        (err: unknown) => ctx.log.warn({ err, command_id }, 'command: a handoff whose poll had gone was not queued again'),
      );
    }
  } else bus.notifyComputerHere(command.computer_id); // the statement told the other instances
  return { id: command.computer_id, mind_id: facts.mindId };
}
