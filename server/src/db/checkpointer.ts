import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/**
 * WAL checkpoints of the SQLite database, on a thread of their own.
 *
 * In WAL mode every COMMIT appends pages to the WAL file; a checkpoint copies them back into the
 * database file and syncs it. By default SQLite does that inside the COMMIT that pushes the WAL past
 * 1,000 pages, on the connection that committed: here the one connection of the request thread, so
 * every few dozen writes one request paid for copying and two fsyncs (about two thirds of the cost
 * of a memory write's COMMIT). As SQLite suggests for such applications, a second connection on a
 * worker thread checkpoints instead, every `intervalMs`, on the other core. PASSIVE checkpoints
 * never wait for or block the request thread's readers and writer.
 *
 * The request thread's connection keeps automatic checkpoints at `BACKSTOP_PAGES`: if this thread
 * falls behind or fails, or a steady stream of writes never lets SQLite start the WAL over (it does
 * so at the first write after a checkpoint copied every page), the old behaviour takes over there,
 * with only the pages this thread has not copied yet left to copy.
 */
export const BACKSTOP_PAGES = 10_000;

// Plain CommonJS so the worker needs no TypeScript loader; the driver's path comes from here.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file);
let failed = false;
const checkpoint = (mode) => {
  try {
    db.pragma('wal_checkpoint(' + mode + ')');
    failed = false;
  } catch (err) {
    // Reported once per run of failures (a locked file, a full disk): the backstop keeps the WAL in bounds.
    if (!failed) parentPort.postMessage({ error: String(err && err.message || err) });
    failed = true;
  }
};
const timer = setInterval(() => checkpoint('PASSIVE'), workerData.intervalMs);
parentPort.on('message', () => {
  clearInterval(timer);
  checkpoint('PASSIVE');
  db.close();
  parentPort.postMessage({ stopped: true });
});
`;

export class WalCheckpointer {
  private readonly exited: Promise<void>;

  private constructor(private readonly worker: Worker) {
    this.exited = new Promise((done) => worker.once('exit', () => done()));
  }

  /** Starts checkpointing `file` (a SQLite database in WAL mode); `onError` hears failed checkpoints. */
  static start(file: string, onError: (message: string) => void, intervalMs = 100): WalCheckpointer {
    const driver = createRequire(import.meta.url).resolve('better-sqlite3');
    const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { file, driver, intervalMs } });
    worker.on('message', (message: { error?: string }) => message.error && onError(message.error));
    worker.on('error', (err) => onError(err.message));
    worker.unref();
    return new WalCheckpointer(worker);
  }

  /** A last checkpoint, then the thread ends. */
  async stop(): Promise<void> {
    const stopped = new Promise<void>((done) => this.worker.on('message', (message: { stopped?: boolean }) => message.stopped && done()));
    this.worker.ref(); // unref'd while it runs; now the answer has to keep the process waiting
    this.worker.postMessage('stop');
    // A thread that failed to start has exited already.
    await Promise.race([stopped, this.exited]);
    await this.worker.terminate();
  }
}
