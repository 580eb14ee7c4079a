import type { CommandType, PolledCommand } from '@mindservice/contract';
import { type Conn, runSql } from '../db/database.js';
import { postgresTouchMind } from '../events/recorder.js';
import type { OneStatementDispatch, QueueAttempt, QueueFacts } from './dispatch.js';

// PostgreSQL: each round trip to the server costs more than the statements of a dispatch, so queueing
// and claiming are one statement each (one round trip, one implicit transaction) instead of five.

/**
 * One round trip: finds the computer as the caller sees it and locks its row, so requests queueing
 * on it take turns and the cap holds; counts its queued commands after the lock (migration 0403);
 * queues only if the computer is active, its mind enabled and the queue below the cap; touches the
 * mind (postgresTouchMind) and notifies the instances at commit. No row: no such computer.
 * With the handoff flag (this instance holds the computer's poll, no older command waits) the
 * command is inserted `sent` and given to that poll directly, saving the poll's claim.
 */
const QUEUE = `
WITH computer AS (
  SELECT c.id, c.mind_id, c.status, m.disabled_at IS NOT NULL AS mind_disabled
  FROM computers c LEFT JOIN minds m ON m.id = c.mind_id
  WHERE c.id = ? AND c.user_id = ? AND (?::text IS NULL OR c.mind_id = ?)
  FOR NO KEY UPDATE OF c
), queued AS (
  SELECT queued_commands_of(computer.id) AS n FROM computer
), handoff AS (
  SELECT ?::boolean AND queued.n = 0 AS now FROM queued
), inserted AS (
  INSERT INTO commands (id, computer_id, type, payload, status, attempts, created_at, sent_at)
  SELECT ?, computer.id, ?, ?, CASE WHEN handoff.now THEN 'sent' ELSE 'queued' END, CASE WHEN handoff.now THEN 1 ELSE 0 END, ?,
    CASE WHEN handoff.now THEN ? END
  FROM computer, queued, handoff
  WHERE computer.status = 'active' AND NOT computer.mind_disabled AND queued.n < ?
  RETURNING computer_id, status, CASE WHEN status = 'queued' THEN pg_notify(?, computer_id) END
), seen AS (
  UPDATE computers SET last_seen_at = ? WHERE id = (SELECT computer_id FROM inserted WHERE status = 'sent')
), touched AS (
  ${postgresTouchMind('(SELECT computer.mind_id FROM computer, inserted)')}
)
SELECT computer.mind_id, computer.status, computer.mind_disabled, queued.n AS queued_before,
  EXISTS (SELECT 1 FROM inserted) AS inserted, EXISTS (SELECT 1 FROM inserted WHERE status = 'sent') AS handed_over
FROM computer, queued`;

/** A handed-over command whose poll had gone meanwhile goes back to the queue, and the instances are told. */
const REQUEUE = `
UPDATE commands SET status = 'queued', sent_at = NULL, attempts = attempts - 1
WHERE id = ? AND status = 'sent'
RETURNING pg_notify(?, computer_id)`;

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
  handed_over: boolean;
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
    const { command, scope, cap, notifyChannel, handOver } = attempt;
    const mindId = scope.mindId ?? null;
    const [row] = await runSql<QueueRow>(conn, QUEUE, [
      command.computer_id,
      scope.userId,
      mindId,
      mindId,
      handOver,
      command.command_id,
      command.type,
      JSON.stringify(command.payload),
      command.created_at,
      command.created_at,
      cap,
      notifyChannel,
      command.created_at,
      command.created_at,
    ]);
    if (!row) return undefined;
    return {
      mindId: row.mind_id,
      active: row.status === 'active',
      mindDisabled: row.mind_disabled,
      queuedBefore: Number(row.queued_before),
      queued: row.inserted,
      handedOver: row.handed_over,
    };
  },

  async requeue(conn: Conn, commandId: string, notifyChannel: string): Promise<void> {
    await runSql(conn, REQUEUE, [commandId, notifyChannel]);
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
