import { Worker } from 'node:worker_threads';
import type { EmbedJob, Embedder, EmbedderLogger } from './embedder.js';
import { type Asker, JobQueue } from './job-queue.js';
import { LOCAL_MODEL, type LoadInfo, loadLocalModel } from './local-model.js';
import { alignerFor, RERANK_DEFAULTS, type RerankCandidate, type RerankHit, type RerankOptions } from './rerank.js';
import type { SifEncoder } from './sif.js';

/**
 * Text per job sent to the thread (characters): batches of either lane are cut into slices of about
 * this much, and a re-ranking encodes (and reads the words of) about this much of its window's new
 * texts per turn, so a question waits for at most one such slice of each other account (some 5-15
 * ms) whatever their minds ask for.
 */
export const SLICE_CHARS = 32_768;

export interface LocalEmbedderOptions {
  cacheDir: string;
  logger?: EmbedderLogger;
}

/** The local embedder, plus what its word table can do besides vectors. */
export interface LocalEmbedder extends Embedder {
  /**
   * Recall's candidate window re-ranked by meaning (rerank.ts: density-corrected cosine, word
   * alignment, keyword score), best first. `options` defaults to RERANK_DEFAULTS (for BM25's
   * scale, both databases). About 10 ms for 270 candidates on the worker.
   */
  rerank(
    query: string,
    candidates: readonly RerankCandidate[],
    options?: RerankOptions,
    signal?: AbortSignal,
    job?: EmbedJob,
  ): Promise<RerankHit[]>;
}

/** The local embedder on the calling thread: for benchmarks and scripts (a batch blocks that thread). */
export function createLocalEmbedderInProcess(options: LocalEmbedderOptions & { onLoad?: (info: LoadInfo) => void }): LocalEmbedder {
  let encoder: SifEncoder | undefined;
  let loading: Promise<SifEncoder> | undefined;
  const load = () => (loading ??= loadLocalModel(options).then((loaded) => (encoder = loaded)));
  return {
    provider: 'local',
    model: LOCAL_MODEL,
    dimension: () => encoder?.dim,
    async embed(texts, signal) {
      signal?.throwIfAborted();
      const model = await load();
      return texts.map((text) => model.encode(text));
    },
    async rerank(query, candidates, options = RERANK_DEFAULTS, signal, job) {
      signal?.throwIfAborted();
      return alignerFor(await load()).rerank(query, candidates, options, job?.mindId);
    },
    async close() {},
  };
}

// Plain CommonJS (as db/checkpointer.ts), so the thread starts the same with or without a loader
// in this process. Run from source, it registers tsx itself and imports the TypeScript worker module;
// built (server/dist, scripts/build.mjs), it imports the compiled one with source maps on.
const WORKER_SOURCE = `
const { workerData } = require('node:worker_threads');
process.setSourceMapsEnabled(true);
const loader = workerData.tsx ? import(workerData.tsx).then((tsx) => tsx.register()) : Promise.resolve();
loader.then(() => import(workerData.entry));
`;
const FROM_SOURCE = import.meta.url.endsWith('.ts');

type Reply =
  | { type: 'ready'; info: LoadInfo }
  | { type: 'fatal'; message: string }
  | { type: 'result'; id: number; buffer: ArrayBuffer; dim: number }
  | { type: 'reranked'; id: number; hits: RerankHit[] }
  /** A re-ranking encoded a slice of its window's texts and wants another turn. */
  | { type: 'more'; id: number }
  | { type: 'error'; id: number; message: string };

type Answer = Extract<Reply, { type: 'result' | 'reranked' }>;

interface Job {
  request: object;
  lane: 'question' | 'background';
  asker: Asker;
  signal?: AbortSignal;
  done: (reply: Answer) => void;
  fail: (err: Error) => void;
}

/** Texts in slices of about SLICE_CHARS (at least one text each). */
export function slices(texts: readonly string[]): string[][] {
  const out: string[][] = [];
  let slice: string[] = [];
  let chars = 0;
  for (const text of texts) {
    if (slice.length > 0 && chars + text.length > SLICE_CHARS) {
      out.push(slice);
      slice = [];
      chars = 0;
    }
    slice.push(text);
    chars += text.length;
  }
  if (slice.length > 0) out.push(slice);
  return out;
}

/**
 * The local embedder on a worker thread, so a batch never holds up the request thread. The thread
 * starts with the first request and loads the word table; the request waits for that. A first start builds the table,
 * which leaves some 150 MB of garbage in that thread's heap that V8 keeps: that thread is then
 * replaced by a fresh one that reads the new cache. A thread that dies fails its jobs and is
 * started again by the next embed. An idle thread does not keep the process alive.
 *
 * The thread gets one job at a time from a JobQueue (questions first, accounts then their minds in
 * turn, every job a slice); a job whose caller gave up before its turn is dropped uncomputed.
 */
