import { type FSWatcher, watch } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname } from 'node:path';
import { Worker } from 'node:worker_threads';

/**
 * WAL checkpoints of the SQLite database on a worker thread (PASSIVE: they never block the request
 * thread), so no request pays for copying the WAL back and syncing (docs/performance.md, "What
 * changed the write path"). The request thread's connection keeps automatic checkpoints at
 * `BACKSTOP_PAGES`, in case this thread falls behind or fails.
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
  private thread?: { worker: Worker; exited: Promise<void> };
  private watcher?: FSWatcher;
  private stopped = false;

  private constructor(
    private readonly file: string,
    private readonly onError: (message: string) => void,
    private readonly intervalMs: number,
  ) {}

  /** Starts checkpointing `file` (a SQLite database in WAL mode); `onError` hears failed checkpoints. */
  static start(file: string, onError: (message: string) => void, intervalMs = 100): WalCheckpointer {
    const checkpointer = new WalCheckpointer(file, onError, intervalMs);
    checkpointer.startThread();
    return checkpointer;
  }

  /**
   * As `start`, but the thread starts with the first write to the database (its WAL file changes),
   * whoever writes: a service nobody writes to has nothing to checkpoint, and the thread is some
   * 10 MB of RSS. From then on it runs as `start`'s. Where the folder cannot be watched, it starts now.
   */
  static startAtFirstWrite(file: string, onError: (message: string) => void, intervalMs = 100): WalCheckpointer {
    const checkpointer = new WalCheckpointer(file, onError, intervalMs);
    const wal = `${basename(file)}-wal`;
    const written = () => checkpointer.startThread();
    try {
      // The folder, not the file: the WAL file is removed when the last connection closes and made anew.
      const watcher = watch(dirname(file), { persistent: false }, (_event, name) => (name === null || name === wal) && written());
      watcher.on('error', written);
      checkpointer.watcher = watcher;
    } catch {
      written();
    }
    return checkpointer;
  }

  /** Whether the thread runs (with `startAtFirstWrite`, not before the first write). */
  get running(): boolean {
    return this.thread !== undefined;
  }

  private startThread() {
    this.watcher?.close();
    this.watcher = undefined;
    if (this.thread || this.stopped) return;
    const driver = createRequire(import.meta.url).resolve('better-sqlite3');
    const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { file: this.file, driver, intervalMs: this.intervalMs } });
    worker.on('message', (message: { error?: string }) => message.error && this.onError(message.error));
    worker.on('error', (err) => this.onError(err.message));
    worker.unref();
    this.thread = { worker, exited: new Promise((done) => worker.once('exit', () => done())) };
  }

  /** A last checkpoint, then the thread ends (a thread not started yet never starts). */
  async stop(): Promise<void> {
    this.stopped = true;
    this.watcher?.close();
    this.watcher = undefined;
    if (!this.thread) return;
    const { worker, exited } = this.thread;
    const stopped = new Promise<void>((done) => worker.on('message', (message: { stopped?: boolean }) => message.stopped && done()));
    worker.ref(); // unref'd while it runs; now the answer has to keep the process waiting
    worker.postMessage('stop');
    // A thread that failed to start has exited already.
    await Promise.race([stopped, exited]);
    await worker.terminate();
  }
}
