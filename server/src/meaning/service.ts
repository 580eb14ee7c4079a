import type { AppContext } from '../core/context.js';
import type { Db } from '../db/database.js';
import { searchFingerprint } from '../memories/cursor.js';
import type { KeywordScores } from '../memories/keyword-index.js';
import { keywordIndexFor } from '../memories/recall.js';
import type { MeaningQuery, RecallByMeaning, RecallPage, Recaller } from '../memories/recall-by-meaning.js';
import type { MemoryRows } from '../memories/rows.js';
import { decodeMeaningCursor, encodeMeaningCursor } from './cursor.js';
import { type MemorySource, recallByMeaning } from './recall.js';
import { forgetModel, pendingEmbeddings } from './store.js';
import { EmbeddingWorker, type EmbeddingStatus } from './worker.js';
import { PendingWaits } from './pending-wait.js';
import { createEmbedder } from './embeddings/create-embedder.js';
import type { EmbedJob, Embedder } from './embeddings/embedder.js';
import type { LocalEmbedder } from './embeddings/local-embedder.js';
import { RERANK_DEFAULTS, type RerankCandidate, type RerankHit, type RerankOptions } from './embeddings/rerank.js';
import { VectorIndex } from './vector-index.js';

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

/** A recall's work for the embedder: a question of its mind and account. */
type QuestionJob = EmbedJob & { lane: 'question'; mindId: string };

/** The re-ranking's squash of keyword scores, per scale (rerank.ts). */
const RERANK: Record<KeywordScores, RerankOptions> = { bm25: RERANK_DEFAULTS };

/** What /health and GET /memory/stats say about recall by meaning. */
export interface MeaningStatus {
  provider: 'local' | 'openai' | 'off';
  model: string | null;
  state: 'ok' | 'failing' | 'off';
  detail?: string;
}

/**
 * Recall by meaning, as the memories service asks for it: the embedder MIND_EMBEDDINGS chose, the
 * background worker that embeds queued memories, and the in-memory index of stored vectors. With
 * embeddings off every part is absent and recall is keyword only.
 */
export class Meaning implements RecallByMeaning {
  /** Read by chat search's ranking (chat-ranking.ts), which app.ts builds on it. */
  readonly embedder: Embedder | undefined;
  private readonly worker: EmbeddingWorker | undefined;
  private readonly index: VectorIndex | undefined;
  private readonly waits: PendingWaits | undefined;
  /** Question vectors by mind and question: one mind's questions never answer faster for another. */
  private readonly queries = new Map<string, Float32Array>();
  private readonly memories: MemorySource;
  private readonly db: Db;
  private readonly pageMaxBytes: number;

  /** `rows`: the memories store's, so that recall reads memories as the store writes them (credentials decrypted). */
  constructor(ctx: AppContext, rows: MemoryRows) {
    this.db = ctx.db;
    this.pageMaxBytes = ctx.config.pageMaxBytes;
    this.memories = { conn: ctx.db, rows, dialect: ctx.dialect, keywords: keywordIndexFor(ctx.dialect) };
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
   * A page of recall by meaning (mode semantic) or by meaning and words fused (mode hybrid), and the
   * cursor of the next (cursor.ts). The memories service asks only with embeddings on.
   */
  async recall(recaller: Recaller, query: MeaningQuery, signal?: AbortSignal): Promise<RecallPage> {
    if (!this.index) throw new Error('recall by meaning was asked with embeddings off');
    const { mindId } = recaller;
    const job: QuestionJob = { lane: 'question', userId: recaller.userId, mindId };
    const fingerprint = `${searchFingerprint(query.filter)}.${query.mode}`;
    const position = query.cursor ? decodeMeaningCursor(query.cursor, fingerprint) : { offset: 0 };
    const vector = await this.queryVector(job, query.q, signal);
    const { hits, next } = await recallByMeaning(this.memories, this.index, mindId, {
      mode: query.mode,
      q: query.q,
      rerank: (q, candidates, scores) => this.rerank(job, q, candidates, scores, signal),
      filter: query.filter,
      vector,
      position,
      limit: query.limit,
      maxBytes: this.pageMaxBytes,
    });
    return {
      memories: hits.map((r) => ({ ...r.memory, score: r.score, match: r.match })),
      next_cursor: next ? encodeMeaningCursor(fingerprint, next) : null,
    };
  }

  /** Whether the embedder answers; a failing one is not waited for on a request. */
  private answering(): boolean {
    return this.worker?.status().state !== 'failing';
  }

  /** A memory was written: the worker embeds it now rather than at its next look. */
  written(): void {
    this.worker?.wake();
  }

  /**
   * The local embedder's re-ranking of a candidate window (embeddings/rerank.ts), or undefined when
   * the embedder has none (openai) or fails: recall then keeps the fused order. Served as a question
   * of the job's account and mind (before background work, accounts then minds in turn); dropped
   * unstarted when `signal` aborts (the request went away) or after QUERY_TIMEOUT_MS.
   */
  private async rerank(
    job: QuestionJob,
    query: string,
    candidates: RerankCandidate[],
    scores: KeywordScores,
    signal?: AbortSignal,
  ): Promise<RerankHit[] | undefined> {
    const embedder = this.embedder as Partial<LocalEmbedder> | undefined;
    if (!embedder?.rerank || !this.answering()) return undefined;
    try {
      return await embedder.rerank(query, candidates, RERANK[scores], deadline(signal), job);
    } catch {
      return undefined;
    }
  }

  /**
   * The question's vector, or undefined (recall then ranks by keyword) when embeddings are off, the
   * embedder is failing, or it does not answer in time. Cached per mind.
   */
  private async queryVector(job: QuestionJob, q: string, signal?: AbortSignal): Promise<Float32Array | undefined> {
    if (!this.embedder || !this.answering()) return undefined;
    const key = `${job.mindId}\u0000${q}`;
    const cached = this.queries.get(key);
    if (cached) {
      this.queries.delete(key); // re-inserted last: the Map's order is the LRU order
      this.queries.set(key, cached);
      return cached;
    }
    try {
      const [vector] = await this.embedder.embed([q], deadline(signal), job);
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
