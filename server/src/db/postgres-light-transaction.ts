// PostgreSQL transactions for the hottest write path (the memory write batch) without knex's
// per-transaction cost: knex builds a whole new transactor for every transaction and sends BEGIN and
// COMMIT through its query pipeline (measured in docs/performance.md). Here each pooled connection gets
// one transactor, built once and bound to that connection, open only while a transaction of this
// module runs on it.
import type { Knex } from 'knex';
import type pg from 'pg';
import type { Db, Trx } from './dialect.js';

interface PooledClient {
  acquireConnection(): Promise<pg.Client>;
  releaseConnection(connection: pg.Client): Promise<void>;
}

interface Bound {
  trx: Trx;
  /** A transaction of this module runs on the connection now; outside one, every query is refused. */
  open: boolean;
}

const boundTo = new WeakMap<pg.Client, Bound>();

/** The connection's transactor: queries on it run on that connection, as in a knex transaction. */
function transactorOf(db: Db, connection: pg.Client): Bound {
  const existing = boundTo.get(connection);
  if (existing) return existing;
  // knex's public withUserParams gives a knex object on its own copy of the client; that copy's
  // connection is then fixed, as knex's own transactions fix theirs.
  const bound = { open: false } as Bound;
  const trx = db.withUserParams({}) as unknown as Trx;
  const txClient = trx.client as Knex.Client & PooledClient & Record<string, unknown>;
  txClient.transacting = true; // a nested transaction is a savepoint
  txClient.acquireConnection = async () => {
    if (!bound.open) throw new Error('Transaction query already complete');
    return connection;
  };
  txClient.releaseConnection = async () => undefined;
  bound.trx = trx;
  Object.assign(bound.trx, { isTransaction: true, isCompleted: () => !bound.open, userParams: {} });
  boundTo.set(connection, bound);
  return bound;
}

/**
 * Runs `work` in one transaction: COMMIT when it resolves, ROLLBACK when it throws (its error is
 * thrown on). While it runs, `trx.executionPromise` settles with the transaction's outcome, as in
 * knex (the event recorder waits on it to tell listeners of committed events).
 */
export async function inLightTransaction<T>(db: Db, work: (trx: Trx) => Promise<T>): Promise<T> {
  const pool = db.client as unknown as PooledClient;
  const connection = await pool.acquireConnection();
  const bound = transactorOf(db, connection);
  let settle!: { resolve: () => void; reject: (err: unknown) => void };
  const outcome = new Promise<void>((resolve, reject) => (settle = { resolve, reject }));
  outcome.catch(() => undefined);
  // knex types it as the transaction's result; the event recorder only waits for it to settle.
  bound.trx.executionPromise = outcome as Promise<never>;
  let begun = false;
  try {
    await connection.query('BEGIN');
    begun = true;
    bound.open = true;
    const value = await work(bound.trx);
    bound.open = false;
    await connection.query('COMMIT');
    settle.resolve();
    return value;
  } catch (error) {
    // A failed COMMIT has ended the transaction already.
    if (begun && bound.open) await connection.query('ROLLBACK').catch(() => undefined);
    bound.open = false;
    settle.reject(error);
    throw error;
  } finally {
    await pool.releaseConnection(connection);
  }
}
