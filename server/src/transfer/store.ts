import type { Conn } from '../db/database.js';
import { MIND_NOT_DELETED } from '../minds/deletions.js';

// The export/import's own queries over the tables it moves: the mind, which mind holds an id (ids
// are global), the ids behind a mind's memory keys and script names, and emptying a mind's tables
// for mode=replace. Items themselves are read and written through each area's service.

/** Tables whose rows travel in a mind export, each keyed by a global `id`. */
export type TransferTable = 'memories' | 'tasks' | 'chat_messages' | 'scripts';

export async function findMindInfo(conn: Conn, mindId: string, userId?: string) {
  const query = conn('minds').where({ id: mindId }).whereRaw(MIND_NOT_DELETED); // deleted: gone for the API
  if (userId !== undefined) query.andWhere({ user_id: userId });
  const row = (await query.first('id', 'name', 'description')) as { id: string; name: string; description: string | null } | undefined;
  return row;
}

/** Which mind holds each of these ids (at most about a thousand) that a row of the table has. */
export async function holdersOf(conn: Conn, table: TransferTable, ids: string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = (await conn(table).whereIn('id', ids).select('id', 'mind_id')) as Array<{ id: string; mind_id: string }>;
  return new Map(rows.map((r) => [r.id, r.mind_id]));
}

/** The ids of the mind's memories with one of these categories and keys, by `category\0key`. */
export async function memoryIdsByKey(
  conn: Conn,
  mindId: string,
  keys: Array<[category: string, key: string]>,
): Promise<Map<string, string>> {
  if (keys.length === 0) return new Map();
  const rows = (await conn('memories')
    .where({ mind_id: mindId })
    .whereIn(['category', 'key'], keys)
    .select('id', 'category', 'key')) as Array<{
    id: string;
    category: string;
    key: string;
  }>;
  return new Map(rows.map((r) => [`${r.category}\u0000${r.key}`, r.id]));
}

/** The ids of the mind's scripts with one of these names, by name. */
export async function scriptIdsByName(conn: Conn, mindId: string, names: string[]): Promise<Map<string, string>> {
  if (names.length === 0) return new Map();
  const rows = (await conn('scripts').where({ mind_id: mindId }).whereIn('name', names).select('id', 'name')) as Array<{
    id: string;
    name: string;
  }>;
  return new Map(rows.map((r) => [r.name, r.id]));
}

export async function countRowsOfMind(conn: Conn, table: TransferTable, mindId: string): Promise<number> {
  const row = (await conn(table).where({ mind_id: mindId }).count({ n: '*' }).first()) as { n: number | string } | undefined;
  return Number(row?.n ?? 0);
}

/** Deletes these rows (at most about a thousand) of the mind's; answers how many there were. */
export async function deleteRowsByIds(conn: Conn, table: TransferTable, mindId: string, ids: string[]): Promise<number> {
  if (ids.length === 0) return 0;
  return conn(table).where({ mind_id: mindId }).whereIn('id', ids).delete();
}

/** Empties one table for a mind (import with mode=replace). */
export async function deleteRowsOfMind(conn: Conn, table: TransferTable, mindId: string): Promise<number> {
  return conn(table).where({ mind_id: mindId }).delete();
}
