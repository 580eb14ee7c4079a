import type { Memory } from '@mindservice/contract';
import type { MindCaller } from '../http/caller.js';
import type { RecallFilter } from './recall-filter.js';

/** A page of recall as GET /memory/recall answers it. */
export interface RecallPage {
  memories: Array<Memory & { score: number; match: 'keyword' | 'semantic' | 'both' }>;
  next_cursor: string | null;
}

/** The mind recalling and its account: the embedder serves accounts in turn, then their minds. */
export type Recaller = Pick<MindCaller, 'userId' | 'mindId'>;

/** A recall in mode hybrid or semantic, its words and filters checked by the memories service. */
export interface MeaningQuery {
  mode: 'hybrid' | 'semantic';
  /** The question as asked, trimmed. */
  q: string;
  filter: RecallFilter;
  limit: number;
  cursor?: string;
}

/**
 * Recall by meaning as the memories service asks for it. meaning/ answers it and app.ts hands it in,
 * so memories/ knows nothing of the embedder, its worker or the vector index (and meaning/, which
 * reads memories' rows, stays the only one of the two that imports the other).
 */
export interface RecallByMeaning {
  /** Embeddings are on (MIND_EMBEDDINGS is not off); off, recall is by keyword only. */
  readonly enabled: boolean;
  /** A memory was written: it is embedded now rather than at the worker's next look. */
  written(): void;
  /** How many of the mind's memories wait to be embedded. */
  pending(mindId: string): Promise<number>;
  /**
   * Waits (recall's `wait_ms`) until none of the mind's memories waits to be embedded, at most `ms`
   * or until `signal` aborts; resolves with how many still wait. Holds no connection meanwhile.
   */
  settle(mindId: string, ms: number, signal?: AbortSignal): Promise<number>;
  /** `signal` aborts when the caller went away: its questions to the embedder are then dropped. */
  recall(recaller: Recaller, query: MeaningQuery, signal?: AbortSignal): Promise<RecallPage>;
}
