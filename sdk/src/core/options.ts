/** Options of every method call; each overrides the client's setting for this call only. */
export interface RequestOptions {
  /** Milliseconds to wait for each attempt's answer (default: the client's `timeout`). */
  timeout?: number | undefined;
  /** Retries after the first attempt (default: the client's `maxRetries`). */
  maxRetries?: number | undefined;
  /** Aborts the request (and any retry wait); the call rejects with RequestAbortedError. */
  signal?: AbortSignal | undefined;
  /** Extra headers for this call. */
  headers?: Record<string, string> | undefined;
  /**
   * Whether the call may be retried after a 5xx or a connection error. Reads, updates and deletes are;
   * calls that create something (register, create a task, queue a command...) are not, unless you say
   * `idempotent: true`. A 429 is retried either way: the service refused it before doing anything.
   */
  idempotent?: boolean | undefined;
}

/** How long to wait between retries when the service gives no `Retry-After`. */
export interface RetryBackoff {
  /** Delay before the first retry, in ms; doubles each time (default 1000: 1, 2, 4, 8 s). */
  initialDelayMs?: number | undefined;
  /** Largest delay between two attempts, in ms (default 8000). */
  maxDelayMs?: number | undefined;
  /** Largest `Retry-After` the SDK waits for; a longer one fails at once (default 60000). */
  maxRetryAfterMs?: number | undefined;
  /** Take up to 25% off each delay at random, so many clients do not retry in step (default true). */
  jitter?: boolean | undefined;
}

/** Transport settings shared by MindClient and AgentClient. */
export interface TransportOptions {
  /** Where the service runs, e.g. `http://127.0.0.1:3000`. */
  baseUrl: string;
  /** Milliseconds to wait for each attempt's answer (default 60000). */
  timeout?: number | undefined;
  /** Retries after the first attempt (default 2). */
  maxRetries?: number | undefined;
  retryBackoff?: RetryBackoff | undefined;
  /** A fetch implementation (default: the global fetch). */
  fetch?: typeof fetch | undefined;
  /** Headers sent with every request. */
  defaultHeaders?: Record<string, string> | undefined;
}

export const DEFAULT_TIMEOUT_MS = 60_000;
export const DEFAULT_MAX_RETRIES = 2;
export const SDK_VERSION = '0.1.0';
