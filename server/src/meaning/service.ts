import type { AppContext } from '../core/context.js';
import type { Conn, Db } from '../db/database.js';
import { forgetModel, pendingEmbeddings } from './store.js';
import { EmbeddingWorker, type EmbeddingStatus } from './worker.js';
import { PendingWaits } from './pending-wait.js';
import { createEmbedder } from '../embeddings/create-embedder.js';
import type { EmbedJob, Embedder } from '../embeddings/embedder.js';
import type { LocalEmbedder } from '../embeddings/local-embedder.js';
import type { RerankCandidate, RerankHit, RerankOptions } from '../embeddings/rerank.js';
import { type Nearest, VectorIndex } from './vector-index.js';

/** A question's vector is awaited at most this long; past it recall answers by keyword. */
const QUERY_TIMEOUT_MS = 3_000;
const QUERY_CACHE_SIZE = 500;
/**
 * How often a recall's `wait_ms` looks at the queue itself: where instances share the database, another's
 * worker may embed the mind's memories (ours wakes the wait at once); on SQLite only `mind-service reindex` may.
 */
const WAIT_POLL_MS = { shared: 50, alone: 250 };
/** Attempts after the first for a batch sent to an OpenAI-compatible server. */
const EMBED_RETRIES = 3;

/** Aborts after QUERY_TIMEOUT_MS, or with `signal` (the request went away). */
const deadline = (signal?: AbortSignal): AbortSignal =>
  signal ? AbortSignal.any([signal, AbortSignal.timeout(QUERY_TIMEOUT_MS)]) : AbortSignal.timeout(QUERY_TIMEOUT_MS);

/** Below this cosine similarity a text is not a semantic hit at all (recall and chat search alike). */
export const SIMILARITY_FLOOR = 0.3;

/** The mind asking and its account: the embedder serves accounts in turn, then their minds. */
export interface Asker {
  userId: string;
  mindId: string;
}

/** A question's work for the embedder: served before background work, accounts then minds in turn. */
const questionOf = (asker: Asker): EmbedJob & { lane: 'question'; mindId: string } => ({
  lane: 'question',
  userId: asker.userId,
  mindId: asker.mindId,
});

/** What /health and GET /memory/stats say about recall by meaning. */
export interface MeaningStatus {
  provider: 'local' | 'openai' | 'off';
  model: string | null;
  state: 'ok' | 'failing' | 'off';
  detail?: string;
}

/**
 * Embeddings, for recall (recall/) and chat search (chat/) to rank by meaning: the embedder
 * MIND_EMBEDDINGS chose, the background worker that embeds queued memories, and the in-memory index
 * of stored vectors. With embeddings off every part is absent and search is by keyword only.
 */
export class Meaning {
  /** Read by chat search's ranking (chat/ranking-by-meaning.ts), which embeds its window itself. */
  readonly embedder: Embedder | undefined;
  private readonly worker: EmbeddingWorker | undefined;
  private readonly index: VectorIndex | undefined;
  private readonly waits: PendingWaits | undefined;
  /** Question vectors by mind and question: one mind's questions never answer faster for another. */
  private readonly queries = new Map<string, Float32Array>();
  private readonly db: Db;

  constructor(ctx: AppContext) {
    this.db = ctx.db;
    const { embeddings } = ctx.config;
    const log = ctx.log;
    this.embedder = createEmbedder({
      mode: embeddings.mode,
      cacheDir: embeddings.cacheDir,
      url: embeddings.url,
      model: embeddings.model,
      apiKey: embeddings.apiKey,
      timeoutMs: embeddings.timeoutMs,
      maxRetries: EMBED_RETRIES,
      logger: log,
    });
    if (this.embedder) {
      // A claim outlives every attempt of a batch (each waits at most the timeout, and as long before the
      // next), so only a dead instance's claims pass to another.
      const leaseMs = (EMBED_RETRIES + 1) * 2 * embeddings.timeoutMs + 1_000;
      const worker = new EmbeddingWorker(ctx.db, ctx.dialect, this.embedder, log, leaseMs, (minds) => this.waits?.embedded(minds));
      this.worker = worker;
      const pollMs = ctx.dialect.sharedByInstances ? WAIT_POLL_MS.shared : WAIT_POLL_MS.alone;
      this.waits = new PendingWaits(
        (mindId) => this.pending(mindId),
        () => worker.hurry(),
        pollMs,
      );
      this.index = new VectorIndex(this.embedder.model, ctx.config.vectorCacheBytes);
    }
  }

