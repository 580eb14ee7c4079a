// One request with the SDK's rules: credentials by the route's auth kind, a timeout per attempt, retries
// with backoff (or Retry-After), and a typed error for anything but a 2xx answer.
import {
  ConnectionError,
  errorFromResponse,
  MindServiceError,
  parseRetryAfterSeconds,
  RequestAbortedError,
  TimeoutError,
} from './errors.js';
import {
  DEFAULT_MAX_RETRIES,
  DEFAULT_TIMEOUT_MS,
  type RequestOptions,
  type RetryBackoff,
  SDK_VERSION,
  type TransportOptions,
} from './options.js';

export type AuthKind = 'none' | 'jwt' | 'mindKey' | 'mindKeyOrJwt' | 'computerToken';

export interface Credentials {
  mindKey?: string | undefined;
  jwt?: string | undefined;
  computerToken?: string | undefined;
}

export interface TransportRequest {
  method: string;
  /** Path with its parameters filled in, e.g. `/mind/task/123`. */
  path: string;
  query?: unknown;
  /** Sent as JSON when defined. */
  body?: unknown;
  auth: AuthKind;
  /** For `mindKeyOrJwt` routes that need the human's JWT (verifying memories): send it when present. */
  preferJwt?: boolean | undefined;
  /** The route's default; `options.idempotent` overrides it. */
  idempotent: boolean;
  /** `bytes` answers a Uint8Array (PNG screenshots). */
  responseType?: 'json' | 'bytes' | undefined;
  /** A floor for this call's timeout (long polls wait longer than the default). */
  minTimeoutMs?: number | undefined;
  options?: RequestOptions | undefined;
}

export interface TransportResponse {
  status: number;
  body: unknown;
  headers: Headers;
}

/** Statuses worth another attempt; 504 is not one: it is the service's own answer after waiting 30 s. */
const RETRY_STATUSES = new Set([408, 429, 500, 502, 503]);

export class Transport {
  readonly baseUrl: string;
  private readonly timeout: number;
  private readonly maxRetries: number;
  private readonly backoff: Required<RetryBackoff>;
  private readonly fetchImpl: typeof fetch;

  constructor(
    readonly options: TransportOptions,
    readonly credentials: Credentials,
  ) {
    if (!options.baseUrl) throw new TypeError('baseUrl is required, e.g. http://127.0.0.1:3000');
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.timeout = options.timeout ?? DEFAULT_TIMEOUT_MS;
    this.maxRetries = options.maxRetries ?? DEFAULT_MAX_RETRIES;
    this.backoff = {
      initialDelayMs: options.retryBackoff?.initialDelayMs ?? 1000,
      maxDelayMs: options.retryBackoff?.maxDelayMs ?? 8000,
      maxRetryAfterMs: options.retryBackoff?.maxRetryAfterMs ?? 60_000,
      jitter: options.retryBackoff?.jitter ?? true,
    };
    if (typeof (options.fetch ?? globalThis.fetch) !== 'function') throw new TypeError('no fetch available: pass the `fetch` option');
    // A browser's fetch must be called on the window ("Illegal invocation" otherwise), not as this object's method.
    this.fetchImpl = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  }

  /** Sends the request, retrying as allowed; resolves only with a 2xx answer. */
  async request(req: TransportRequest): Promise<TransportResponse> {
    const opts = req.options ?? {};
    const maxRetries = Math.max(0, opts.maxRetries ?? this.maxRetries);
    const idempotent = opts.idempotent ?? req.idempotent;
    for (let retry = 0; ; retry++) {
      let outcome: TransportResponse | MindServiceError;
      try {
        outcome = await this.attempt(req, retry);
      } catch (err) {
        if (err instanceof MindServiceError) outcome = err;
        else throw err;
      }
      if (!(outcome instanceof MindServiceError)) {
        if (outcome.status >= 200 && outcome.status < 300) return outcome;
        outcome = errorFromResponse(outcome.status, outcome.headers, outcome.body);
      }
      const delay = retry < maxRetries ? this.retryDelay(outcome, retry, idempotent) : undefined;
      if (delay === undefined) throw outcome;
      await sleep(delay, opts.signal);
    }
  }

