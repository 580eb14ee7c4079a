import type { Knex } from 'knex';
import type { Logger } from 'pino';
import type { Config } from '../lib/config.js';

export type Db = Knex;
export type Trx = Knex.Transaction;
/** Either the database or an open transaction: store functions take this so callers decide. */
export type Conn = Knex | Knex.Transaction;

/** The databases the service runs on. A Record keyed by it makes the compiler list what a new one lacks. */
export type DialectName = 'sqlite' | 'postgres';

/**
 * What differs between the databases, said once: chosen from the config at start (database.ts
 * `dialectFor`), carried on the AppContext as `ctx.dialect`, and handed to every migration. Stores and
 * services call it instead of asking which database they talk to; SQL that only one area writes and
 * that differs per database (the keyword index, the embedding triggers) stays in its area, in a
 * `Record<DialectName, ...>` looked up by `name`. sqlite-dialect.ts and postgres-dialect.ts implement it.
 */
export interface Dialect {
  readonly name: DialectName;
  /** The knex client it runs on (`client` in knex's config): how `dialectOf` tells a connection's dialect. */
  readonly driver: string;

  /** Opens the database the config names, with this database's settings. */
  open(config: Config): Db;
  /** Where the data is, for the start's log line. */
  describe(config: Config): string;
  /** Runs `sql` (`?` placeholders) on a hot path, cheaper than knex's query builder; the rows a SELECT finds. */
  run<Row>(conn: Conn, sql: string, bindings: unknown[]): Promise<Row[]>;

  /**
   * Write transactions run one at a time on one connection (SQLite): a transaction holds the whole
   * database while it runs, rows need no locks, and concurrent writes are cheaper sharing one COMMIT.
   * Otherwise (PostgreSQL) a pool runs transactions in parallel and writers lock the rows they need.
   */
  readonly oneWriterAtATime: boolean;
  /**
   * The database runs inside this process (SQLite): a statement is a call, not a round trip. Otherwise
   * hot paths put what they can in one statement (a change with its event) or share one between
   * concurrent requests (the Mind Key lookups).
   */
  readonly inProcess: boolean;
  /**
   * A transaction for the hottest write path (the memory write batch) cheaper than `db.transaction`,
   * where the database has one (PostgreSQL: postgres-light-transaction.ts); the same contract.
   */
  readonly lightTransaction?: <T>(db: Db, work: (trx: Trx) => Promise<T>) => Promise<T>;
  /** Locks the rows `query` selects until the transaction ends, so writers that lock them run one after another. */
  lockRows(query: Knex.QueryBuilder): Promise<void>;
  /** `query` (a SELECT) also locking the rows it reads until the transaction ends. */
  forUpdate<Q extends Knex.QueryBuilder>(query: Q): Q;
  /** `query` (a SELECT) taking only rows no other transaction holds, and locking them: two claimers never take one row. */
  forUpdateSkipLocked<Q extends Knex.QueryBuilder>(query: Q): Q;
  /** The same for SQL text: what follows a SELECT. */
  readonly forUpdateSkipLockedSql: string;
  /** Keeps the rows `query` selects from being deleted until the transaction ends (a lock order a delete agrees with). */
  lockAgainstDelete(query: Knex.QueryBuilder): Promise<void>;
  /** From now until the transaction ends, a wait for a row lock fails after `ms`. */
  limitLockWait(trx: Trx, ms: number): Promise<void>;
  /** `column` in SQL text, kept from choosing the index the query runs on (SQLite's planner reads `+column` so). */
  withoutIndex(column: string): string;

  /**
   * Instances on several machines may share this database (PostgreSQL): what they must agree on
   * (generated secrets, rate-limit windows, wake-ups) lives in the database, and a claim's owner
   * cannot be checked by its pid. Otherwise one service process (and the CLI beside it, on the same
   * machine) uses it: such state lives in the process and its data directory.
   */
  readonly sharedByInstances: boolean;
  /** How the instances sharing the database wake each other; undefined where one process serves it. */
  instanceChannel(config: Config, log: Logger): InstanceChannel | undefined;
  /** The time to store as now in rows every instance reads: the database's clock where instances' clocks differ. */
  sharedNow(conn: Conn, serviceNow: string): string | Knex.Raw;
  /** Starts the background work the database needs while the service runs; answers how to stop it. */
  startHousekeeping(config: Config, log: Logger): (() => Promise<void>) | undefined;
  /** `mind-service backup <file>`: a consistent copy made while the service runs, or an Error saying what to use instead. */
  backup(config: Config, target: string): Promise<{ pages: number; file: string }>;
}

/**
 * Messages between the instances that share a database: a message published on a topic reaches
 * every instance's handler of that topic (this instance's too). Subscribe before `start`.
 */
export interface InstanceChannel {
  subscribe(topic: string, onMessage: (payload: string) => void): void;
  start(): Promise<void>;
  /** Fire and forget: a message that cannot be sent is logged. */
  publish(topic: string, payload: string): void;
  stop(): Promise<void>;
}
