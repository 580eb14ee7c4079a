import type { Command, CommandStatus } from '@mindservice/contract';
import type { AppContext } from '../context.js';
import type { CommandBus } from './bus.js';
import { recordCommandFinished } from './events.js';
import {
  AGENT_DID_NOT_REPORT,
  COMMAND_TTL_MS,
  NOT_FINISHED_IN_TIME,
  SCREENSHOT_MAX_ATTEMPTS,
  SENT_LEASE_MS,
  SWEEP_INTERVAL_MS,
} from './rules.js';
import { computerMindId, findLapsedLeases, findUnfinishedCreatedBefore, transitionCommand } from './store.js';

export interface SweepCounts {
  expired: number;
  failed: number;
  requeued: number;
}

const BATCH = 500;

/**
 * One pass: unfinished commands past their time to live become `expired`; `sent` commands whose
 * result did not come back within the lease become `failed` (never run twice), except screenshots,
 * which are harmless to repeat and are queued again up to SCREENSHOT_MAX_ATTEMPTS hand-overs.
 */
export async function sweepCommands(ctx: AppContext, bus: CommandBus): Promise<SweepCounts> {
  const counts: SweepCounts = { expired: 0, failed: 0, requeued: 0 };
  const now = ctx.clock.now();
  const at = (msAgo: number) => new Date(now.getTime() - msAgo).toISOString();

  for (const command of await findUnfinishedCreatedBefore(ctx.db, at(COMMAND_TTL_MS), BATCH)) {
    if (await finish(ctx, command, ['queued', 'sent'], { status: 'expired', error: NOT_FINISHED_IN_TIME, now: now.toISOString() })) {
      counts.expired++;
      bus.notifyCommand(command.command_id);
    }
  }
  for (const command of await findLapsedLeases(ctx.db, at(SENT_LEASE_MS), BATCH)) {
    if (command.type === 'screenshot' && command.attempts < SCREENSHOT_MAX_ATTEMPTS) {
      const where = { id: command.command_id, computerId: command.computer_id, from: ['sent' as const] };
      if (await transitionCommand(ctx.db, where, { status: 'queued' })) {
        counts.requeued++;
        bus.notifyComputer(command.computer_id);
      }
      continue;
    }
    const error = command.type === 'screenshot' ? `${AGENT_DID_NOT_REPORT} (${command.attempts} attempts)` : AGENT_DID_NOT_REPORT;
    if (await finish(ctx, command, ['sent'], { status: 'failed', error, now: now.toISOString() })) {
      counts.failed++;
      bus.notifyCommand(command.command_id);
    }
  }
  return counts;
}

/** Ends an unfinished command with its event, in one transaction; false when it finished meanwhile. */
function finish(
  ctx: AppContext,
  command: Command,
  from: CommandStatus[],
  { status, error, now }: { status: 'expired' | 'failed'; error: string; now: string },
) {
  return ctx.db.transaction(async (trx) => {
    const where = { id: command.command_id, computerId: command.computer_id, from };
    if (!(await transitionCommand(trx, where, { status, error, completed_at: now }))) return false;
    const mindId = await computerMindId(trx, command.computer_id);
    await recordCommandFinished(ctx, trx, mindId, { ...command, status, error, completed_at: now });
    return true;
  });
}

/** The one sweeper timer of the process; the returned function stops it and waits for a sweep under way. */
export function startSweeper(ctx: AppContext, bus: CommandBus): () => Promise<void> {
  let running: Promise<unknown> | undefined;
  const timer = setInterval(() => {
    if (running) return;
    running = sweepCommands(ctx, bus)
      .catch((err) => ctx.log.error({ err }, 'command sweep failed'))
      .finally(() => (running = undefined));
  }, SWEEP_INTERVAL_MS);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await running;
  };
}
