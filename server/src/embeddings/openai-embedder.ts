import { setTimeout as sleep } from 'node:timers/promises';
import type { Embedder, EmbedderHealth, EmbedderLogger } from './embedder.js';
import { normalise } from './sif.js';

export interface OpenAIEmbedderOptions {
  /** The server, with or without /v1 (https://api.openai.com, http://127.0.0.1:11434/v1, ...). */
  url: string;
  model: string;
  apiKey?: string;
  /** Per HTTP request, each try on its own. */
  timeoutMs: number;
  /** Texts per request. */
  batchSize: number;
  /** Tries after the first, on network errors, timeouts, 429 and 5xx. */
  maxRetries: number;
  logger?: EmbedderLogger;
  /** First backoff; doubled each retry, with jitter (default 500 ms). */
  retryBaseMs?: number;
  /** Longest wait between tries, Retry-After included (default 30 s). */
  maxRetryDelayMs?: number;
}

/** A failed embeddings request: which URL, what went wrong, and whether trying again could help. */
export class EmbeddingRequestError extends Error {
  constructor(
    message: string,
    readonly url: string,
    readonly status?: number,
    readonly retryable = false,
    readonly retryAfterMs?: number,
  ) {
    super(message);
    this.name = 'EmbeddingRequestError';
  }
}

/** {url}/v1/embeddings, whether or not url already ends in /v1. */
export function embeddingsEndpoint(url: string): string {
  const base = url.replace(/\/+$/, '');
  return /\/v1$/.test(base) ? `${base}/embeddings` : `${base}/v1/embeddings`;
}

/**
 * Any OpenAI-compatible POST /v1/embeddings ({ model, input } -> { data: [{ index, embedding }] }).
 * Texts go in batches of batchSize; a try that fails for a reason that may pass (network, timeout,
 * 429, 5xx) is retried with exponential backoff and jitter, honouring Retry-After; other answers
 * (400, 401, 404, ...) fail at once. The dimension is the first answer's, and an answer of another
 * dimension is an error (vectors of two sizes cannot be compared).
 */
export function createOpenAIEmbedder(options: OpenAIEmbedderOptions): Embedder & { health(): EmbedderHealth } {
  const endpoint = embeddingsEndpoint(options.url);
  const baseDelay = options.retryBaseMs ?? 500;
  const maxDelay = options.maxRetryDelayMs ?? 30_000;
  let dim: number | undefined;
  let lastError: string | undefined;
  let lastSuccessAt: string | undefined;
  let failing = false;

  async function request(input: string[], signal?: AbortSignal): Promise<Float32Array[]> {
    const timeout = AbortSignal.timeout(options.timeoutMs);
    let response: Response;
    try {
      response = await fetch(endpoint, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {}) },
        body: JSON.stringify({ model: options.model, input }),
        signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
      });
    } catch (err) {
      if (signal?.aborted) throw signal.reason;
      if (timeout.aborted)
        throw new EmbeddingRequestError(`${endpoint}: no answer within ${options.timeoutMs} ms`, endpoint, undefined, true);
      const cause = (err as { cause?: { code?: string; message?: string } }).cause;
      const why = cause?.code ?? cause?.message ?? (err as Error).message;
      throw new EmbeddingRequestError(`${endpoint}: cannot connect (${why})`, endpoint, undefined, true);
    }
    const text = await response.text().catch(() => '');
    if (!response.ok) {
      const retryable = response.status === 429 || response.status >= 500;
      const detail = text.slice(0, 300).replace(/\s+/g, ' ');
      throw new EmbeddingRequestError(
        `${endpoint}: HTTP ${response.status}${detail ? `: ${detail}` : ''}`,
        endpoint,
        response.status,
        retryable,
        retryAfter(response.headers.get('retry-after')),
      );
    }
    return parseAnswer(text, input.length);
  }

  function parseAnswer(text: string, count: number): Float32Array[] {
    let body: { data?: Array<{ index?: number; embedding?: unknown }> };
    try {
      body = JSON.parse(text);
    } catch {
      throw new EmbeddingRequestError(`${endpoint}: answer is not JSON`, endpoint, 200);
    }
    const data = Array.isArray(body?.data) ? [...body.data] : undefined;
    if (!data || data.length !== count)
      throw new EmbeddingRequestError(`${endpoint}: expected ${count} embeddings, got ${data?.length ?? 'none'}`, endpoint, 200);
    data.sort((a, b) => (a.index ?? 0) - (b.index ?? 0));
    return data.map(({ embedding }) => {
      if (!Array.isArray(embedding) || embedding.length === 0 || !embedding.every((v) => typeof v === 'number')) {
        throw new EmbeddingRequestError(`${endpoint}: an embedding is not a list of numbers`, endpoint, 200);
      }
      dim ??= embedding.length;
      if (embedding.length !== dim) {
        throw new EmbeddingRequestError(
          `${endpoint}: model ${options.model} answered ${embedding.length} dimensions, earlier ${dim}`,
          endpoint,
          200,
        );
      }
      return normalise(Float32Array.from(embedding as number[]));
    });
  }

  async function withRetries(input: string[], signal?: AbortSignal): Promise<Float32Array[]> {
    for (let attempt = 0; ; attempt++) {
      try {
        const vectors = await request(input, signal);
        failing = false;
        lastSuccessAt = new Date().toISOString();
        return vectors;
      } catch (err) {
        if (signal?.aborted) throw err;
        const failure = err instanceof EmbeddingRequestError ? err : new EmbeddingRequestError(String(err), endpoint);
        failing = true;
        lastError = failure.message;
        if (!failure.retryable || attempt >= options.maxRetries) {
          throw attempt > 0
            ? new EmbeddingRequestError(`${failure.message} (after ${attempt + 1} tries)`, endpoint, failure.status)
            : failure;
        }
        // Exponential backoff with "equal jitter"; a server's Retry-After, when longer, wins.
        const backoff = Math.min(maxDelay, baseDelay * 2 ** attempt);
        const delay = Math.min(maxDelay, Math.max(backoff / 2 + Math.random() * (backoff / 2), failure.retryAfterMs ?? 0));
        options.logger?.warn({ url: endpoint, status: failure.status, attempt: attempt + 1, delayMs: Math.round(delay) }, failure.message);
        await sleep(delay, undefined, { signal });
      }
    }
  }

  return {
    provider: 'openai',
    model: options.model,
    dimension: () => dim,
    async embed(texts, signal) {
      signal?.throwIfAborted();
      const out: Float32Array[] = [];
      for (let i = 0; i < texts.length; i += options.batchSize) {
        out.push(...(await withRetries(texts.slice(i, i + options.batchSize), signal)));
      }
      return out;
    },
    health: () => ({
      ok: !failing,
      detail: failing
        ? `embeddings server ${endpoint} failing`
        : lastSuccessAt
          ? `embeddings server ${endpoint} answering (model ${options.model}, ${dim} dimensions)`
          : `embeddings server ${endpoint} not asked yet`,
      lastError,
      lastSuccessAt,
    }),
    async close() {},
  };
}

/** Retry-After as milliseconds: delta-seconds or an HTTP date. */
function retryAfter(header: string | null): number | undefined {
  if (!header) return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const at = Date.parse(header);
  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now());
}
