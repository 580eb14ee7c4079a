import type { Conn } from '../db/database.js';

// The export/import's own queries over the tables it moves: the mind, which mind holds an id (ids
// are global), and emptying a mind's tables for mode=replace. Items are read and written through
// each area's service.

/** Tables whose rows travel in a mind export, each keyed by a global `id`. */
export type TransferTable = 'memories' | 'tasks' | 'chat_messages' | 'scripts';

export async function findMindInfo(conn: Conn, mindId: string, userId?: string) {
  const query = conn('minds').where({ id: mindId }).whereNull('deleted_at'); // deleted: gone for the API
  if (userId !== undefined) query.andWhere({ user_id: userId });
  const row = (await query.first('id', 'name', 'description')) as { id: string; name: string; description: string | null } | undefined;
  return row;
}

/** Which mind holds a row with this id, if any (ids are unique across minds). */
export async function mindOfRow(conn: Conn, table: TransferTable, id: string): Promise<string | undefined> {
  const row = (await conn(table).where({ id }).first('mind_id')) as { mind_id: string } | undefined;
  return row?.mind_id;
}

/** Empties one table for a mind (import with mode=replace). */
export async function deleteRowsOfMind(conn: Conn, table: TransferTable, mindId: string): Promise<number> {
  return conn(table).where({ mind_id: mindId }).delete();
}
