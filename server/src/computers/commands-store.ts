import type { Command, CommandStatus, CommandType } from '@mindservice/contract';
import type { Conn, Dialect } from '../db/database.js';
import { presentResult } from './results.js';

// Commands and their screenshots (kept apart in command_screenshots, so lists never read the PNG).

interface CommandRow {
  seq: number;
  id: string;
  computer_id: string;
  type: CommandType;
  payload: string;
  status: CommandStatus;
  result: string | null;
  error: string | null;
  attempts: number;
  created_at: string;
  sent_at: string | null;
  completed_at: string | null;
  /** Size of the PNG kept in `command_screenshots`; null when the result carried none. */
  screenshot_bytes: number | null;
}

interface ScreenshotRow {
  command_id: string;
  png: Buffer;
}

const COMMAND_COLUMNS = [
  'id',
  'computer_id',
  'type',
  'payload',
  'status',
  'result',
  'error',
  'attempts',
  'created_at',
  'sent_at',
  'completed_at',
  'screenshot_bytes',
] as const;

const FINISHED: CommandStatus[] = ['done', 'failed', 'expired', 'cancelled'];

/** A command row as clients see it: a screenshot as `{bytes, url}`, its PNG only when given (one command). */
const toCommand = (row: Pick<CommandRow, (typeof COMMAND_COLUMNS)[number]>, png?: Buffer): Command => ({
  command_id: row.id,
  computer_id: row.computer_id,
  type: row.type,
  payload: JSON.parse(row.payload) as Record<string, unknown>,
  status: row.status,
  result: presentResult(
    row.computer_id,
    row.id,
    row.result === null ? null : (JSON.parse(row.result) as Record<string, unknown>),
    row.screenshot_bytes === null ? null : Number(row.screenshot_bytes),
    png,
  ),
  error: row.error,
  attempts: Number(row.attempts),
  created_at: row.created_at,
  sent_at: row.sent_at,
  completed_at: row.completed_at,
});

// ---- commands

export async function insertCommand(conn: Conn, command: Command) {
  await conn<CommandRow>('commands').insert({
    id: command.command_id,
    computer_id: command.computer_id,
    type: command.type,
    payload: JSON.stringify(command.payload),
    status: command.status,
    result: null,
    error: null,
    attempts: 0,
    created_at: command.created_at,
    sent_at: null,
    completed_at: null,
  });
}

/** One command; with `withScreenshot` its result carries the PNG as `screenshot_b64` too. */
export async function findCommand(conn: Conn, computerId: string, id: string, withScreenshot = false): Promise<Command | undefined> {
  const row = await conn<CommandRow>('commands')
    .where({ id, computer_id: computerId })
    .first(...COMMAND_COLUMNS);
  if (!row) return undefined;
  const png = withScreenshot && row.screenshot_bytes !== null ? await findScreenshot(conn, computerId, id) : undefined;
  return toCommand(row, png);
}

/** The PNG a command of this computer carried; undefined when it has none (or no such command). */
export async function findScreenshot(conn: Conn, computerId: string, commandId: string): Promise<Buffer | undefined> {
  const row = await conn<ScreenshotRow>('command_screenshots as s')
    .join('commands as c', 'c.id', 's.command_id')
    .where({ 's.command_id': commandId, 'c.computer_id': computerId })
    .first('s.png');
  return row ? Buffer.from(row.png) : undefined;
}

/**
 * A page of the computer's commands, newest first, after the command numbered `beforeSeq`; one row
 * more than asked says whether another page follows. Never reads a PNG.
 */
export async function listCommands(
  conn: Conn,
  computerId: string,
  limit: number,
  beforeSeq?: number,
): Promise<{ commands: Command[]; seqs: number[]; more: boolean }> {
  let query = conn<CommandRow>('commands').where({ computer_id: computerId });
  if (beforeSeq !== undefined) query = query.where('seq', '<', beforeSeq);
  const rows = await query
    .orderBy('seq', 'desc')
    .limit(limit + 1)
    .select('seq', ...COMMAND_COLUMNS);
  const page = rows.slice(0, limit);
  return {
    commands: page.map((row) => toCommand(row)),
    seqs: page.map((row) => Number(row.seq)),
    more: rows.length > limit,
  };
}

/** Commands still waiting for the agent, for the per-computer cap. */
export async function countQueuedCommands(conn: Conn, computerId: string): Promise<number> {
  const row = await conn<CommandRow>('commands').where({ computer_id: computerId, status: 'queued' }).count({ n: '*' }).first();
  return Number(row?.n ?? 0);
}

/** Whether a command waits for this computer (a poll looks before it opens a transaction to claim). */
export async function hasQueuedCommands(conn: Conn, computerId: string): Promise<boolean> {
  return (await conn<CommandRow>('commands').where({ computer_id: computerId, status: 'queued' }).first('id')) !== undefined;
}

