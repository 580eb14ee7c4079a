import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RawRequest } from './request.js';
import type { Logger } from 'pino';
import { unescape as unescapeQuery } from 'node:querystring';

const REQUEST_ID = /^[\w.:-]{1,128}$/;

/** Mind Keys in URLs never reach a log line: a parameter whose decoded name is `key` (`?ke%79=` too) loses its value. */
export function redactUrl(url: string): string {
  const queryAt = url.indexOf('?');
  if (queryAt < 0) return url;
  const fragmentAt = url.indexOf('#', queryAt);
  const query = fragmentAt < 0 ? url.slice(queryAt + 1) : url.slice(queryAt + 1, fragmentAt);
  const redacted = query
    .split('&')
    .map((part) => {
      const eq = part.indexOf('=');
      const name = eq < 0 ? part : part.slice(0, eq);
      return unescapeQuery(name.replace(/\+/g, ' ')) === 'key' ? `${name}=[redacted]` : part;
    })
    .join('&');
  return `${url.slice(0, queryAt + 1)}${redacted}`;
}

/**
 * Gives every request an id (kept from X-Request-Id when sane), echoes it, and logs one line per
 * response. `ipOf` applies the trust-proxy setting. A 503 to a request that arrived while the
 * service drains is the shutdown working as meant (the client is told to retry), so it is logged at
 * info as refused; other 5xx answers are failures, at error.
 */
export function requestLog(log: Logger, ipOf: (req: IncomingMessage) => string, draining: () => boolean = () => false) {
  return (req: RawRequest, res: ServerResponse) => {
    const incoming = req.headers['x-request-id'];
    const requestId = typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
    req.requestId = requestId;
    res.setHeader('X-Request-Id', requestId);
    const started = performance.now();
    const arrivedDraining = draining();
    res.once('finish', () => {
      const ms = Math.round((performance.now() - started) * 10) / 10;
      const line = {
        req_id: requestId,
        method: req.method,
        url: redactUrl(req.url ?? ''),
        status: res.statusCode,
        ms,
        ip: ipOf(req),
        ...req.logFields,
      };
      if (res.statusCode === 503 && arrivedDraining) log.info(line, 'request refused: the service is shutting down');
      else if (res.statusCode >= 500) log.error(line, 'request failed');
      else log.info(line, 'request');
    });
  };
}
