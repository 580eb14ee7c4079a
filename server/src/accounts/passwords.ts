import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

// bcrypt reads only the first 72 bytes; hashing first makes every byte of a long password count.
const preHash = (password: string) => createHash('sha256').update(password, 'utf8').digest('base64');

// Plain CommonJS, so the thread needs no TypeScript loader (as db/checkpointer.ts): it runs the same
// under `node --import tsx` (tests, `pnpm start`) as anywhere else. bcryptjs's path comes from here.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const bcrypt = require(workerData.bcryptjs);
parentPort.on('message', ({ id, op, input, arg }) => {
  try {
    parentPort.postMessage({ id, value: op === 'hash' ? bcrypt.hashSync(input, arg) : bcrypt.compareSync(input, arg) });
  } catch (err) {
    parentPort.postMessage({ id, error: String((err && err.message) || err) });
  }
});
`;

type Job = { op: 'hash'; input: string; arg: number } | { op: 'compare'; input: string; arg: string };
type Pending = Job & { id: number; done: (value: string | boolean) => void; fail: (err: Error) => void };
interface Thread {
  worker: Worker;
  busy?: Pending;
}

/**
 * bcrypt on worker threads: at cost 12 one hash is about 300 ms of CPU, which on the event loop
 * would hold up every other request (bcryptjs's async mode only slices it, 100 ms at a time).
 * Threads start when first needed, at most `size`; jobs wait their turn in order. An idle thread
 * does not keep the process alive.
 */
export class PasswordHasher {
  private readonly threads: Thread[] = [];
  private readonly queue: Pending[] = [];
  private nextId = 0;
  private closed = false;
  private dummy: Promise<string> | undefined;

  constructor(
    private readonly cost: number,
    private readonly size: number,
  ) {}

  hash(password: string): Promise<string> {
    return this.run({ op: 'hash', input: preHash(password), arg: this.cost }) as Promise<string>;
  }

  check(password: string, hash: string): Promise<boolean> {
    return this.run({ op: 'compare', input: preHash(password), arg: hash }) as Promise<boolean>;
  }

  /** Compared against when the email is unknown, so both failures take the same time. */
  dummyHash(): Promise<string> {
    if (!this.dummy) {
      this.dummy = this.hash('not-a-real-password');
      this.dummy.catch(() => (this.dummy = undefined)); // a failed one is made again next time
    }
    return this.dummy;
  }

  /** Threads running now. */
  get threadCount(): number {
    return this.threads.length;
  }

  /** Ends the threads; jobs not finished are refused. */
  async close(): Promise<void> {
    this.closed = true;
    const stopped = new Error('The service is shutting down.');
    for (const job of this.queue.splice(0)) job.fail(stopped);
    for (const thread of this.threads) thread.busy?.fail(stopped);
    await Promise.all(this.threads.splice(0).map((thread) => thread.worker.terminate()));
  }

  private run(job: Job): Promise<string | boolean> {
    if (this.closed) return Promise.reject(new Error('The service is shutting down.'));
    return new Promise((done, fail) => {
      this.queue.push({ ...job, id: ++this.nextId, done, fail });
      this.dispatch();
    });
  }

  private dispatch() {
    while (this.queue.length > 0) {
      const thread = this.threads.find((t) => !t.busy) ?? (this.threads.length < this.size ? this.start() : undefined);
      if (!thread) return;
      const job = this.queue.shift()!;
      thread.busy = job;
      thread.worker.ref(); // a job under way keeps the process waiting for its answer
      thread.worker.postMessage({ id: job.id, op: job.op, input: job.input, arg: job.arg });
    }
  }

  private start(): Thread {
    const bcryptjs = createRequire(import.meta.url).resolve('bcryptjs');
    const thread: Thread = { worker: new Worker(WORKER_SOURCE, { eval: true, workerData: { bcryptjs } }) };
    thread.worker.unref();
    thread.worker.on('message', (message: { id: number; value?: string | boolean; error?: string }) => {
      const job = thread.busy;
      if (!job || job.id !== message.id) return;
      thread.busy = undefined;
      thread.worker.unref();
      if (message.error !== undefined) job.fail(new Error(`bcrypt: ${message.error}`));
      else job.done(message.value!);
      this.dispatch();
    });
    // A thread that dies (it should not) fails its job and is replaced by the next dispatch.
    const lost = (err: Error) => {
      const index = this.threads.indexOf(thread);
      if (index < 0) return;
      this.threads.splice(index, 1);
      thread.busy?.fail(err);
      thread.busy = undefined;
      if (!this.closed) this.dispatch();
    };
    thread.worker.on('error', lost);
    thread.worker.on('exit', (code) => lost(new Error(`password thread exited (code ${code})`)));
    this.threads.push(thread);
    return thread;
  }
}
