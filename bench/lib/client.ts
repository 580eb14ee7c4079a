// A small JSON client over keep-alive HTTP (node:http, so thousands of concurrent long-polls work).
import http from 'node:http';

export interface Reply {
  status: number;
  // biome-ignore lint/suspicious/noExplicitAny: benchmarks read whatever JSON the service answers
  body: any;
}

export class Client {
  readonly agent = new http.Agent({ keepAlive: true, maxSockets: Infinity, maxFreeSockets: 100_000 });
  private readonly host: string;
  private readonly port: number;

  constructor(baseUrl: string) {
    const url = new URL(baseUrl);
    this.host = url.hostname;
    this.port = Number(url.port);
  }

  request(method: string, path: string, token?: string, body?: unknown, retried = false): Promise<Reply> {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    return new Promise((resolve, reject) => {
      const req = http.request(
        {
          host: this.host,
          port: this.port,
          method,
          path,
          agent: this.agent,
          headers: {
            ...(token ? { Authorization: `Bearer ${token}` } : {}),
            ...(payload ? { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(payload) } : {}),
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            const text = Buffer.concat(chunks).toString();
            resolve({ status: res.statusCode ?? 0, body: text ? JSON.parse(text) : undefined });
          });
        },
      );
      req.on('error', (err: NodeJS.ErrnoException) => {
        // The server closed an idle keep-alive socket just as it was reused: the request never
        // reached it, so sending it again is safe (the pattern Node's documentation gives).
        if (req.reusedSocket && err.code === 'ECONNRESET' && !retried) resolve(this.request(method, path, token, body, true));
        else reject(new Error(`${method} ${path}: ${err.message}`, { cause: err }));
      });
      req.end(payload);
    });
  }

  /** The request, which must answer `expected`; its body. */
  // biome-ignore lint/suspicious/noExplicitAny: benchmarks read whatever JSON the service answers
  async ok(method: string, path: string, token: string | undefined, body: unknown, expected = 201): Promise<any> {
    const res = await this.request(method, path, token, body);
    if (res.status !== expected) throw new Error(`${method} ${path} answered ${res.status}: ${JSON.stringify(res.body)}`);
    return res.body;
  }

  /** A new account with one mind: its id and Mind Key. */
  async newMind(name: string): Promise<{ id: string; mindKey: string; jwt: string }> {
    const email = `${name}-${Date.now()}-${Math.random().toString(36).slice(2)}@example.com`;
    const { jwt } = await this.ok('POST', '/register', undefined, { email, password: 'correct horse battery' });
    const mind = await this.ok('POST', '/minds', jwt, { name });
    return { id: mind.id, mindKey: mind.mind_key, jwt };
  }

  close() {
    this.agent.destroy();
  }
}

/** Runs fn(0..count-1) with at most `concurrency` at a time. */
export async function inBatches<T>(count: number, concurrency: number, fn: (i: number) => Promise<T>): Promise<T[]> {
  const out: T[] = new Array(count);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, count) }, async () => {
      while (next < count) {
        const i = next++;
        out[i] = await fn(i);
      }
    }),
  );
  return out;
}
