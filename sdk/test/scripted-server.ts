// A small real HTTP server that answers from a script, for the behaviour our own service does not produce
// on demand (503 then 200, 429 with Retry-After, a dropped connection, no answer at all).
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Reply {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
  /** Destroy the socket instead of answering. */
  drop?: boolean;
  /** Never answer. */
  hang?: boolean;
}

export interface SeenRequest {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
  at: number;
}

export interface ScriptedServer {
  baseUrl: string;
  requests: SeenRequest[];
  stop(): Promise<void>;
}

/** Answers the n-th request with replies[n] (the last reply repeats). */
export async function scriptedServer(replies: Reply[]): Promise<ScriptedServer> {
  const requests: SeenRequest[] = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      requests.push({ method: req.method!, url: req.url!, headers: req.headers, body: Buffer.concat(chunks).toString(), at: Date.now() });
      const reply = replies[Math.min(requests.length - 1, replies.length - 1)];
      if (reply.drop) return void req.socket.destroy();
      if (reply.hang) return;
      const isJson = typeof reply.body !== 'string';
      res.writeHead(reply.status, {
        'content-type': isJson ? 'application/json' : 'text/plain',
        'x-request-id': `req-${requests.length}`,
        ...reply.headers,
      });
      res.end(reply.body === undefined ? undefined : isJson ? JSON.stringify(reply.body) : (reply.body as string));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    async stop() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The service's error object for a status. */
export const errorObject = (statusCode: number, error: string, message: string) => ({ statusCode, error, message });
export const HEALTH_OK = { status: 'ok', version: '0.1.0', uptime_s: 1, database: 'ok' };
