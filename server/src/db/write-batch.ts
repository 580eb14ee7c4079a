import type { Conn, Db, Dialect, Trx } from './dialect.js';
import { sqliteConnection } from './sqlite-dialect.js';

/**
 * Work a write leaves for just before its transaction commits, given the items the writes left it.
 * In a SQLite batch it runs once for the whole batch (FTS5 writes a new index segment at every
 * savepoint, so per-write index changes would undo most of batching's gain); elsewhere at once.
 */
export interface BeforeCommit<Item> {
  run(conn: Conn, items: Item[]): Promise<void>;
}

/** The items the write running now in a SQLite batch's transaction left for each hook, in order. */
const kept = new WeakMap<Conn, Map<BeforeCommit<unknown>, unknown[]>>();

/** Hands `items` to `hook`: kept for the end of the batch when `conn` runs a SQLite batch, made at once otherwise. */
export async function beforeCommit<Item>(conn: Conn, hook: BeforeCommit<Item>, items: Item[]): Promise<void> {
  const hooks = kept.get(conn);
  if (!hooks) return hook.run(conn, items);
  const list = hooks.get(hook as BeforeCommit<unknown>);
  if (list) list.push(...items);
  else hooks.set(hook as BeforeCommit<unknown>, [...items]);
}

/** A write's work: the transaction to write in. */
export type BatchedWork<T> = (trx: Trx) => Promise<T>;

interface Job {
  work: BatchedWork<unknown>;
  resolve: (value: unknown) => void;
  reject: (err: unknown) => void;
}

/** PostgreSQL batches running at once, each on a connection of its own (more add little: the writes of 10 clients fill two). */
const POSTGRES_BATCHES_AT_ONCE = 2;

/**
 * Group commit for the hottest writes (the memories service's). The writes that arrive while a
 * transaction runs share the next one, so BEGIN and COMMIT are paid once per batch (docs/architecture.md, "Writes in a batch").
 * SQLite: each write runs in its own SAVEPOINT, so a failing one is rolled back alone and gets its own
 * error; the transaction's `executionPromise` is the running write's own while it runs; BeforeCommit
 * hooks run once after the last write, with the items of the writes that succeeded. PostgreSQL (writers
 * in parallel): no savepoints (a round trip each); a failing write rolls the batch back and each write
 * runs again alone. A write settles after the shared COMMIT; a failed COMMIT fails the whole batch.
 */
export class WriteBatcher {
  private queue: Job[] = [];
  /** Batches draining the queue now. */
  private draining = 0;

  constructor(
    private readonly db: Db,
    private readonly dialect: Dialect,
    private readonly maxBatch = 100,
  ) {}

  run<T>(work: BatchedWork<T>): Promise<T> {
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
  private async runBatchWithoutSavepoints(jobs: Job[]) {
    if (jobs.length === 1) return this.runAlone(jobs[0]!);
    let committing = false;
    let values: unknown[];
    try {
      values = await this.transaction(async (trx) => {
        const results: unknown[] = [];
        for (const job of jobs) results.push(await job.work(trx));
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

  private async runAlone(job: Job) {
    try {
      job.resolve(await this.transaction((trx) => job.work(trx)));
    } catch (error) {
      job.reject(error);
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
        const shared = trx.executionPromise;
        const later = new Map<BeforeCommit<unknown>, unknown[]>();
        try {
          for (const job of jobs) {
            let settle!: { resolve: () => void; reject: (err: unknown) => void };
            const committed = new Promise<void>((resolve, reject) => (settle = { resolve, reject }));
            committed.catch(() => undefined);
            done.push(settle);
            const hooks = new Map<BeforeCommit<unknown>, unknown[]>();
            kept.set(trx, hooks);
            // knex types it as the transaction's result; the event recorder only waits for it to settle.
            trx.executionPromise = committed as Promise<never>;
            exec('SAVEPOINT batched_write');
            try {
              const value = await job.work(trx);
              exec('RELEASE batched_write');
              outcomes.push({ ok: true, value });
              for (const [hook, items] of hooks) {
                const all = later.get(hook);
                if (all) all.push(...items);
                else later.set(hook, items);
              }
            } catch (error) {
              exec('ROLLBACK TO batched_write');
              exec('RELEASE batched_write');
              outcomes.push({ ok: false, error });
            }
          }
        } finally {
          kept.delete(trx);
          trx.executionPromise = shared;
        }
        for (const [hook, items] of later) await hook.run(trx, items);
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
