import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import type { AppContext } from '../core/context.js';
import type { Conn } from '../db/database.js';
import { BackgroundLoop } from '../lib/background-loop.js';
import { deleteMindRow, markMindRowDeleted, mindsToPurge } from './store.js';

/**
 * One chunk of a deleted mind's rows: a DELETE of at most `?` rows chosen by a subquery over an
 * index that starts with the mind (or its webhooks / computers), children before their parents, so
 * the ON DELETE CASCADE each chunk sets off stays small (a delivery's attempts, a memory's search
 * index rows). Every statement is plain SQL for SQLite and PostgreSQL (row values included).
 */
const CHUNKS: Array<{ table: string; sql: string }> = [
  // Computers first: the user's JWT still lists them (disabled through their mind) until they go.
  {
    table: 'commands',
    sql: `DELETE FROM commands WHERE id IN (SELECT id FROM commands
            WHERE computer_id IN (SELECT id FROM computers WHERE mind_id = ?) LIMIT ?)`,
  },
  { table: 'computers', sql: 'DELETE FROM computers WHERE id IN (SELECT id FROM computers WHERE mind_id = ? LIMIT ?)' },
  {
    table: 'install_codes',
    sql: 'DELETE FROM install_codes WHERE code_hash IN (SELECT code_hash FROM install_codes WHERE mind_id = ? LIMIT ?)',
  },
  {
    table: 'webhook_deliveries',
    sql: `DELETE FROM webhook_deliveries WHERE id IN (SELECT id FROM webhook_deliveries
            WHERE webhook_id IN (SELECT id FROM webhooks WHERE mind_id = ?) LIMIT ?)`,
  },
  { table: 'events', sql: 'DELETE FROM events WHERE id IN (SELECT id FROM events WHERE mind_id = ? LIMIT ?)' },
  {
    table: 'memory_tags',
    sql: 'DELETE FROM memory_tags WHERE (memory_id, tag) IN (SELECT memory_id, tag FROM memory_tags WHERE mind_id = ? LIMIT ?)',
  },
  {
    table: 'memory_versions',
    sql: 'DELETE FROM memory_versions WHERE id IN (SELECT id FROM memory_versions WHERE mind_id = ? LIMIT ?)',
  },
  { table: 'memories', sql: 'DELETE FROM memories WHERE id IN (SELECT id FROM memories WHERE mind_id = ? LIMIT ?)' },
  { table: 'chat_messages', sql: 'DELETE FROM chat_messages WHERE id IN (SELECT id FROM chat_messages WHERE mind_id = ? LIMIT ?)' },
  { table: 'tasks', sql: 'DELETE FROM tasks WHERE id IN (SELECT id FROM tasks WHERE mind_id = ? LIMIT ?)' },
  { table: 'scripts', sql: 'DELETE FROM scripts WHERE id IN (SELECT id FROM scripts WHERE mind_id = ? LIMIT ?)' },
  { table: 'webhooks', sql: 'DELETE FROM webhooks WHERE id IN (SELECT id FROM webhooks WHERE mind_id = ? LIMIT ?)' },
  { table: 'mind_keys', sql: 'DELETE FROM mind_keys WHERE id IN (SELECT id FROM mind_keys WHERE mind_id = ? LIMIT ?)' },
];

/** Rows removed by one statement (knex answers a number on SQLite, a result with rowCount on PostgreSQL). */
async function deleteChunk(conn: Conn, sql: string, mindId: string, limit: number): Promise<number> {
  const result = (await conn.raw(sql, [mindId, limit])) as unknown;
  if (typeof result === 'number') return result;
  if (result && typeof result === 'object' && 'rowCount' in result) return Number((result as { rowCount: number }).rowCount);
  return Number((result as { changes?: number })?.changes ?? 0);
}

/** After an error (database busy, timeout), wait this long before trying again. */
const ERROR_BACKOFF_MS = 1000;

/**
 * Removes the rows of deleted minds in the background, `MIND_DELETE_CHUNK_SIZE` rows per statement,
 * yielding to the event loop between statements, so deleting a mind of 100,000 rows never holds
 * SQLite's one connection (and the event loop with it) for seconds. Durable: the work to do is the
 * minds in `mind_deletions`, so a restart resumes where it stopped; several instances on one
 * PostgreSQL may purge the same mind at once (each statement removes what is still there).
 */
export class MindPurger {
  private readonly loop: BackgroundLoop;

  constructor(private readonly ctx: AppContext) {
    this.loop = new BackgroundLoop({
      step: () => this.purgeMarked(),
      log: ctx.log,
      failure: 'mind purge: cannot remove the rows of a deleted mind; trying again',
      retryMs: ERROR_BACKOFF_MS,
    });
  }

  /** A mind was deleted (or the service started): purge what is marked. */
  wake(): void {
    this.loop.wake();
  }

  /** Purges every marked mind; sleeps until the next wake. */
  private async purgeMarked(): Promise<null> {
    for (;;) {
      const minds = await mindsToPurge(this.ctx.db, 10);
      if (minds.length === 0 || this.loop.stopped) return null;
      for (const { id, deletedAt } of minds) {
        if (this.loop.stopped) return null;
        await this.purge(id, deletedAt);
      }
    }
  }

  private async purge(mindId: string, deletedAt: string): Promise<void> {
    // First, unless the request did: the lookups of other areas read the mind's row.
    await markMindRowDeleted(this.ctx.db, mindId, deletedAt);
    const chunk = this.ctx.config.mindDeleteChunkSize;
    let removed = 0;
    for (const { sql } of CHUNKS) {
      for (;;) {
        if (this.loop.stopped) return;
        const n = await deleteChunk(this.ctx.db, sql, mindId, chunk);
        removed += n;
        await yieldToEventLoop();
        if (n < chunk) break;
      }
    }
    await deleteMindRow(this.ctx.db, mindId);
    this.ctx.log.info({ mind_id: mindId, rows: removed }, 'deleted mind purged');
  }

  /** Stops after the statement running now; what is left resumes at the next start. */
  stop(): Promise<void> {
    return this.loop.stop();
  }
}
