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
  });
}

export async function findMindByKeyHash(conn: Conn, keyHash: string): Promise<MindOwner | undefined> {
  // Every request with a Mind Key asks: a prepared statement, not knex's query builder.
  const [row] = await runSql<Pick<MindRow, 'id' | 'user_id' | 'disabled_at'>>(conn, 'SELECT id, user_id, disabled_at FROM minds WHERE key_hash = ?', [keyHash]);
  return row && { id: row.id, userId: row.user_id, disabled: row.disabled_at !== null };
}

export async function findMind(conn: Conn, id: string): Promise<MindOwner | undefined> {
  const row = await conn<MindRow>('minds').where({ id }).first('id', 'user_id', 'disabled_at');
  return row && { id: row.id, userId: row.user_id, disabled: row.disabled_at !== null };
}

export async function listMindsOfUser(conn: Conn, userId: string): Promise<MindSummary[]> {
  const rows = await conn<MindRow>('minds')
    .where({ user_id: userId })
    .orderBy([{ column: 'created_at' }, { column: 'id' }])
    .select('id', 'name', 'description', 'created_at', 'last_activity', 'disabled_at');
  const counts = await countMemoriesByMind(conn, rows.map((r) => r.id));
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

/** Everything the mind holds goes with it: every table refers to minds with ON DELETE CASCADE. */
export async function deleteMindRow(conn: Conn, id: string): Promise<void> {
  await conn('minds').where({ id }).delete();
}

export async function setMindDisabled(conn: Conn, id: string, disabledAt: string | null): Promise<boolean> {
  return (await conn('minds').where({ id }).update({ disabled_at: disabledAt })) > 0;
}

/**
 * Serialises writers that must see the whole mind as it is (an import, the webhook count) on
 * PostgreSQL by locking the mind's row until the transaction ends. SQLite: its one writer connection
 * already serialises transactions.
 */
export async function lockMind(conn: Conn, mindId: string): Promise<void> {
  if (isPostgres(conn)) await conn('minds').where({ id: mindId }).forUpdate().first('id');
}