  /** Milliseconds before the next attempt, or undefined when this error is final. */
  private retryDelay(error: MindServiceError, retry: number, idempotent: boolean): number | undefined {
    if (error instanceof RequestAbortedError) return undefined;
    const status = error.statusCode;
    if (status === undefined) return idempotent ? this.backoffDelay(retry) : undefined;
    if (!RETRY_STATUSES.has(status)) return undefined;
    // A 429 is refused before anything happens, so even a creating call may try again.
    if (!idempotent && status !== 429) return undefined;
    const retryAfter = parseRetryAfterSeconds(error.headers?.get('retry-after') ?? null);
    if (retryAfter !== undefined) {
      const ms = retryAfter * 1000;
      return ms <= this.backoff.maxRetryAfterMs ? ms : undefined;
    }
    return this.backoffDelay(retry);
  }

  private backoffDelay(retry: number): number {
    const base = Math.min(this.backoff.initialDelayMs * 2 ** retry, this.backoff.maxDelayMs);
    return this.backoff.jitter ? base * (1 - Math.random() * 0.25) : base;
  }

  private async attempt(req: TransportRequest, retry: number): Promise<TransportResponse> {
    const opts = req.options ?? {};
    const timeoutMs = Math.max(opts.timeout ?? this.timeout, req.minTimeoutMs ?? 0);
    const headers: Record<string, string> = {
      accept: req.responseType === 'bytes' ? 'image/png, application/json' : 'application/json',
      'user-agent': `mindservice-sdk/${SDK_VERSION}`,
      ...lowerKeys(this.options.defaultHeaders),
    };
    if (retry > 0) headers['x-retry-count'] = String(retry);
    const token = this.credentialFor(req.auth, req.preferJwt);
    if (token) headers.authorization = `Bearer ${token}`;
    let body: string | undefined;
    if (req.body !== undefined && req.method !== 'GET') {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(req.body);
    }
    Object.assign(headers, lowerKeys(opts.headers));

    if (opts.signal?.aborted) throw aborted(opts.signal);
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = opts.signal ? AbortSignal.any([opts.signal, timeout]) : timeout;
    const url = this.baseUrl + req.path + queryString(req.query);
    try {
      const res = await this.fetchImpl(url, { method: req.method, headers, body, signal });
      return { status: res.status, headers: res.headers, body: await readBody(res, req.responseType) };
    } catch (err) {
      if (opts.signal?.aborted) throw aborted(opts.signal);
      if (timeout.aborted) {
        throw new TimeoutError({ message: `${req.method} ${req.path}: no answer within ${timeoutMs} ms`, cause: err });
      }
      const reason = err instanceof Error ? ((err.cause as Error | undefined)?.message ?? err.message) : String(err);
      throw new ConnectionError({ message: `${req.method} ${req.path}: cannot reach ${this.baseUrl} (${reason})`, cause: err });
    }
  }

  private credentialFor(auth: AuthKind, preferJwt = false): string | undefined {
    const { mindKey, jwt, computerToken } = this.credentials;
    switch (auth) {
      case 'jwt':
        return jwt;
      case 'mindKey':
        return mindKey;
      case 'mindKeyOrJwt':
        return preferJwt ? (jwt ?? mindKey) : (mindKey ?? jwt);
      case 'computerToken':
        return computerToken;
      default:
        return undefined;
    }
  }
}

async function readBody(res: Response, responseType: TransportRequest['responseType']): Promise<unknown> {
  const type = res.headers.get('content-type') ?? '';
  const ok = res.status >= 200 && res.status < 300;
  if (ok && responseType === 'bytes' && !type.includes('json')) return new Uint8Array(await res.arrayBuffer());
  if (res.status === 204) return undefined;
  const text = await res.text();
  if (type.includes('json') && text.length > 0) {
    try {
      return JSON.parse(text);
    } catch {
      return text;
    }
  }
  return text.length > 0 ? text : undefined;
}

/** `a=1&tags=x&tags=y`: arrays repeat their key, the form the service reads. */
export function queryString(query: unknown): string {
  if (!query || typeof query !== 'object') return '';
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query as Record<string, unknown>)) {
    for (const v of Array.isArray(value) ? value : [value]) {
      if (v === undefined || v === null) continue;
      params.append(key, v instanceof Date ? v.toISOString() : String(v));
    }
  }
  const s = params.toString();
  return s ? `?${s}` : '';
}

function lowerKeys(headers: Record<string, string> | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers ?? {})) out[k.toLowerCase()] = v;
  return out;
}

function aborted(signal: AbortSignal): RequestAbortedError {
  return new RequestAbortedError({ message: 'the request was aborted', cause: signal.reason });
}

/** Waits `ms`, or rejects with RequestAbortedError as soon as the signal aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(aborted(signal));
    const onAbort = () => {
      clearTimeout(timer);
      reject(aborted(signal!));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