/**
 * Hands the oldest queued commands to the agent: `queued` -> `sent` in the caller's transaction.
 * Where several instances share the database the rows are locked (and rows another instance holds
 * are skipped) so two polls can never take the same command; SQLite serialises write transactions on
 * its one connection.
 */
export async function claimQueuedCommands(
  conn: Conn,
  dialect: Dialect,
  computerId: string,
  now: string,
  limit: number,
): Promise<Command[]> {
  const rows = await dialect.forUpdateSkipLocked(
    conn<CommandRow>('commands')
      .where({ computer_id: computerId, status: 'queued' })
      .orderBy('seq')
      .limit(limit)
      .select(...COMMAND_COLUMNS),
  );
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  await conn<CommandRow>('commands')
    .whereIn('id', ids)
    .update({ status: 'sent', sent_at: now, attempts: conn.raw('attempts + 1') as never });
  return rows.map((row) => ({ ...toCommand(row), status: 'sent' as const, sent_at: now, attempts: Number(row.attempts) + 1 }));
}

/** Handed-over commands that reached nobody are `queued` again, as if never handed over (unless finished meanwhile). */
export async function requeueSentCommands(conn: Conn, computerId: string, ids: string[]): Promise<void> {
  await conn<CommandRow>('commands')
    .where({ computer_id: computerId, status: 'sent' })
    .whereIn('id', ids)
    .update({ status: 'queued', sent_at: null, attempts: conn.raw('attempts - 1') as never });
}

/** Moves a command from one of `from` to its next state; undefined when it was in none of them. */
export async function transitionCommand(
  conn: Conn,
  where: { id: string; computerId: string; from: CommandStatus[] },
  change: {
    status: CommandStatus;
    result?: Record<string, unknown> | null;
    /** The PNG the result carried, kept apart from the row (lists never read it). */
    screenshot?: Buffer;
    error?: string | null;
    completed_at?: string | null;
  },
): Promise<boolean> {
  const update: Partial<CommandRow> = { status: change.status };
  if (change.result !== undefined) update.result = change.result === null ? null : JSON.stringify(change.result);
  if (change.screenshot) update.screenshot_bytes = change.screenshot.length;
  if (change.error !== undefined) update.error = change.error;
  if (change.completed_at !== undefined) update.completed_at = change.completed_at;
  const changed = await conn<CommandRow>('commands')
    .where({ id: where.id, computer_id: where.computerId })
    .whereIn('status', where.from)
    .update(update);
  if (changed > 0 && change.screenshot) {
    await conn<ScreenshotRow>('command_screenshots').insert({ command_id: where.id, png: change.screenshot });
  }
  return changed > 0;
}

/** Unfinished commands created before `cutoff`, for the sweeper (oldest first, in batches). */
export async function findUnfinishedCreatedBefore(conn: Conn, cutoff: string, limit: number) {
  const rows = await conn<CommandRow>('commands')
    .whereIn('status', ['queued', 'sent'])
    .where('created_at', '<', cutoff)
    .orderBy('created_at')
    .limit(limit)
    .select(...COMMAND_COLUMNS);
  return rows.map((row) => toCommand(row));
}

/** `sent` commands handed over before `cutoff` whose result never came back. */
export async function findLapsedLeases(conn: Conn, cutoff: string, limit: number) {
  const rows = await conn<CommandRow>('commands')
    .where({ status: 'sent' })
    .where('sent_at', '<', cutoff)
    .orderBy('sent_at')
    .limit(limit)
    .select(...COMMAND_COLUMNS);
  return rows.map((row) => toCommand(row));
}

// ---- retention: finished commands (and their screenshots, ON DELETE CASCADE) are purged in chunks

/** Deletes up to `limit` commands finished before `cutoff` (oldest first); answers how many. */
export async function purgeFinishedBefore(conn: Conn, cutoff: string, limit: number): Promise<number> {
  const ids = conn<CommandRow>('commands').where('completed_at', '<', cutoff).orderBy('completed_at').limit(limit).select('id');
  return conn<CommandRow>('commands').whereIn('id', ids).delete();
}

/** The `seq` of the newest command beyond the `keep` newest of the computer; undefined when it has no more. */
export async function seqBeyondKept(conn: Conn, computerId: string, keep: number): Promise<number | undefined> {
  const row = await conn<CommandRow>('commands').where({ computer_id: computerId }).orderBy('seq', 'desc').offset(keep).first('seq');
  return row ? Number(row.seq) : undefined;
}

/** Deletes up to `limit` finished commands of the computer numbered `seq` or lower (oldest first). */
export async function purgeFinishedUpTo(conn: Conn, computerId: string, seq: number, limit: number): Promise<number> {
  const ids = conn<CommandRow>('commands')
    .where({ computer_id: computerId })
    .where('seq', '<=', seq)
    .whereIn('status', FINISHED)
    .orderBy('seq')
    .limit(limit)
    .select('id');
  return conn<CommandRow>('commands').whereIn('id', ids).delete();
}
