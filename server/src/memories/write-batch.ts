import { type Conn, type Db, isPostgres, sqliteConnection, type Trx } from '../db/database.js';

const INDEX_CHANGES = Symbol('memories.indexChanges');

/**
 * Inside a batched write: where its search-index changes go (they are made after the batch's last
 * write, before the COMMIT). Elsewhere undefined: change the index at once.
 */
export function deferredIndexChanges<Change>(conn: Conn): Change[] | undefined {
  return (conn as unknown as { [INDEX_CHANGES]?: Change[] })[INDEX_CHANGES];
}

interface Job {
  work: (trx: Trx) => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (err: unknown) => void;
}

/**
 * Group commit for memory writes on SQLite. SQLite has one connection and every write transaction
 * waits for the one before it, so a COMMIT (writing every changed page to the WAL, FTS5 flushing its
 * new segment) is paid once per write. Here the writes that arrive while a transaction runs wait
 * for it and then share the next one: each runs alone, one after another, inside its own SAVEPOINT,
 * so a write that fails is rolled back to its savepoint (nothing of it stays) and gets its own
 * error while the others commit. A write's promise settles only after the shared COMMIT; if the
 * COMMIT fails, every write of the batch gets that error and none of them happened.
 *
 * The transaction a write sees is the shared one, except that its `executionPromise` (what the
 * event recorder waits on to tell listeners an event was committed) settles only when the write's
 * savepoint was released and the shared transaction committed.
 *
 * FTS5 writes out what it holds in memory at every savepoint (a new index segment each time, which
 * would undo most of the gain), so a write's search-index changes are put off (see
 * deferredIndexChanges) and made for all the writes that succeeded after the last of them, in order,
 * by `applyIndexChanges` (the store's: consecutive additions in one statement). If that fails, the
 * whole batch fails with its error, as for a failed COMMIT.
 *
 * PostgreSQL keeps one transaction per write: it has a pool of connections and commits in parallel.
 */
export class WriteBatcher<IndexChange> {
  private queue: Job[] = [];
  private running = false;

  constructor(
    private readonly db: Db,
    /** Makes the search-index changes of the batch's successful writes, in order, in the transaction. */
    private readonly applyIndexChanges: (trx: Trx, changes: IndexChange[]) => Promise<void>,
    private readonly maxBatch = 100,
  ) {}

  run<T>(work: (trx: Trx) => Promise<T>): Promise<T> {
    if (isPostgres(this.db)) return this.db.transaction(work);
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ work, resolve: resolve as (value: unknown) => void, reject });
      if (!this.running) {
        // A whole request, database included, runs in microtasks: the other connections' requests
        // are read only after it. Starting on the next turn of the event loop lets those that are
        // already waiting join this transaction.
        this.running = true;
        setImmediate(() => void this.drain());
      }
    });
  }

  private async drain() {
    try {
      while (this.queue.length > 0) await this.runBatch();
    } finally {
      this.running = false;
    }
  }

  /** One transaction for the writes queued by the time it has the connection (more arrive while it waits for it). */
  private async runBatch() {
    let jobs: Job[] = [];
    const outcomes: Array<{ ok: true; value: unknown } | { ok: false; error: unknown }> = [];
    const done: Array<{ resolve: () => void; reject: (err: unknown) => void }> = [];
    try {
      await this.db.transaction(async (trx) => {
        const conn = await sqliteConnection(trx);
        jobs = this.queue.splice(0, this.maxBatch);
        const exec = (sql: string) => conn.prepare(sql).run();
        const later: IndexChange[] = [];
        for (const job of jobs) {
          let settle!: { resolve: () => void; reject: (err: unknown) => void };
          const committed = new Promise<void>((resolve, reject) => (settle = { resolve, reject }));
          committed.catch(() => undefined);
          done.push(settle);
          const indexChanges: IndexChange[] = [];
          const view = new Proxy(trx, {
            get: (target, prop) => (prop === 'executionPromise' ? committed : prop === INDEX_CHANGES ? indexChanges : Reflect.get(target, prop)),
          });
          exec('SAVEPOINT memory_write');
          try {
            const value = await job.work(view);
            exec('RELEASE memory_write');
            outcomes.push({ ok: true, value });
            later.push(...indexChanges);
          } catch (error) {
            exec('ROLLBACK TO memory_write');
            exec('RELEASE memory_write');
            outcomes.push({ ok: false, error });
          }
        }
        await this.applyIndexChanges(trx, later);
      });
    } catch (error) {
      // BEGIN or COMMIT failed: nothing of the batch was written.
      jobs.forEach((job, i) => {
        const outcome = outcomes[i];
        job.reject(outcome && !outcome.ok ? outcome.error : error);
        done[i]?.reject(error);
      });
      return;
    }
    jobs.forEach((job, i) => {
      const outcome = outcomes[i]!;
      if (outcome.ok) {
        done[i]!.resolve();
        job.resolve(outcome.value);
      } else {
        done[i]!.reject(outcome.error);
        job.reject(outcome.error);
      }
    });
  }
}
