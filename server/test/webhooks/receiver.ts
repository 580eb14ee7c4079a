// A real HTTP receiver on 127.0.0.1 (port 0) that records every delivery with its raw body bytes.
import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  raw: Buffer;
  json: { id: string; event: string; timestamp: string; mind_id: string; data: Record<string, unknown> };
  at: number;
}

/** Decides the answer to one request; the default answers 200. */
export type Responder = (req: Received, res: ServerResponse) => void;

export interface Receiver {
  /** Base URL, e.g. http://127.0.0.1:40123 */
  url: string;
  received: Received[];
  /** TCP connections accepted so far (a refused target must not even connect). */
  connections(): number;
  /** Requests for one path. */
  at(path: string): Received[];
  respond(responder: Responder): void;
  /** Answers the next requests with these statuses, then 200. */
  statuses(...codes: number[]): void;
  /** Resolves once `count` requests arrived on `path` (all paths when omitted). */
  waitFor(count: number, path?: string, timeoutMs?: number): Promise<Received[]>;
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const received: Received[] = [];
  let responder: Responder = (_req, res) => res.writeHead(200).end('ok');
  const waiters = new Set<() => void>();

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      const item: Received = { path: req.url ?? '/', headers: req.headers, raw, json: JSON.parse(raw.toString('utf8')), at: Date.now() };
      received.push(item);
      responder(item, res);
      for (const w of waiters) w();
    });
  });
  let connections = 0;
  server.on('connection', () => connections++);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;

  const at = (path: string) => received.filter((r) => r.path === path);
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    connections: () => connections,
    at,
    respond: (r) => {
      responder = r;
    },
    statuses(...codes) {
      const queue = [...codes];
      responder = (_req, res) => res.writeHead(queue.shift() ?? 200).end();
    },
    waitFor(count, path, timeoutMs = 5000) {
      const current = () => (path === undefined ? received : at(path));
      return new Promise((resolve, reject) => {
        const check = () => {
          if (current().length < count) return;
          waiters.delete(check);
          clearTimeout(timer);
          resolve(current());
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`expected ${count} deliveries on ${path ?? 'any path'} within ${timeoutMs} ms, got ${current().length}`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    async close() {
      server.closeAllConnections();
      server.close();
      await once(server, 'close').catch(() => undefined);
    },
  };
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls until `fn` returns a truthy value. */
export async function eventually<T>(fn: () => Promise<T> | T, timeoutMs = 5000, what = 'condition'): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await fn();
    if (value) return value as NonNullable<T>;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}
