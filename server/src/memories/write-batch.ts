import { type Conn, type Db, type Dialect, sqliteConnection, type Trx } from '../db/database.js';

/**
 * Where a write sends the changes that may wait for the end of its batch (for memories: the
 * search-index changes). WriteBatcher.run hands every write one; the store sends them there.
 */
export interface ChangeSink<Change> {
  change(conn: Conn, changes: Change[]): Promise<void>;
}

/** A write's work: the transaction to write in, and where its deferrable changes go. */
export type BatchedWork<Change, T> = (trx: Trx, deferred: ChangeSink<Change>) => Promise<T>;

interface Job<Change> {
  work: BatchedWork<Change, unknown>;
  resolve: (value: unknown) => void;
  reject: (err: unknown) => void;
}

/** PostgreSQL batches running at once, each on a connection of its own (more add little: the writes of 10 clients fill two). */
const POSTGRES_BATCHES_AT_ONCE = 2;

/**
 * Group commit for memory writes (PostgreSQL: see the end). SQLite has one connection and every write transaction
 * waits for the one before it, so a COMMIT (writing every changed page to the WAL, FTS5 flushing its
 * new segment) is paid once per write. Here the writes that arrive while a transaction runs wait
 * for it and then share the next one: each runs alone, one after another, inside its own SAVEPOINT,
 * so a write that fails is rolled back to its savepoint (nothing of it stays) and gets its own
 * error while the others commit. A write's promise settles only after the shared COMMIT; if the
 * COMMIT fails, every write of the batch gets that error and none of them happened.
 *
 * While a write runs, the shared transaction's `executionPromise` (what the event recorder waits on
 * to tell listeners an event was committed) is that write's own: it settles only when the write's
 * savepoint was released and the shared transaction committed.
 *
 * FTS5 writes out what it holds in memory at every savepoint (a new index segment each time, which
 * would undo most of the gain), so a write's deferrable changes go to the sink it is handed, which
 * keeps them; they are made for all the writes that succeeded after the last of them, in order, by
 * `applyChanges` (the search index's: consecutive additions in one statement). If that fails, the
 * whole batch fails with its error, as for a failed COMMIT.
 *
 * A database that runs writers in parallel (PostgreSQL: a pool of connections, `oneWriterAtATime`
 * false) batches too, for the round trips: BEGIN and COMMIT (and the COMMIT's flush of the log) are
 * paid once per batch, not per write, and up to POSTGRES_BATCHES_AT_ONCE batches run side by side.
 * A savepoint would cost a round trip per write there, so a batch has none: when one of its writes
 * fails, the batch is rolled back and each of its writes runs again alone, in a transaction of its
 * own, and settles with that outcome. A failed COMMIT fails the whole batch as on SQLite (it may
 * have committed: nothing is written twice). The sink makes the changes at once.
 */
export class WriteBatcher<Change> {
  private queue: Job<Change>[] = [];
  /** Batches draining the queue now. */
  private draining = 0;
  private readonly atOnce: ChangeSink<Change>;

  constructor(
    private readonly db: Db,
    private readonly dialect: Dialect,
    /** Makes changes sent to a sink, in order, in the given transaction. */
    private readonly applyChanges: (conn: Conn, changes: Change[]) => Promise<void>,
    private readonly maxBatch = 100,
  ) {
    this.atOnce = { change: (conn, changes) => this.applyChanges(conn, changes) };
  }

  run<T>(work: BatchedWork<Change, T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ work, resolve: resolve as (value: unknown) => void, reject });
      if (this.draining < (this.dialect.oneWriterAtATime ? 1 : POSTGRES_BATCHES_AT_ONCE)) {
        // A whole request, database included, runs in microtasks: the other connections' requests
        // are read only after it. Starting on the next turn of the event loop lets those that are
        // already waiting join this transaction.
        this.draining++;
        setImmediate(() => void this.drain());
      }
    });
  }

  /** PostgreSQL's batches run in its light transaction (db/postgres-light-transaction.ts): a batch is a few writes, knex's transaction cost weighs. */
  private transaction<T>(work: (trx: Trx) => Promise<T>): Promise<T> {
    return this.dialect.lightTransaction ? this.dialect.lightTransaction(this.db, work) : this.db.transaction(work);
  }

  private async drain() {
    try {
      while (this.queue.length > 0) {
        if (this.dialect.oneWriterAtATime) await this.runBatch();
        else await this.runBatchWithoutSavepoints(this.queue.splice(0, this.maxBatch));
      }
    } finally {
      this.draining--;
    }
  }

  /** PostgreSQL's batch: one transaction for all; a write that fails sends each write of the batch back to run alone. */
  private async runBatchWithoutSavepoints(jobs: Job<Change>[]) {
    if (jobs.length === 1) return this.runAlone(jobs[0]!);
    let committing = false;
    let values: unknown[];
    try {
      values = await this.transaction(async (trx) => {
        const results: unknown[] = [];
        for (const job of jobs) results.push(await job.work(trx, this.atOnce));
        committing = true;
        return results;
      });
    } catch (error) {
      if (committing) for (const job of jobs) job.reject(error);
      else await Promise.all(jobs.map((job) => this.runAlone(job)));
      return;
    }
    for (const [i, job] of jobs.entries()) job.resolve(values[i]);
  }

  private async runAlone(job: Job<Change>) {
    try {
      job.resolve(await this.transaction((trx) => job.work(trx, this.atOnce)));
    } catch (error) {
      job.reject(error);
    }
  }

  /** One transaction for the writes queued by the time it has the connection (more arrive while it waits for it). */
  private async runBatch() {
    let jobs: Job<Change>[] = [];
    const outcomes: Array<{ ok: true; value: unknown } | { ok: false; error: unknown }> = [];
    const done: Array<{ resolve: () => void; reject: (err: unknown) => void }> = [];
    try {
      await this.db.transaction(async (trx) => {
        const conn = await sqliteConnection(trx);
        jobs = this.queue.splice(0, this.maxBatch);
        const exec = (sql: string) => conn.prepare(sql).run();
        const shared = trx.executionPromise;
        const later: Change[] = [];
        try {
          for (const job of jobs) {
            let settle!: { resolve: () => void; reject: (err: unknown) => void };
            const committed = new Promise<void>((resolve, reject) => (settle = { resolve, reject }));
            committed.catch(() => undefined);
            done.push(settle);
            const deferred: Change[] = [];
            const sink: ChangeSink<Change> = { change: async (_conn, changes) => void deferred.push(...changes) };
            // knex types it as the transaction's result; the event recorder only waits for it to settle.
            trx.executionPromise = committed as Promise<never>;
            exec('SAVEPOINT memory_write');
            try {
              const value = await job.work(trx, sink);
              exec('RELEASE memory_write');
              outcomes.push({ ok: true, value });
              later.push(...deferred);
            } catch (error) {
              exec('ROLLBACK TO memory_write');
              exec('RELEASE memory_write');
              outcomes.push({ ok: false, error });
            }
          }
        } finally {
          trx.executionPromise = shared;
        }
        await this.applyChanges(trx, later);
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
