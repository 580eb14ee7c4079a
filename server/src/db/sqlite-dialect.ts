import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import knex from 'knex';
import type { Config } from '../lib/config.js';
import { ensurePrivateDir, ensurePrivateFile } from '../lib/keyfile.js';
import { BACKSTOP_PAGES, WalCheckpointer } from './checkpointer.js';
import type { Conn, Dialect } from './dialect.js';
import { assertSqliteDriverLoads } from './sqlite-driver.js';

export interface SqliteConnection {
  pragma(sql: string): unknown;
  prepare(sql: string): {
    reader: boolean;
    run(...params: unknown[]): { lastInsertRowid: number | bigint };
    all(...params: unknown[]): unknown[];
  };
}

/** The SQLite database file in the data directory. */
export const sqliteFile = (config: Config) => join(config.dataDir, 'mind.sqlite');

/**
 * The better-sqlite3 connection a SQLite transaction holds (SQLite has one), for statements on a
 * hot path that are cheaper prepared (and cached, below) than built by knex.
 */
export async function sqliteConnection(trx: Conn): Promise<SqliteConnection> {
  if (!trx.isTransaction || trx.client.config.client !== sqliteDialect.driver)
    throw new Error('sqliteConnection needs a SQLite transaction');
  return (await trx.client.acquireConnection()) as SqliteConnection;
}

/** better-sqlite3 binds numbers, strings, null and buffers; booleans are stored as 0 and 1. */
const sqliteValue = (value: unknown) => (typeof value === 'boolean' ? Number(value) : value);

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

/**
 * SQLite: one file in the data directory, one connection, one service process. Its one connection
 * runs write transactions one after another, so nothing is locked by row; what instances would share
 * stays in the process.
 */
export const sqliteDialect: Dialect = {
  name: 'sqlite',
  driver: 'better-sqlite3',

  open(config) {
    assertSqliteDriverLoads();
    // The data directory 0700, the database and its -wal and -shm files 0600.
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
  },

  describe: (config) => `sqlite in ${config.dataDir}`,

  /** Straight on the connection with its cached prepared statement. */
  async run<Row>(conn: Conn, sql: string, bindings: unknown[]): Promise<Row[]> {
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
  },

  oneWriterAtATime: true,
  inProcess: true,
  // The one connection already runs write transactions one after another: nothing to lock.
  lockRows: async () => undefined,
  forUpdate: (query) => query,
  forUpdateSkipLocked: (query) => query,
  forUpdateSkipLockedSql: '',
  lockAgainstDelete: async () => undefined,
  limitLockWait: async () => undefined,
  withoutIndex: (column) => `+${column}`,

  sharedByInstances: false,
  instanceChannel: () => undefined,
  sharedNow: (_conn, serviceNow) => serviceNow,

  /** WAL checkpoints on a thread of their own (checkpointer.ts), from the first write to the database. */
  startHousekeeping(config, log) {
    const checkpointer = WalCheckpointer.startAtFirstWrite(sqliteFile(config), (message) =>
      log.warn({ err: message }, 'WAL checkpoint failed'),
    );
    return () => checkpointer.stop();
  },

  /** With SQLite's online backup API: the running service keeps serving (reads and writes) meanwhile. */
  async backup(config, target) {
    const source = sqliteFile(config);
    if (!existsSync(source)) throw new Error(`No database at ${source}: check MIND_DATA_DIR.`);
    const file = resolve(target);
    if (existsSync(file)) throw new Error(`${file} already exists: choose a new file name.`);
    const { default: Database } = await import('better-sqlite3');
    const db = new Database(source, { fileMustExist: true });
    try {
      db.pragma('busy_timeout = 5000');
      const result = await db.backup(file);
      return { pages: result.totalPages, file };
    } finally {
      db.close();
    }
  },
};
