// An OpenAI-compatible embeddings endpoint on 127.0.0.1, answering with the local embedder's vectors
// computed in this process: the service's openai path (its HTTP client, its fusion) measured on the
// same vectors as the local path, with no model server to run.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { createLocalEmbedderInProcess } from '../../server/src/embeddings/local-embedder.js';

export interface FakeEmbeddingsOptions {
  /** Where the local embedder keeps its word table cache (built there on first use). */
  cacheDir: string;
  /** The model name it answers with (whatever the client asked for is echoed back). */
  model?: string;
}

export interface FakeEmbeddings {
  /** Base URL, with /v1, as MIND_EMBEDDINGS_URL takes it. */
  url: string;
  model: string;
  /** What it has done so far. */
  stats(): { requests: number; texts: number; encodeSeconds: number };
  close(): Promise<void>;
}

const FAKE_MODEL = 'local-glove-via-fake-openai';

/** Listens on a free port of 127.0.0.1 for POST /v1/embeddings (and /embeddings). */
export async function startFakeOpenAIEmbeddings(options: FakeEmbeddingsOptions): Promise<FakeEmbeddings> {
  const embedder = createLocalEmbedderInProcess({ cacheDir: options.cacheDir });
  const model = options.model ?? FAKE_MODEL;
  // Load the word table now, so the first request does not carry its load (or first build) time.
  await embedder.embed(['warm up']);
  let requests = 0;
  let texts = 0;
  let encodeSeconds = 0;

  async function answer(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = (req.url ?? '').split('?')[0];
    if (req.method !== 'POST' || (path !== '/v1/embeddings' && path !== '/embeddings')) {
      return reply(res, 404, { error: { message: `no route ${req.method} ${path}`, type: 'invalid_request_error' } });
    }
    let raw = '';
    for await (const chunk of req) raw += chunk;
    let body: { model?: unknown; input?: unknown };
    try {
      body = JSON.parse(raw);
    } catch {
      return reply(res, 400, { error: { message: 'body is not JSON', type: 'invalid_request_error' } });
    }
    const input = typeof body.input === 'string' ? [body.input] : body.input;
    if (!Array.isArray(input) || input.length === 0 || !input.every((t) => typeof t === 'string')) {
      return reply(res, 400, {
        error: { message: "'input' must be a string or a non-empty list of strings", type: 'invalid_request_error' },
      });
    }
    const started = performance.now();
    const vectors = await embedder.embed(input);
    encodeSeconds += (performance.now() - started) / 1000;
    requests++;
    texts += input.length;
    // Word counts stand in for tokens: only the shape of `usage` matters to a client.
    const tokens = input.reduce((n, text) => n + text.split(/\s+/).filter(Boolean).length, 0);
    reply(res, 200, {
      object: 'list',
      data: vectors.map((vector, index) => ({ object: 'embedding', index, embedding: Array.from(vector) })),
      model: typeof body.model === 'string' ? body.model : model,
      usage: { prompt_tokens: tokens, total_tokens: tokens },
    });
  }

  const server: Server = createServer((req, res) => {
    answer(req, res).catch((err: Error) => {
      if (!res.headersSent) reply(res, 500, { error: { message: err.message, type: 'server_error' } });
      else res.destroy(err);
    });
  });
  await new Promise<void>((done, fail) => {
    server.once('error', fail);
    server.listen(0, '127.0.0.1', done);
  });
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    model,
    stats: () => ({ requests, texts, encodeSeconds }),
    async close() {
      server.closeAllConnections();
      await new Promise<void>((done) => server.close(() => done()));
      await embedder.close();
    },
  };
}

function reply(res: ServerResponse, status: number, body: object): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}
