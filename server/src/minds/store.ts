import type { CreatedMind, MindSummary } from '@mindservice/contract';
import { type Conn, isPostgres, runSql } from '../db/database.js';
import { countMemoriesByMind } from '../memories/store.js';

interface MindRow {
  id: string;
  user_id: string;
  name: string;
  description: string | null;
  key_hash: string;
  created_at: string;
  last_activity: string | null;
  disabled_at: string | null;
  /** Set by DELETE /minds/:id: the mind is gone for the API; the purge removes its rows (purge.ts). */
  deleted_at: string | null;
}

export interface MindOwner {
  id: string;
  userId: string;
  disabled: boolean;
}

export async function insertMind(conn: Conn, mind: Omit<CreatedMind, 'mind_key'>, userId: string, keyHash: string) {
  await conn<MindRow>('minds').insert({
    id: mind.id,
    user_id: userId,
    name: mind.name,
    description: mind.description,
    key_hash: keyHash,
    created_at: mind.created_at,
    last_activity: mind.created_at,
    disabled_at: null,
    deleted_at: null,
  });
}

/** Minds the user has (a deleted mind waiting for its purge no longer counts). */
export async function countMindsOfUser(conn: Conn, userId: string): Promise<number> {
  const row = await conn<MindRow>('minds')
    .where({ user_id: userId })
    .whereNull('deleted_at')
    .count<{ n: number | string }>({ n: '*' })
    .first();
  return Number(row?.n ?? 0);
}

/** Serialises mind creation per user on PostgreSQL (the cap is counted, then a row inserted). */
export async function lockUser(conn: Conn, userId: string): Promise<void> {
  if (isPostgres(conn)) await conn('users').where({ id: userId }).forUpdate().first('id');
}

export async function findMindByKeyHash(conn: Conn, keyHash: string): Promise<MindOwner | undefined> {
  // Every request with a Mind Key asks: a prepared statement, not knex's query builder.
  const [row] = await runSql<Pick<MindRow, 'id' | 'user_id' | 'disabled_at'>>(
    conn,
    'SELECT id, user_id, disabled_at FROM minds WHERE key_hash = ?',
    [keyHash],
  );
  return row && { id: row.id, userId: row.user_id, disabled: row.disabled_at !== null };
}

/** The mind unless it was deleted (a deleted mind's key never matches: findMindByKeyHash needs no filter). */
export async function findMind(conn: Conn, id: string): Promise<MindOwner | undefined> {
  const row = await conn<MindRow>('minds').where({ id }).whereNull('deleted_at').first('id', 'user_id', 'disabled_at');
  return row && { id: row.id, userId: row.user_id, disabled: row.disabled_at !== null };
}

export async function listMindsOfUser(conn: Conn, userId: string): Promise<MindSummary[]> {
  const rows = await conn<MindRow>('minds')
    .where({ user_id: userId })
    .whereNull('deleted_at')
    .orderBy([{ column: 'created_at' }, { column: 'id' }])
    .select('id', 'name', 'description', 'created_at', 'last_activity', 'disabled_at');
  const counts = await countMemoriesByMind(
    conn,
    rows.map((r) => r.id),
  );
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    description: row.description,
    created_at: row.created_at,
    memory_count: counts.get(row.id) ?? 0,
    last_activity: row.last_activity,
    disabled: row.disabled_at !== null,
  }));
}

/**
 * Deletes the mind for the API at once, in one cheap statement: its key hash becomes a value no
 * SHA-256 hex can equal (`deleted:<id>`, so the key is a 401 without the key lookup reading another
 * column), it is disabled and marked `deleted_at`, so every lookup by id and GET /minds leave it
 * out. Its webhooks (at most 20) are disabled, so the delivery worker sends nothing more for it, and
 * its computers (capped per mind) too, so their tokens are refused. Its rows are removed by the purge (purge.ts).
 */
export async function markMindDeleted(conn: Conn, id: string, now: string): Promise<boolean> {
  const changed = await conn('minds')
    .where({ id })
    .whereNull('deleted_at')
    .update({ deleted_at: now, key_hash: `deleted:${id}`, disabled_at: conn.raw('COALESCE(disabled_at, ?)', [now]) });
  if (changed > 0) {
    await conn('webhooks').where({ mind_id: id }).update({ enabled: false });
    // Its computers' tokens are refused at once (a disabled computer's token finds nothing).
    await conn('computers').where({ mind_id: id, status: 'active' }).update({ status: 'disabled', disabled_at: now });
  }
  return changed > 0;
}

/** Deleted minds whose rows are still being removed, oldest deletion first. */
export async function mindsToPurge(conn: Conn, limit: number): Promise<string[]> {
  return conn('minds').whereNotNull('deleted_at').orderBy('deleted_at').limit(limit).pluck('id');
}

/**
 * Removes the last row of a purged mind. ON DELETE CASCADE still takes whatever the chunks did not
 * (rows written by a request that was running when the mind was deleted, tables added later).
 */
export async function deleteMindRow(conn: Conn, id: string): Promise<void> {
  await conn('minds').where({ id }).whereNotNull('deleted_at').delete();
}

export async function setMindDisabled(conn: Conn, id: string, disabledAt: string | null): Promise<boolean> {
  return (await conn('minds').where({ id }).whereNull('deleted_at').update({ disabled_at: disabledAt })) > 0;
}

/**
 * Serialises writers that must see the whole mind as it is (an import, the webhook count) on
 * PostgreSQL by locking the mind's row until the transaction ends. SQLite: its one writer connection
 * already serialises transactions.
 */
export async function lockMind(conn: Conn, mindId: string): Promise<void> {
  if (isPostgres(conn)) await conn('minds').where({ id: mindId }).forUpdate().first('id');
}
