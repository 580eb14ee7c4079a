/** Turns texts into vectors for recall by meaning. */
export interface Embedder {
  readonly provider: 'local' | 'openai';
  /** Stored with each vector (e.g. 'local-glove100-sif-v1'): vectors of different models do not compare. */
  readonly model: string;
  /** Known after the model loaded (local) or the first answer (openai). */
  dimension(): number | undefined;
  /**
   * One unit-length vector per text, in order. `signal`: the caller gave up (work not yet started is
   * dropped); `job`: who waits for it (the local embedder serves questions first, accounts in turn,
   * then their minds).
   */
  embed(texts: readonly string[], signal?: AbortSignal, job?: EmbedJob): Promise<Float32Array[]>;
  close(): Promise<void>;
}

/** Who waits for a piece of work. */
export interface EmbedJob {
  /** question: a recall waits (a question's vector, a re-ranking); background (the default): the worker's batches. */
  lane?: 'question' | 'background';
  /** The mind it is for: questions of different minds take turns, and caches are kept per mind. */
  mindId?: string;
  /** The mind's account: accounts take turns before their minds, so more minds get no larger share. */
  userId?: string;
}

/** What a health endpoint shows of an embedder. */
export interface EmbedderHealth {
  ok: boolean;
  detail: string;
  lastError?: string;
  /** ISO time of the last successful answer. */
  lastSuccessAt?: string;
}

/** The part of pino the embedders use. */
export interface EmbedderLogger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

export type EmbeddingsMode = 'local' | 'openai' | 'off';

/** MIND_EMBEDDINGS and its settings, as a plain object. */
export interface EmbeddingsSettings {
  /** MIND_EMBEDDINGS: local (default), openai, or off (keyword recall only). */
  mode: EmbeddingsMode;
  /** Where the local word table is cached (e.g. join(dataDir, 'embeddings')). */
  cacheDir: string;
  /** MIND_EMBEDDINGS_URL: an OpenAI-compatible server (with or without /v1). */
  url?: string;
  /** MIND_EMBEDDINGS_MODEL: the remote model's name. */
  model?: string;
  /** MIND_EMBEDDINGS_API_KEY: sent as a Bearer token when set. */
  apiKey?: string;
  timeoutMs?: number;
  batchSize?: number;
  maxRetries?: number;
  logger?: EmbedderLogger;
}
