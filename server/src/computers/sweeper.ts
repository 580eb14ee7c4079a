import type { Command, CommandStatus } from '@mindservice/contract';
import type { AppContext } from '../core/context.js';
import { BackgroundLoop } from '../lib/background-loop.js';
import type { CommandBus } from './bus.js';
import { recordCommandFinished } from './events.js';
import {
  AGENT_DID_NOT_REPORT,
  COMMAND_TTL_MS,
  NOT_FINISHED_IN_TIME,
  PURGE_CHUNK,
  PURGE_CHUNKS,
  PURGE_COUNT_CHECKS as COUNT_CHECKS,
  PURGE_MAX_TOUCHED as MAX_TOUCHED,
  SCREENSHOT_MAX_ATTEMPTS,
  SENT_LEASE_MS,
  SWEEP_INTERVAL_MS,
} from './rules.js';
import {
  findLapsedLeases,
  findUnfinishedCreatedBefore,
  purgeFinishedBefore,
  purgeFinishedUpTo,
  seqBeyondKept,
  transitionCommand,
} from './commands-store.js';
import { computerIdsAfter, computerMindId } from './store.js';

export interface SweepCounts {
  expired: number;
  failed: number;
  requeued: number;
  /** Finished commands deleted (with their screenshots) by age or by count per computer. */
  purged: number;
}

const BATCH = 500;

/**
 * Keeps finished commands for `MIND_COMMAND_RETENTION` and at most `MIND_COMMANDS_KEPT_PER_COMPUTER`
 * per computer (unfinished ones are never purged); screenshots go with their commands. The count is
 * checked for the computers that got commands since the last sweep, and once after start for every
 * computer (a lowered setting, commands queued through another instance), a chunk at a time.
 */
export class CommandRetention {
  private readonly touched = new Set<string>();
  /** Where the walk over every computer stands; null once it went through them all. */
  private walkAfter: string | null = '';

  constructor(private readonly ctx: AppContext) {}

  /** A computer got a command: its count is checked at the next sweep. */
  noteQueued(computerId: string) {
    if (this.touched.size < MAX_TOUCHED) this.touched.add(computerId);
  }

  async purge(now: Date): Promise<number> {
    let purged = 0;
    const { commandRetentionMs, commandsKeptPerComputer } = this.ctx.config;
    if (commandRetentionMs > 0) {
      const cutoff = new Date(now.getTime() - commandRetentionMs).toISOString();
      for (let i = 0; i < PURGE_CHUNKS; i++) {
        const n = await purgeFinishedBefore(this.ctx.db, cutoff, PURGE_CHUNK);
        purged += n;
        if (n < PURGE_CHUNK) break;
      }
    }
    if (commandsKeptPerComputer > 0) {
      let budget = PURGE_CHUNKS * PURGE_CHUNK;
      for (const computerId of await this.computersToCheck()) {
        if (budget <= 0) {
          this.noteQueued(computerId);
          continue;
        }
        const beyond = await seqBeyondKept(this.ctx.db, computerId, commandsKeptPerComputer);
        if (beyond === undefined) continue;
        const n = await purgeFinishedUpTo(this.ctx.db, computerId, beyond, Math.min(PURGE_CHUNK, budget));
        purged += n;
        budget -= n;
        if (n === PURGE_CHUNK) this.noteQueued(computerId); // more left: again next sweep
      }
    }
    return purged;
  }

  private async computersToCheck(): Promise<string[]> {
    const ids = [...this.touched].slice(0, COUNT_CHECKS);
    for (const id of ids) this.touched.delete(id);
    if (this.walkAfter !== null && ids.length < COUNT_CHECKS) {
      const walked = await computerIdsAfter(this.ctx.db, this.walkAfter, COUNT_CHECKS - ids.length);
      this.walkAfter = walked.length < COUNT_CHECKS - ids.length ? null : walked[walked.length - 1]!;
      ids.push(...walked.filter((id) => !ids.includes(id)));
    }
    return ids;
  }
}

/**
 * One pass: unfinished commands past their time to live become `expired`; `sent` commands whose
 * result did not come back within the lease become `failed` (never run twice), except screenshots,
 * which are harmless to repeat and are queued again up to SCREENSHOT_MAX_ATTEMPTS hand-overs.
 */
export async function sweepCommands(ctx: AppContext, bus: CommandBus, retention?: CommandRetention): Promise<SweepCounts> {
  const counts: SweepCounts = { expired: 0, failed: 0, requeued: 0, purged: 0 };
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
  if (retention) counts.purged = await retention.purge(now);
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

/** The one sweeper of the process; the returned function stops it and waits for a sweep under way. */
export function startSweeper(ctx: AppContext, bus: CommandBus, retention?: CommandRetention): () => Promise<void> {
  const loop = new BackgroundLoop({
    step: async () => {
      const started = Date.now();
      await sweepCommands(ctx, bus, retention);
      // On the interval's beat (a sweep longer than the interval skips beats, as setInterval did).
      return SWEEP_INTERVAL_MS - ((Date.now() - started) % SWEEP_INTERVAL_MS);
    },
    log: ctx.log,
    failure: 'command sweep failed',
    retryMs: SWEEP_INTERVAL_MS,
  });
  loop.wake(SWEEP_INTERVAL_MS);
  return () => loop.stop();
}
