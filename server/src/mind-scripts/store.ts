import type { Script } from '@mindservice/contract';
import type { Conn } from '../db/database.js';

interface ScriptRow extends Script {
  mind_id: string;
}

const COLUMNS = ['id', 'name', 'description', 'language', 'content', 'created_at', 'updated_at'] as const;

const toScript = (row: Pick<ScriptRow, (typeof COLUMNS)[number]>): Script => ({
  id: row.id,
  name: row.name,
  description: row.description,
  language: row.language,
  content: row.content,
  created_at: row.created_at,
  updated_at: row.updated_at,
});

export async function insertScript(conn: Conn, mindId: string, script: Script): Promise<void> {
  await conn<ScriptRow>('scripts').insert({ ...toScript(script), mind_id: mindId });
}

export async function findScript(conn: Conn, mindId: string, id: string): Promise<Script | undefined> {
  const row = await conn<ScriptRow>('scripts')
    .where({ id, mind_id: mindId })
    .first(...COLUMNS);
  return row && toScript(row);
}

export async function findScriptByName(conn: Conn, mindId: string, name: string): Promise<Script | undefined> {
  const row = await conn<ScriptRow>('scripts')
    .where({ mind_id: mindId, name })
    .first(...COLUMNS);
  return row && toScript(row);
}

/** Writes every field (merged by the service); false if it is not the mind's. */
export async function updateScript(conn: Conn, mindId: string, script: Script): Promise<boolean> {
  const { id, created_at: _created, ...fields } = toScript(script);
  return (await conn<ScriptRow>('scripts').where({ id, mind_id: mindId }).update(fields)) > 0;
}

export async function deleteScript(conn: Conn, mindId: string, id: string): Promise<boolean> {
  return (await conn<ScriptRow>('scripts').where({ id, mind_id: mindId }).delete()) > 0;
}

/** Every script of the mind by name (export). */
export async function listScripts(conn: Conn, mindId: string): Promise<Script[]> {
  const rows = await conn<ScriptRow>('scripts')
    .where({ mind_id: mindId })
    .orderBy([{ column: 'name' }, { column: 'id' }])
    .select(...COLUMNS);
  return rows.map(toScript);
}

/**
 * One page of the mind's scripts by name, after the name `after` (names are unique in a mind, so
 * the name alone is the keyset position; the scripts_mind_name index is walked from it), ending
 * early once the texts read reach `maxChars`. A script may hold 1,000,000 characters, so the
 * first query reads only names and text lengths (`limit + 1` rows, to learn whether another page
 * follows); the second reads whole scripts up to the last name that fits, never more than about
 * `maxChars` of text (and always one script, so paging moves on).
 */
export async function listScriptsPage(
  conn: Conn,
  mindId: string,
  page: { limit: number; maxChars: number; after?: string },
): Promise<{ scripts: Script[]; more: boolean }> {
  const from = () => {
    const query = conn<ScriptRow>('scripts').where({ mind_id: mindId });
    if (page.after !== undefined) query.where('name', '>', page.after);
    return query;
  };
  const sizes: Array<{ name: string; chars: number | string }> = await from()
    .orderBy('name')
    .limit(page.limit + 1)
    .select('name', conn.raw('length(content) + coalesce(length(description), 0) + length(name) as chars'));
  let shown = 0;
  let chars = 0;
  for (const row of sizes.slice(0, page.limit)) {
    chars += Number(row.chars);
    if (shown > 0 && chars > page.maxChars) break;
    shown++;
  }
  const last = sizes[shown - 1];
  if (!last) return { scripts: [], more: false };
  const rows = await from()
    .where('name', '<=', last.name)
    .orderBy('name')
    .select(...COLUMNS);
  return { scripts: rows.map(toScript), more: sizes.length > shown };
}
