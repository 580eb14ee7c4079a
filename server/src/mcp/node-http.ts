import type { IncomingMessage, ServerResponse } from 'node:http';
import { toWebRequest } from '@modelcontextprotocol/node';
import type { AuthInfo } from '@modelcontextprotocol/server';

/** The web-standard face of the SDK's handler (`createMcpHandler(...).fetch`). */
type FetchHandler = (request: Request, options?: { authInfo?: AuthInfo; parsedBody?: unknown }) => Promise<Response>;

export interface NodeMcpOptions {
  maxRequestBodySize: number;
  onerror: (err: Error) => void;
}

/**
 * The SDK's handler for node:http, as `toNodeHandler` of `@modelcontextprotocol/node` serves it, except:
 * - `Cache-Control` stays the service's `no-store` on every answer: `toNodeHandler` wrote the SDK's
 *   `no-cache` over it on event streams, which would let a cache keep answers that carry a mind's data;
 * - a body the endpoint has parsed goes to the SDK as `parsedBody` only (it reads it from there, never
 *   from the request), not serialised again into the web Request;
 * - a complete answer (JSON) is read whole and written with its length, not streamed in chunks.
 */
export function nodeMcpHandler(fetchHandler: FetchHandler, options: NodeMcpOptions) {
  return async (req: IncomingMessage & { auth?: AuthInfo }, res: ServerResponse, parsedBody: unknown) => {
    let finished = false;
    const abort = new AbortController();
    res.once('close', () => {
      if (!finished) abort.abort();
    });
    if (res.destroyed) abort.abort();
    let response: Response;
    try {
      const request =
        parsedBody === undefined
          ? await toWebRequest(req, undefined, { signal: abort.signal, maxRequestBodySize: options.maxRequestBodySize })
          : bodilessRequest(req, abort.signal);
      response = await fetchHandler(request, {
        ...(req.auth !== undefined && { authInfo: req.auth }),
        ...(parsedBody !== undefined && { parsedBody }),
      });
    } catch (err) {
      response = failureResponse(err, parsedBody, options.onerror);
    }
    await writeResponse(response, res, abort.signal);
    finished = true;
  };
}

/** The request's method, URL and headers, as `toWebRequest` builds them, without the body (handed over parsed). */
export function bodilessRequest(req: IncomingMessage, signal: AbortSignal): Request {
  const host = first(req.headers.host) ?? first(req.headers[':authority']) ?? 'localhost';
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    // The framing of a body this request does not carry.
    if (value === undefined || name.startsWith(':') || BODY_FRAMING.has(name)) continue;
    if (Array.isArray(value)) for (const item of value) headers.append(name, item);
    else headers.set(name, value);
  }
  return new Request(`http://${host}${req.url ?? '/'}`, { method: (req.method ?? 'GET').toUpperCase(), headers, signal });
}

const BODY_FRAMING = new Set(['content-length', 'content-encoding', 'transfer-encoding']);
const first = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

/** What `toNodeHandler` answers when the request cannot be converted or the handler throws. */
function failureResponse(err: unknown, parsedBody: unknown, onerror: (err: Error) => void): Response {
  if (err instanceof Error && err.name === 'RequestBodyTooLargeError') {
    return Response.json(
      { jsonrpc: '2.0', error: { code: -32000, message: err.message }, id: null },
      { status: 413, headers: { connection: 'close' } },
    );
  }
  try {
    onerror(err instanceof Error ? err : new Error(String(err)));
  } catch {}
  const { method, id } = (parsedBody ?? {}) as { method?: unknown; id?: unknown };
  const echoed = typeof method === 'string' && (typeof id === 'string' || typeof id === 'number') ? id : null;
  return Response.json({ jsonrpc: '2.0', error: { code: -32603, message: 'Internal server error' }, id: echoed }, { status: 500 });
}

async function writeResponse(response: Response, res: ServerResponse, closed: AbortSignal) {
  res.statusCode = response.status;
  for (const [name, value] of response.headers) if (name !== 'cache-control') res.setHeader(name, value);
  if (response.body === null) return void res.end();
  if (!/^text\/event-stream\b/i.test(response.headers.get('content-type') ?? '')) {
    const body = Buffer.from(await response.arrayBuffer());
    res.setHeader('Content-Length', body.length);
    return void res.end(body);
  }
  // An event stream (2025 answers, subscriptions): each event as it comes, until the stream or the client ends.
  let drained: (() => void) | undefined;
  const onDrain = () => drained?.();
  res.on('drain', onDrain);
  closed.addEventListener('abort', onDrain, { once: true });
  try {
    for await (const chunk of response.body) {
      if (closed.aborted) break;
      if (!res.write(chunk)) await new Promise<void>((resume) => (drained = resume));
    }
  } catch {
    // The stream failed or was cancelled: end the answer as it stands.
  } finally {
    res.off('drain', onDrain);
    closed.removeEventListener('abort', onDrain);
  }
  res.end();
}

/**
 * The one JSON-RPC message the SDK answered a single request with, as text: the `data` of its event
 * (2025 revisions) or its JSON body; undefined when it answered none (202, a notification).
 */
export async function answerTextOf(response: Response): Promise<string | undefined> {
  if (response.body === null || response.status === 202) return undefined;
  const text = await response.text();
  if (!/^text\/event-stream\b/i.test(response.headers.get('content-type') ?? '')) return text || undefined;
  for (const event of text.split(/\r?\n\r?\n/)) {
    const lines = event.split(/\r?\n/);
    const name = lines
      .find((line) => line.startsWith('event:'))
      ?.slice(6)
      .trim();
    const data = lines.filter((line) => line.startsWith('data:')).map((line) => line.slice(5).replace(/^ /, ''));
    if (data.length > 0 && (name === undefined || name === 'message')) return data.join('\n');
  }
  return undefined;
}
