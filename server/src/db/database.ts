import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import knex, { type Knex } from 'knex';
import type { Config } from '../config.js';
import { migrationSource } from './migrations.js';

export type Db = Knex;
export type Trx = Knex.Transaction;
/** Either the database or an open transaction: store functions take this so callers decide. */
export type Conn = Knex | Knex.Transaction;

export const isPostgres = (db: Conn) => db.client.config.client === 'pg';

export function openDatabase(config: Config): Db {
  if (config.databaseUrl) {
    return knex({ client: 'pg', connection: config.databaseUrl, pool: { min: 0, max: 10 } });
  }
  mkdirSync(config.dataDir, { recursive: true });
  return knex({
    client: 'better-sqlite3',
    connection: { filename: join(config.dataDir, 'mind.sqlite') },
    useNullAsDefault: true,
    pool: {
      min: 1,
      max: 1,
      afterCreate(conn: { pragma(sql: string): unknown }, done: (err: Error | null, conn: unknown) => void) {
        // The busy timeout first: switching to WAL needs a lock another process may hold for a moment.
        conn.pragma('busy_timeout = 5000');
        conn.pragma('journal_mode = WAL');
        conn.pragma('synchronous = NORMAL');
        conn.pragma('foreign_keys = ON');
        done(null, conn);
      },
    },
  });
}

export async function migrateLatest(db: Db): Promise<string[]> {
  const [, applied] = (await db.migrate.latest({ migrationSource })) as [number, string[]];
  return applied;
}