export function createLocalEmbedder(options: LocalEmbedderOptions): LocalEmbedder & { ready(): Promise<LoadInfo> } {
  let thread: { worker: Worker; ready: Promise<LoadInfo>; loaded: boolean } | undefined;
  let dim: number | undefined;
  let nextId = 0;
  let closed = false;
  const queue = new JobQueue<Job>();
  /** The job on the thread, with the id it was sent under. */
  let running: { id: number; job: Job } | undefined;

  const spawn = () => {
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      execArgv: [], // not the parent's (--test, --import): the source above sets up what it needs
      workerData: {
        cacheDir: options.cacheDir,
        sliceChars: SLICE_CHARS,
        tsx: FROM_SOURCE ? import.meta.resolve('tsx/esm/api') : undefined,
        entry: new URL(FROM_SOURCE ? './local-worker.ts' : './local-worker.js', import.meta.url).href,
      },
    });
    worker.unref();
    return worker;
  };

  const failAll = (err: Error) => {
    const current = running;
    running = undefined;
    current?.job.fail(err);
    for (const job of queue.drain()) job.fail(err);
  };

  /** Sends the next job the thread should do, when it is idle and loaded. */
  const pump = () => {
    if (running || closed || !thread?.loaded) return;
    const { worker } = thread;
    for (;;) {
      const job = queue.shift();
      if (!job) {
        worker.unref();
        return;
      }
      if (job.signal?.aborted) continue; // failed by its abort listener already
      running = { id: ++nextId, job };
      worker.ref(); // a job under way keeps the process waiting for its answer
      worker.postMessage({ id: running.id, mindId: job.asker.mindId ?? '', ...job.request });
      return;
    }
  };

  const start = () => {
    let loaded: (info: LoadInfo) => void = () => {};
    let failed: (err: Error) => void = () => {};
    const ready = new Promise<LoadInfo>((resolve, reject) => {
      loaded = resolve;
      failed = reject;
    });
    ready.catch(() => {}); // reported to embed's callers
    const current = { worker: spawn(), ready, loaded: false };
    let build: LoadInfo | undefined;
    const lost = (err: Error) => {
      failed(err);
      if (thread === current) thread = undefined;
      failAll(err);
    };
    const listen = (worker: Worker) => {
      worker.on('message', (reply: Reply) => {
        if (reply.type === 'ready') {
          if (reply.info.built && !build) {
            // No job has been sent yet (jobs wait for ready): swap in a clean thread.
            build = reply.info;
            worker.removeAllListeners();
            void worker.terminate();
            current.worker = spawn();
            listen(current.worker);
            return;
          }
          const info = build ? { ...build, ms: build.ms + reply.info.ms } : reply.info;
          dim = info.dim;
          options.logger?.info({ ...info, ms: Math.round(info.ms) }, 'local embeddings loaded');
          current.loaded = true;
          loaded(info);
          pump();
        } else if (reply.type === 'fatal') {
          lost(new Error(`local embeddings failed to load: ${reply.message}`));
          void worker.terminate();
        } else {
          if (running?.id !== reply.id) return;
          const { job } = running;
          running = undefined;
          if (reply.type === 'more') {
            if (!job.signal?.aborted) queue.push(job, job.lane, job.asker); // its next turn
          } else if (reply.type === 'error') job.fail(new Error(`local embeddings: ${reply.message}`));
          else job.done(reply);
          pump();
        }
      });
      worker.on('error', lost);
      worker.on('exit', (code) => lost(new Error(`local embeddings thread exited (code ${code})`)));
    };
    listen(current.worker);
    return current;
  };

  /** Queues one request for the thread; resolves with its answer. */
  const send = (request: object, lane: Job['lane'], asker: Asker, signal?: AbortSignal): Promise<Answer> => {
    signal?.throwIfAborted();
    if (closed) throw new Error('local embeddings: closed');
    thread ??= start();
    const current = thread;
    return new Promise<Answer>((done, fail) => {
      const onAbort = () => {
        // Still queued: taken out, never computed. On the thread: its answer, when it comes, is dropped.
        queue.remove(job);
        fail(signal!.reason instanceof Error ? signal!.reason : new Error('aborted'));
      };
      const settle =
        <T>(fn: (value: T) => void) =>
        (value: T) => {
          signal?.removeEventListener('abort', onAbort);
          fn(value);
        };
      const job: Job = { request, lane, asker, signal, done: settle(done), fail: settle(fail) };
      signal?.addEventListener('abort', onAbort, { once: true });
      // A thread that fails to load fails its queued jobs (lost); one that loads sends them (pump).
      current.ready.catch(() => {});
      queue.push(job, lane, asker);
      pump();
    });
  };

  // The thread starts with the first request (or ready()): a service that never embeds (no memories)
  // never pays for it.
  return {
    provider: 'local',
    model: LOCAL_MODEL,
    dimension: () => dim,
    ready() {
      thread ??= start();
      return thread.ready;
    },
    async embed(texts, signal, job) {
      signal?.throwIfAborted();
      if (closed) throw new Error('local embeddings: closed');
      const lane = job?.lane ?? 'background';
      const asker = { userId: job?.userId, mindId: job?.mindId };
      // Slices one after another, each a turn: questions of other accounts asked meanwhile go before
      // the next slice, and a batch given up on stops at the slice under way.
      const out: Float32Array[] = [];
      for (const part of slices(texts)) {
        const reply = await send({ texts: part }, lane, asker, signal);
        if (reply.type !== 'result') throw new Error('local embeddings: unexpected reply');
        dim = reply.dim;
        const packed = new Float32Array(reply.buffer);
        for (let i = 0; i < packed.length / reply.dim; i++) out.push(packed.subarray(i * reply.dim, (i + 1) * reply.dim));
      }
      return out;
    },
    async rerank(query, candidates, options = RERANK_DEFAULTS, signal, job) {
      if (candidates.length === 0) return [];
      const plain = candidates.map(({ id, text, keywordScore, similarity }) => ({ id, text, keywordScore, similarity }));
      const asker = { userId: job?.userId, mindId: job?.mindId };
      const reply = await send({ rerank: { query, candidates: plain, options } }, job?.lane ?? 'question', asker, signal);
      if (reply.type !== 'reranked') throw new Error('local embeddings: unexpected reply');
      return reply.hits;
    },
    async close() {
      closed = true;
      const current = thread;
      thread = undefined;
      failAll(new Error('local embeddings: closed'));
      await current?.worker.terminate();
    },
  };
}