  get enabled(): boolean {
    return this.embedder !== undefined;
  }

  /** Starts the worker; with embeddings off, forgets the stored model, so turning them on re-embeds all. */
  async start(): Promise<void> {
    if (this.worker) return this.worker.start();
    await forgetModel(this.db);
  }

  pending(mindId: string): Promise<number> {
    return pendingEmbeddings(this.db, mindId);
  }

  /**
   * Recall's `wait_ms`: resolves with the mind's pending embeddings once there are none, after `ms`,
   * or when `signal` aborts, whichever is first (pending-wait.ts). With embeddings off, at once.
   */
  async settle(mindId: string, ms: number, signal?: AbortSignal): Promise<number> {
    return this.waits ? this.waits.wait(mindId, ms, signal) : 0;
  }

  /**
   * The mind's stored vectors nearest to `vector` (vector-index.ts), closest first, as of `asOf`
   * (the newest vector a first page saw) or now. Asked only with embeddings on.
   */
  nearest(conn: Conn, mindId: string, vector: Float32Array, depth: number, asOf: string | undefined): Promise<Nearest> {
    if (!this.index) throw new Error('the vector index was asked with embeddings off');
    return this.index.nearest(conn, mindId, vector, depth, asOf);
  }

  /** Whether the embedder answers; a failing one is not waited for on a request. */
  answering(): boolean {
    return this.worker?.status().state !== 'failing';
  }

  /** A memory was written: the worker embeds it now rather than at its next look. */
  written(): void {
    this.worker?.wake();
  }

  /**
   * The local embedder's re-ranking of a candidate window (embeddings/rerank.ts), or undefined when
   * the embedder has none (openai) or fails: recall then keeps the fused order. Served as a question
   * of the asker; dropped unstarted when `signal` aborts (the request went away) or after QUERY_TIMEOUT_MS.
   */
  async rerank(
    asker: Asker,
    query: string,
    candidates: RerankCandidate[],
    options: RerankOptions,
    signal?: AbortSignal,
  ): Promise<RerankHit[] | undefined> {
    const embedder = this.embedder as Partial<LocalEmbedder> | undefined;
    if (!embedder?.rerank || !this.answering()) return undefined;
    try {
      return await embedder.rerank(query, candidates, options, deadline(signal), questionOf(asker));
    } catch {
      return undefined;
    }
  }

  /**
   * The question's vector, or undefined (recall then ranks by keyword) when embeddings are off, the
   * embedder is failing, or it does not answer in time. Cached per mind.
   */
  async queryVector(asker: Asker, q: string, signal?: AbortSignal): Promise<Float32Array | undefined> {
    if (!this.embedder || !this.answering()) return undefined;
    const key = `${asker.mindId}\u0000${q}`;
    const cached = this.queries.get(key);
    if (cached) {
      this.queries.delete(key); // re-inserted last: the Map's order is the LRU order
      this.queries.set(key, cached);
      return cached;
    }
    try {
      const [vector] = await this.embedder.embed([q], deadline(signal), questionOf(asker));
      if (!vector) return undefined;
      if (this.queries.size >= QUERY_CACHE_SIZE) this.queries.delete(this.queries.keys().next().value!);
      this.queries.set(key, vector);
      return vector;
    } catch {
      return undefined;
    }
  }

  status(): MeaningStatus {
    if (!this.embedder || !this.worker) return { provider: 'off', model: null, state: 'off' };
    const worker: EmbeddingStatus = this.worker.status();
    return {
      provider: this.embedder.provider,
      model: this.embedder.model,
      state: worker.state,
      ...(worker.lastError ? { detail: worker.lastError } : {}),
    };
  }

  async stop(): Promise<void> {
    await this.worker?.stop();
    await this.embedder?.close();
  }
}
