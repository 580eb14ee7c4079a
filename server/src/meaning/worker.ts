import type { Db, Dialect } from '../db/database.js';
import { BackgroundLoop } from '../lib/background-loop.js';
import type { Embedder } from '../embeddings/embedder.js';
import { adoptModel, claimPendingEmbeddings, completeEmbeddings, releaseEmbeddings } from './store.js';

/** Memories embedded per call to the embedder. */
const BATCH = 256;
/** A write wakes the worker this much later, so that writes arriving together are embedded together. */
const GATHER_MS = 250;
/** With nothing queued, how often another instance's writes are looked for (a write here wakes it at once). */
const IDLE_POLL_MS = 1_000;
const MAX_BACKOFF_MS = 30_000;

interface WorkerLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

/** What /health and GET /memory/stats show of the embedding worker. */
export interface EmbeddingStatus {
  state: 'ok' | 'failing';
  lastError?: string;
}

/**
 * Embeds queued memories in the background, in batches, off the request path: a write only queues
 * (a trigger in its transaction), so POST /memory does not wait for the model, and until its vector
 * is stored a memory is found by keyword. While the embedder fails, the worker retries with growing
 * pauses (one log line when it starts failing and one when it recovers); recall keeps working by
 * keyword meanwhile.
 */
export class EmbeddingWorker {
  private readonly loop: BackgroundLoop;
  private backoffMs = 0;
  private failing: string | undefined;

  constructor(
    private readonly db: Db,
    private readonly dialect: Dialect,
    private readonly embedder: Embedder,
    private readonly log: WorkerLog,
    /** How long a claim lasts: a worker that died gives its memories to another after this (on SQLite at once, store.ts). */
    private readonly leaseMs: number,
    /** Told after each stored batch which minds' memories it held (recall's `wait_ms` waits on it). */
    private readonly onEmbedded: (mindIds: Set<string>) => void = () => undefined,
  ) {
    this.loop = new BackgroundLoop({
      step: () => this.drainQueue(),
      log,
      failure: 'embeddings: the worker failed',
      retryMs: IDLE_POLL_MS,
      // While the embedder fails, writes wait for the next retry.
      acceptsWake: () => this.backoffMs === 0,
    });
  }

  status(): EmbeddingStatus {
    return this.failing ? { state: 'failing', lastError: this.failing } : { state: 'ok' };
  }

  async start(): Promise<void> {
    const { changed, queued } = await adoptModel(this.db, this.embedder.model);
    if (changed && queued)
      this.log.info({ model: this.embedder.model, queued }, 'embedding model changed: re-embedding every memory in the background');
    this.wake();
  }

  /** Something was written: look at the queue GATHER_MS from now (unless the embedder is failing: then at the next retry). */
  wake(): void {
    this.loop.wake(GATHER_MS);
  }

  /** A recall waits for the queue (`wait_ms`): look at it now, not after the gathering delay. */
  hurry(): void {
    this.loop.wake(0);
  }

  /**
   * Embeds full batches back to back; a batch that is not full ends the pass. The next pass comes
   * GATHER_MS after a write (or at the idle poll), so under a stream of writes each pass takes what
   * gathered meanwhile: few large transactions instead of one per handful of writes. A failure
   * answers the growing pause before the next try.
   */
  private async drainQueue(): Promise<number> {
    try {
      while (!this.loop.stopped && (await this.embedBatch()) === BATCH);
      return IDLE_POLL_MS;
    } catch (err) {
      this.backoffMs = Math.min(MAX_BACKOFF_MS, this.backoffMs ? this.backoffMs * 2 : 1_000);
      this.noteFailure(err);
      return this.backoffMs;
    }
  }

  /** Embeds one batch; resolves with how many memories it claimed (0: the queue is empty). */
  private async embedBatch(): Promise<number> {
    const now = new Date();
    const claimed = await claimPendingEmbeddings(this.db, this.dialect, {
      now: now.toISOString(),
      leaseUntil: new Date(now.getTime() + this.leaseMs).toISOString(),
      limit: BATCH,
    });
    if (claimed.length === 0) return 0;
    let vectors: Float32Array[];
    try {
      vectors = await this.embedder.embed(claimed.map((c) => c.text));
    } catch (err) {
      await releaseEmbeddings(this.db, claimed);
      throw err;
    }
    await completeEmbeddings(
      this.db,
      this.dialect,
      this.embedder.model,
      claimed.map((c, i) => ({ claimed: c, vector: vectors[i]! })),
      new Date().toISOString(),
    );
    this.onEmbedded(new Set(claimed.map((c) => c.mindId)));
    if (this.failing) this.log.info({ model: this.embedder.model }, 'embeddings: the embedder answers again');
    this.failing = undefined;
    this.backoffMs = 0;
    return claimed.length;
  }

  private noteFailure(err: unknown) {
    const message = err instanceof Error ? err.message : String(err);
    if (!this.failing) {
      this.log.warn(
        { model: this.embedder.model, err: message, retryInMs: this.backoffMs },
        'embeddings: the embedder fails; memories wait in the queue and recall works by keyword meanwhile',
      );
    }
    this.failing = message;
  }

  stop(): Promise<void> {
    return this.loop.stop();
  }
}
