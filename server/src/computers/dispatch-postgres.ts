import type { CommandType, PolledCommand } from '@mindservice/contract';
import { type Conn, runSql } from '../db/database.js';
import { postgresTouchMind } from '../events/recorder.js';
import type { OneStatementDispatch, QueueAttempt, QueueFacts } from './dispatch.js';

// PostgreSQL: each round trip to the server costs more than the statements of a dispatch, so queueing
// and claiming are one statement each (one round trip, one implicit transaction) instead of five.

/**
 * Finds the computer as the caller may see it, counts its queued commands, and queues the command
 * only if the computer is active, its mind enabled and the queue below the cap; then moves the
 * mind's last_activity as every write does (events/recorder.ts postgresTouchMind: a row another
 * writer holds is skipped) and notifies the instances (the NOTIFY is delivered at commit, so no
 * instance wakes for a command that is not there). No row: no such computer for this caller.
 */
const QUEUE = `
WITH computer AS (
  SELECT c.id, c.mind_id, c.status, m.disabled_at IS NOT NULL AS mind_disabled
  FROM computers c LEFT JOIN minds m ON m.id = c.mind_id
  WHERE c.id = ? AND c.user_id = ? AND (?::text IS NULL OR c.mind_id = ?)
), queued AS (
  SELECT count(*)::int AS n FROM commands WHERE computer_id = ? AND status = 'queued'
), inserted AS (
  INSERT INTO commands (id, computer_id, type, payload, status, attempts, created_at)
  SELECT ?, computer.id, ?, ?, 'queued', 0, ?
  FROM computer, queued
  WHERE computer.status = 'active' AND NOT computer.mind_disabled AND queued.n < ?
  RETURNING computer_id, pg_notify(?, computer_id)
), touched AS (
  ${postgresTouchMind('(SELECT computer.mind_id FROM computer, inserted)')}
)
SELECT computer.mind_id, computer.status, computer.mind_disabled, queued.n AS queued_before,
  EXISTS (SELECT 1 FROM inserted) AS inserted
FROM computer, queued`;

/**
 * Touches the computer if it is active, and only then hands over its oldest queued commands
 * (`queued` -> `sent`); rows another instance is claiming are skipped, so two polls never take one
 * command. No row: the computer is disabled or gone; one row with a null id: nothing was queued.
 */
const CLAIM = `
WITH computer AS (
  UPDATE computers SET last_seen_at = ? WHERE id = ? AND status = 'active' RETURNING id
), picked AS MATERIALIZED (
  SELECT seq FROM commands
  WHERE computer_id = ? AND status = 'queued' AND EXISTS (SELECT 1 FROM computer)
  ORDER BY seq LIMIT ? FOR UPDATE SKIP LOCKED
), claimed AS (
  UPDATE commands SET status = 'sent', sent_at = ?, attempts = commands.attempts + 1
  FROM picked WHERE commands.seq = picked.seq
  RETURNING commands.seq, commands.id, commands.type, commands.payload, commands.created_at
)
SELECT claimed.seq, claimed.id, claimed.type, claimed.payload, claimed.created_at
FROM computer LEFT JOIN claimed ON true
ORDER BY claimed.seq`;

interface QueueRow {
  mind_id: string | null;
  status: 'active' | 'disabled';
  mind_disabled: boolean;
  queued_before: number;
  inserted: boolean;
}

interface ClaimRow {
  seq: number | null;
  id: string | null;
  type: CommandType;
  payload: string;
  created_at: string;
}

export const postgresDispatch: OneStatementDispatch = {
  async queue(conn: Conn, attempt: QueueAttempt): Promise<QueueFacts | undefined> {
    const { command, scope, cap, notifyChannel } = attempt;
    const mindId = scope.mindId ?? null;
    const [row] = await runSql<QueueRow>(conn, QUEUE, [
      command.computer_id,
      scope.userId,
      mindId,
      mindId,
      command.computer_id,
      command.command_id,
      command.type,
      JSON.stringify(command.payload),
      command.created_at,
      cap,
      notifyChannel,
      command.created_at,
    ]);
    if (!row) return undefined;
    return {
      mindId: row.mind_id,
      active: row.status === 'active',
      mindDisabled: row.mind_disabled,
      queuedBefore: Number(row.queued_before),
      queued: row.inserted,
    };
  },

  async claim(conn: Conn, computerId: string, now: string, limit: number): Promise<PolledCommand[] | undefined> {
    const rows = await runSql<ClaimRow>(conn, CLAIM, [now, computerId, computerId, limit, now]);
    if (rows.length === 0) return undefined;
    return rows
      .filter((row) => row.id !== null)
      .map((row) => ({
        command_id: row.id!,
        type: row.type,
        payload: JSON.parse(row.payload) as Record<string, unknown>,
        created_at: row.created_at,
      }));
  },
};
