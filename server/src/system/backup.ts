import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import Database from 'better-sqlite3';
import type { Config } from '../lib/config.js';
import { sqliteFile } from '../db/database.js';

/**
 * A consistent copy of the SQLite database made with SQLite's online backup API, so the running
 * service keeps serving (reads and writes) while it is taken.
 */
export async function backupSqlite(config: Config, target: string): Promise<{ pages: number; file: string }> {
  if (config.databaseUrl)
    throw new Error('This service runs on PostgreSQL: back it up with pg_dump (for example `pg_dump "$DATABASE_URL" > backup.sql`).');
  const source = sqliteFile(config);
  if (!existsSync(source)) throw new Error(`No database at ${source}: check MIND_DATA_DIR.`);
  const file = resolve(target);
  if (existsSync(file)) throw new Error(`${file} already exists: choose a new file name.`);
  const db = new Database(source, { fileMustExist: true });
  try {
    db.pragma('busy_timeout = 5000');
    const result = await db.backup(file);
    return { pages: result.totalPages, file };
  } finally {
    db.close();
  }
}
