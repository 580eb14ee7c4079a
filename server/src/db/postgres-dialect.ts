import knex, { type Knex } from 'knex';
import type pg from 'pg';
import type { Config } from '../lib/config.js';
import type { Conn, Dialect } from './dialect.js';
import { PostgresChannel } from './postgres-channel.js';
import { inLightTransaction } from './postgres-light-transaction.js';

/** The database's clock as the ISO text the timestamp columns hold. */
const POSTGRES_NOW = `to_char(clock_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/**
 * Every connection's planner settings. The default random_page_cost (4) prices a random page read as
 * a disk seek, and ranked recall then scanned whole tables instead of the GIN index's candidates
 * (docs/performance.md); a mind's tables are read from SSDs or memory, where 1.1 is the usual figure.
 */
const SESSION_SETTINGS = 'SET random_page_cost = 1.1';

/**
 * PostgreSQL (nobody can hold the database: docs/security.md): every statement ends within
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
    pool: {
      min: 0,
      max: config.dbPoolSize,
      afterCreate: (connection: pg.Client, done: (err: Error | undefined, connection: pg.Client) => void) => {
        connection.query(SESSION_SETTINGS).then(
          () => done(undefined, connection),
          (err: Error) => done(err, connection),
        );
      },
    },
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

/** The connections of a knex client: a transaction's answers its own connection and releases nothing. */
interface PooledClient {
  acquireConnection(): Promise<pg.Client>;
  releaseConnection(connection: pg.Client): Promise<void>;
}

/** SQL texts run as named statements; past this many, a new text runs unnamed (each connection keeps its named ones). */
const MAX_NAMED_STATEMENTS = 200;

interface Statement {
  /** Undefined when run unnamed. */
  name?: string;
  /** With `$n` placeholders. */
  text: string;
}

const statements = new Map<string, Statement>();

/** `?` placeholders as `$1, $2...`, `\?` as a literal `?`, the way knex positions them. */
function positioned(sql: string): string {
  let n = 0;
  return sql.replace(/(\\*)(\?)/g, (_match, escapes: string) => (escapes.length % 2 ? '?' : `$${++n}`));
}

function statementOf(sql: string): Statement {
  let statement = statements.get(sql);
  if (statement === undefined) {
    const named = statements.size < MAX_NAMED_STATEMENTS;
    statement = { name: named ? `mind_${statements.size}` : undefined, text: positioned(sql) };
    if (named) statements.set(sql, statement);
  }
  return statement;
}

/**
 * PostgreSQL (DATABASE_URL): a pool of connections running transactions in parallel, shared by
 * instances on any number of machines. Writers lock the rows they need; what the instances must
 * agree on lives in the database, and they wake each other with LISTEN/NOTIFY.
 */
export const postgresDialect: Dialect = {
  name: 'postgres',
  driver: 'pg',

  open: (config) => knex(postgresConfig(config)),
  describe: () => 'postgresql',
  /**
   * On node-postgres directly, as a named statement: PostgreSQL parses and plans it once per
   * connection, and neither knex's query building nor its runner is paid per request (measured in
   * docs/performance.md). The connection is knex's: a transaction's own, else one from the pool.
   */
  async run<Row>(conn: Conn, sql: string, bindings: unknown[]): Promise<Row[]> {
    // What knex checks before a transaction's query: a finished transaction has given its connection back.
    if (conn.isTransaction && (conn as Knex.Transaction).isCompleted()) throw new Error(`Transaction query already complete: ${sql}`);
    const client = conn.client as PooledClient;
    const connection = await client.acquireConnection();
    try {
      const { name, text } = statementOf(sql);
      return (await connection.query<Row & pg.QueryResultRow>({ name, text, values: bindings })).rows;
    } finally {
      await client.releaseConnection(connection);
    }
  },

  oneWriterAtATime: false,
  inProcess: false,
  lightTransaction: inLightTransaction,
  async lockRows(query) {
    await query.forUpdate();
  },
  forUpdate: (query) => query.forUpdate() as typeof query,
  // Rows another instance is claiming right now are skipped, not waited for.
  forUpdateSkipLocked: (query) => query.forUpdate().skipLocked() as typeof query,
  forUpdateSkipLockedSql: ' FOR UPDATE SKIP LOCKED',
  async lockAgainstDelete(query) {
    await query.forKeyShare();
  },
  async limitLockWait(trx, ms) {
    if (!Number.isInteger(ms) || ms < 0) throw new Error(`limitLockWait: ${ms} is not a whole number of milliseconds`);
    await trx.raw(`SET LOCAL lock_timeout = '${ms}ms'`);
  },
  withoutIndex: (column) => column,

  sharedByInstances: true,
  instanceChannel: (config, log) => new PostgresChannel(config.databaseUrl!, log),
  sharedNow: (conn) => conn.raw(POSTGRES_NOW),
  startHousekeeping: () => undefined,
  backup: async () => {
    throw new Error('This service runs on PostgreSQL: back it up with pg_dump (for example `pg_dump "$DATABASE_URL" > backup.sql`).');
  },
};
