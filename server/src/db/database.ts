import { join } from 'node:path';
import knex, { type Knex } from 'knex';
import type { Config } from '../lib/config.js';
import { ensurePrivateDir, ensurePrivateFile } from '../lib/keyfile.js';
import { BACKSTOP_PAGES } from './checkpointer.js';
import { isPostgres } from './dialect.js';
import { type Migration, migrationSourceOf } from './migration.js';
import { assertSqliteDriverLoads } from './sqlite-driver.js';

export type Db = Knex;
export type Trx = Knex.Transaction;
/** Either the database or an open transaction: store functions take this so callers decide. */
export type Conn = Knex | Knex.Transaction;

/** Defined in dialect.ts (which migrations import); the stores ask it here with the rest. */
export { isPostgres };

export interface SqliteConnection {
  pragma(sql: string): unknown;
  prepare(sql: string): {
    reader: boolean;
    run(...params: unknown[]): { lastInsertRowid: number | bigint };
    all(...params: unknown[]): unknown[];
  };
}

/**
 * The better-sqlite3 connection a SQLite transaction holds (SQLite has one), for statements on a
 * hot path that are cheaper prepared (and cached, below) than built by knex.
 */
export async function sqliteConnection(trx: Conn): Promise<SqliteConnection> {
  if (!trx.isTransaction || isPostgres(trx)) throw new Error('sqliteConnection needs a SQLite transaction');
  return (await trx.client.acquireConnection()) as SqliteConnection;
}

/** better-sqlite3 binds numbers, strings, null and buffers; booleans are stored as 0 and 1. */
const sqliteValue = (value: unknown) => (typeof value === 'boolean' ? Number(value) : value);

/**
 * Runs `sql` (`?` placeholders; the same text for both databases) on the hot paths, where knex's
 * query building and runner cost more than the statement: on SQLite straight on the connection with
 * its cached prepared statement, on PostgreSQL through knex.raw. Answers the rows a SELECT finds.
 */
export async function runSql<Row = unknown>(conn: Conn, sql: string, bindings: unknown[] = []): Promise<Row[]> {
  if (isPostgres(conn)) return ((await conn.raw(sql, bindings as Knex.RawBinding[])) as { rows: Row[] }).rows;
  // In a transaction its connection (releasing it is then a no-op); otherwise the pool's, as knex would.
  const client = conn.client as { acquireConnection(): Promise<SqliteConnection>; releaseConnection(c: SqliteConnection): Promise<void> };
  const connection = await client.acquireConnection();
  try {
    const statement = connection.prepare(sql);
    const values = bindings.map(sqliteValue);
    if (statement.reader) return statement.all(...values) as Row[];
    statement.run(...values);
    return [];
  } finally {
    await client.releaseConnection(connection);
  }
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

/** The SQLite database file in the data directory. */
export const sqliteFile = (config: Config) => join(config.dataDir, 'mind.sqlite');

/**
 * PostgreSQL (DESIGN section 13: nobody can hold the database): every statement ends within
 * MIND_DB_STATEMENT_TIMEOUT (the server cancels it, SQLSTATE 57014; a wait for a lock counts too), a
 * request waits at most MIND_DB_ACQUIRE_TIMEOUT for one of the MIND_DB_POOL_SIZE connections (knex
 * then throws KnexTimeoutError). Both answer 503 with Retry-After (see db/errors.ts `isDatabaseBusy`).
 */
function postgresConfig(config: Config): Knex.Config {
  return {
    client: 'pg',
    connection: {
      connectionString: config.databaseUrl,
      ...(config.dbStatementTimeoutMs > 0 ? { statement_timeout: config.dbStatementTimeoutMs } : {}),
    },
    pool: { min: 0, max: config.dbPoolSize },
    acquireConnectionTimeout: config.dbAcquireTimeoutMs,
    log: {
      // knex prints every acquire timeout with a stack on stdout, between the JSON log lines; each is
      // answered 503 and so already in the request log. Its other warnings go to stderr.
      warn: (message: unknown) => {
        if (!String(message).startsWith('Acquire connection error')) console.warn(message);
      },
    },
  };
}

export function openDatabase(config: Config): Db {
  if (config.databaseUrl) return knex(postgresConfig(config));
  assertSqliteDriverLoads();
  // The data directory 0700, the database and its -wal and -shm files 0600 (DESIGN section 13).
  ensurePrivateDir(config.dataDir);
  const file = sqliteFile(config);
  ensurePrivateFile(file);
  for (const suffix of ['-wal', '-shm']) ensurePrivateFile(file + suffix, false);
  return knex({
    client: 'better-sqlite3',
    connection: { filename: file },
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
        // Savepoints (every batched memory write has one) and statement journals in memory, not in a
        // temporary file: two write syscalls fewer per changed page (measured in docs/performance.md).
        conn.pragma('temp_store = MEMORY');
        // A worker thread checkpoints (WalCheckpointer); this connection only when it falls far behind.
        conn.pragma(`wal_autocheckpoint = ${BACKSTOP_PAGES}`);
        cachePreparedStatements(conn);
        done(null, conn);
      },
    },
  });
}

/** Applies the migrations not yet applied (the composition root's list, server/src/migrations.ts); answers their names. */
export async function migrateLatest(db: Db, migrations: Migration[]): Promise<string[]> {
  // A migration may rewrite a large table for longer than a request's statement timeout: it runs on a
  // connection of its own without one.
  const connection = db.client.config.connection as { statement_timeout?: number } | string | undefined;
  if (typeof connection === 'object' && connection.statement_timeout) {
    const unlimited = knex({
      ...(db.client.config as Knex.Config),
      connection: { ...connection, statement_timeout: undefined },
      pool: { min: 0, max: 1 },
    });
    try {
      return await migrateLatest(unlimited, migrations);
    } finally {
      await unlimited.destroy();
    }
  }
  const [, applied] = (await db.migrate.latest({ migrationSource: migrationSourceOf(migrations) })) as [number, string[]];
  return applied;
}
