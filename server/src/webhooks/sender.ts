import http from 'node:http';
import https from 'node:https';
import type { SignedRequest } from './signing.js';
import { checkLiteralAddress, NotPublicAddressError, publicOnlyLookup, type WebhookTargets, webhookUrlProblem } from './ssrf.js';

export interface SendResult {
  /** HTTP status, or null when no answer came (network error, timeout, refused target). */
  status: number | null;
  error: string | null;
  durationMs: number;
  /** From a Retry-After header (seconds or HTTP date), when the receiver sent one. */
  retryAfterMs: number | null;
  /** The target itself was refused (not a public address, URL not allowed): retrying cannot help. */
  refused: boolean;
}

export interface SenderOptions {
  timeoutMs: number;
  allowPrivate: boolean;
  /** The URL rules that depend on the configuration (the service itself, localhost), checked before every send. */
  targets?: WebhookTargets;
}

const MAX_SOCKETS = 32;

/**
 * Sends one signed POST. Redirects are not followed (node:http never does); the timeout covers the
 * whole exchange; https targets go through the public-address check at connect time.
 */
export class WebhookSender {
  private readonly httpAgent = new http.Agent({ keepAlive: true, maxSockets: MAX_SOCKETS });
  private readonly httpsAgent: https.Agent;

  constructor(private readonly options: SenderOptions) {
    this.httpsAgent = new https.Agent({
      keepAlive: true,
      maxSockets: MAX_SOCKETS,
      ...(options.allowPrivate ? {} : { lookup: publicOnlyLookup }),
    });
  }

  send(target: string, request: SignedRequest, signal?: AbortSignal): Promise<SendResult> {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    const refused = (error: string): SendResult => ({ status: null, error, durationMs: elapsed(), retryAfterMs: null, refused: true });

    let url: URL;
    try {
      url = new URL(target);
      const problem = this.options.targets ? this.options.targets.problem(url) : webhookUrlProblem(url);
      if (problem) return Promise.resolve(refused(`url ${problem}`));
      if (url.protocol === 'https:' && !this.options.allowPrivate) checkLiteralAddress(url);
    } catch (err) {
      return Promise.resolve(refused(errorText(err)));
    }

    return new Promise<SendResult>((resolve) => {
      let settled = false;
      let status: number | null = null;
      let retryAfterMs: number | null = null;
      const finish = (error: string | null, targetRefused = false) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        resolve({ status, error: error ?? httpError(status), durationMs: elapsed(), retryAfterMs, refused: targetRefused });
      };

      const isHttps = url.protocol === 'https:';
      const req = (isHttps ? https : http).request(url, {
        method: 'POST',
        headers: request.headers,
        agent: isHttps ? this.httpsAgent : this.httpAgent,
        ...(isHttps && !this.options.allowPrivate ? { lookup: publicOnlyLookup } : {}),
      });
      const timer = setTimeout(() => {
        // An answer already read counts; only a missing one is a timeout.
        if (status === null) finish(`timed out after ${this.options.timeoutMs} ms`);
        else finish(null);
        req.destroy();
      }, this.options.timeoutMs);
      const onAbort = () => {
        finish('aborted: the service is shutting down');
        req.destroy();
      };
      signal?.addEventListener('abort', onAbort, { once: true });

      req.on('response', (res) => {
        status = res.statusCode ?? null;
        retryAfterMs = parseRetryAfter(res.headers['retry-after']);
        res.on('error', () => finish(null));
        res.on('end', () => finish(null));
        res.resume(); // the body is not used; draining it keeps the connection reusable
      });
      req.on('error', (err) => finish(errorText(err), err instanceof NotPublicAddressError));
      req.end(request.body);
    });
  }

  close() {
    this.httpAgent.destroy();
    this.httpsAgent.destroy();
  }
}

function httpError(status: number | null): string | null {
  if (status === null) return 'no response';
  if (status >= 200 && status < 300) return null;
  const name = http.STATUS_CODES[status];
  if (status >= 300 && status < 400) return `HTTP ${status}${name ? ` ${name}` : ''} (redirects are not followed)`;
  return `HTTP ${status}${name ? ` ${name}` : ''}`;
}

function errorText(err: unknown): string {
  const e = err as { code?: string; message?: string };
  const message = e?.message || String(err);
  return e?.code && !message.includes(e.code) ? `${e.code}: ${message}` : message;
}

function parseRetryAfter(value: string | undefined): number | null {
  if (!value) return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, at - Date.now());
}
