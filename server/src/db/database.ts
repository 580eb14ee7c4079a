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

export interface SqliteConnection {
  pragma(sql: string): unknown;
  prepare(sql: string): { run(...params: unknown[]): { lastInsertRowid: number | bigint } };
}

/**
 * The better-sqlite3 connection a SQLite transaction holds (SQLite has one), for statements on a
 * hot path that are cheaper prepared (and cached, below) than built by knex.
 */
export async function sqliteConnection(trx: Conn): Promise<SqliteConnection> {
  if (!trx.isTransaction || isPostgres(trx)) throw new Error('sqliteConnection needs a SQLite transaction');
  return (await trx.client.acquireConnection()) as SqliteConnection;
}

/**
 * knex prepares every query anew; on SQLite that is a good part of a short query's cost. The
 * connection keeps the statements of recent SQL texts (knex builds the same text for the same query
 * shape, the values are bound), and SQLite re-prepares a statement itself when the schema changes.
 */
function cachePreparedStatements(conn: SqliteConnection, limit = 1000) {
  const prepare = conn.prepare.bind(conn);
  const cache = new Map<string, ReturnType<SqliteConnection['prepare']>>();
  conn.prepare = (sql: string) => {
    let statement = cache.get(sql);
    if (statement === undefined) {
      statement = prepare(sql);
      if (cache.size >= limit) cache.delete(cache.keys().next().value!);
      cache.set(sql, statement);
    }
    return statement;
  };
}

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
      afterCreate(conn: SqliteConnection, done: (err: Error | null, conn: unknown) => void) {
        // The busy timeout first: switching to WAL needs a lock another process may hold for a moment.
        conn.pragma('busy_timeout = 5000');
        conn.pragma('journal_mode = WAL');
        conn.pragma('synchronous = NORMAL');
        conn.pragma('foreign_keys = ON');
        cachePreparedStatements(conn);
        done(null, conn);
      },
    },
  });
}

export async function migrateLatest(db: Db): Promise<string[]> {
  const [, applied] = (await db.migrate.latest({ migrationSource })) as [number, string[]];
  return applied;
}
