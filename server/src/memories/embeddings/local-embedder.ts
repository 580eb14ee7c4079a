import { Worker } from 'node:worker_threads';
import type { Embedder, EmbedderLogger } from './embedder.js';
import { LOCAL_MODEL, type LoadInfo, loadLocalModel } from './local-model.js';
import { alignerFor, RERANK_DEFAULTS, type RerankCandidate, type RerankHit, type RerankOptions } from './rerank.js';
import type { SifEncoder } from './sif.js';

export interface LocalEmbedderOptions {
  cacheDir: string;
  logger?: EmbedderLogger;
}

/** The local embedder, plus what its word table can do besides vectors. */
export interface LocalEmbedder extends Embedder {
  /**
   * Recall's candidate window re-ranked by meaning (rerank.ts: density-corrected cosine, word
   * alignment, keyword score), best first. `options` defaults to RERANK_DEFAULTS (SQLite BM25's
   * scale; RERANK_DEFAULTS_POSTGRES for ts_rank). About 10 ms for 270 candidates on the worker.
   */
  rerank(query: string, candidates: readonly RerankCandidate[], options?: RerankOptions, signal?: AbortSignal): Promise<RerankHit[]>;
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
    async rerank(query, candidates, options = RERANK_DEFAULTS, signal) {
      signal?.throwIfAborted();
      return alignerFor(await load()).rerank(query, candidates, options);
    },
    async close() {},
  };
}

// Plain CommonJS (as db/checkpointer.ts), so the thread starts the same with or without a loader
// in this process; it registers tsx itself and imports the TypeScript worker module.
const WORKER_SOURCE = `
const { workerData } = require('node:worker_threads');
import(workerData.tsx).then((tsx) => { tsx.register(); return import(workerData.entry); });
`;

type Reply =
  | { type: 'ready'; info: LoadInfo }
  | { type: 'fatal'; message: string }
  | { type: 'result'; id: number; buffer: ArrayBuffer; dim: number }
  | { type: 'reranked'; id: number; hits: RerankHit[] }
  | { type: 'error'; id: number; message: string };

interface Job {
  done: (reply: Extract<Reply, { type: 'result' | 'reranked' }>) => void;
  fail: (err: Error) => void;
}

/**
 * The local embedder on a worker thread, so a batch never holds up the request thread. The thread
 * starts with the first request and loads the word table; the request waits for that. A first start builds the table,
 * which leaves some 150 MB of garbage in that thread's heap that V8 keeps: that thread is then
 * replaced by a fresh one that reads the new cache. A thread that dies fails its jobs and is
 * started again by the next embed. An idle thread does not keep the process alive.
 */
export function createLocalEmbedder(options: LocalEmbedderOptions): LocalEmbedder & { ready(): Promise<LoadInfo> } {
  let thread: { worker: Worker; ready: Promise<LoadInfo> } | undefined;
  let dim: number | undefined;
  let nextId = 0;
  let closed = false;
  const jobs = new Map<number, Job>();

  const spawn = () => {
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      execArgv: [], // not the parent's (--test, --import): the source above sets up what it needs
      workerData: {
        cacheDir: options.cacheDir,
        tsx: import.meta.resolve('tsx/esm/api'),
        entry: new URL('./local-worker.ts', import.meta.url).href,
      },
    });
    worker.unref();
    return worker;
  };

  const start = () => {
    let loaded: (info: LoadInfo) => void = () => {};
    let failed: (err: Error) => void = () => {};
    const ready = new Promise<LoadInfo>((resolve, reject) => {
      loaded = resolve;
      failed = reject;
    });
    ready.catch(() => {}); // reported to embed's callers
    const current = { worker: spawn(), ready };
    let build: LoadInfo | undefined;
    const lost = (err: Error) => {
      failed(err);
      if (thread === current) thread = undefined;
      for (const job of jobs.values()) job.fail(err);
      jobs.clear();
    };
    const listen = (worker: Worker) => {
      worker.on('message', (reply: Reply) => {
        if (reply.type === 'ready') {
          if (reply.info.built && !build) {
            // No job has been sent yet (embed waits for ready): swap in a clean thread.
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
          loaded(info);
        } else if (reply.type === 'fatal') {
          lost(new Error(`local embeddings failed to load: ${reply.message}`));
          void worker.terminate();
        } else {
          const job = jobs.get(reply.id);
          jobs.delete(reply.id);
          if (jobs.size === 0) worker.unref();
          if (!job) return;
          if (reply.type === 'error') job.fail(new Error(`local embeddings: ${reply.message}`));
          else job.done(reply);
        }
      });
      worker.on('error', lost);
      worker.on('exit', (code) => lost(new Error(`local embeddings thread exited (code ${code})`)));
    };
    listen(current.worker);
    return current;
  };

  /** Sends one request to the thread once it is ready; resolves with its answer. */
  const send = async (request: object, signal?: AbortSignal): Promise<Parameters<Job['done']>[0]> => {
    signal?.throwIfAborted();
    if (closed) throw new Error('local embeddings: closed');
    thread ??= start();
    const current = thread;
    await current.ready;
    signal?.throwIfAborted();
    const { worker } = current;
    const id = ++nextId;
    return new Promise((done, fail) => {
      const onAbort = () => {
        jobs.delete(id); // its answer, when it comes, is dropped
        fail(signal!.reason instanceof Error ? signal!.reason : new Error('aborted'));
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      const settle =
        <T>(fn: (value: T) => void) =>
        (value: T) => {
          signal?.removeEventListener('abort', onAbort);
          fn(value);
        };
      jobs.set(id, { done: settle(done), fail: settle(fail) });
      worker.ref(); // a job under way keeps the process waiting for its answer
      worker.postMessage({ id, ...request });
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
    async embed(texts, signal) {
      if (texts.length === 0) {
        signal?.throwIfAborted();
        if (closed) throw new Error('local embeddings: closed');
        return [];
      }
      const reply = await send({ texts: [...texts] }, signal);
      if (reply.type !== 'result') throw new Error('local embeddings: unexpected reply');
      dim = reply.dim;
      const packed = new Float32Array(reply.buffer);
      return Array.from({ length: packed.length / reply.dim }, (_, i) => packed.subarray(i * reply.dim, (i + 1) * reply.dim));
    },
    async rerank(query, candidates, options = RERANK_DEFAULTS, signal) {
      if (candidates.length === 0) return [];
      const plain = candidates.map(({ id, text, keywordScore, similarity }) => ({ id, text, keywordScore, similarity }));
      const reply = await send({ rerank: { query, candidates: plain, options } }, signal);
      if (reply.type !== 'reranked') throw new Error('local embeddings: unexpected reply');
      return reply.hits;
    },
    async close() {
      closed = true;
      const current = thread;
      thread = undefined;
      for (const job of jobs.values()) job.fail(new Error('local embeddings: closed'));
      jobs.clear();
      await current?.worker.terminate();
    },
  };
}
