import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, beforeEach, describe, test } from 'node:test';
import { loadConfig } from '../src/lib/config.js';
import { createEmbedder } from '../src/embeddings/create-embedder.js';
import { createOpenAIEmbedder, embeddingsEndpoint, type OpenAIEmbedderOptions } from '../src/embeddings/openai-embedder.js';

interface Call {
  path: string;
  authorization?: string;
  body: { model: string; input: string[] };
}
type Handler = (call: Call, res: ServerResponse, n: number) => unknown;

/** A fixed vector per text: [length, 1, 0, ...] in `dim` dimensions (so order can be checked). */
const vectorOf = (text: string, dim = 4) => [text.length, 1, ...Array(dim - 2).fill(0)];
const answer = (res: ServerResponse, input: string[], dim = 4) => {
  // Reversed on purpose: the client must sort by index.
  const data = input.map((text, index) => ({ object: 'embedding', index, embedding: vectorOf(text, dim) })).reverse();
  res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ object: 'list', data, model: 'test-model' }));
};

describe('OpenAI-compatible embedder', () => {
  let server: Server;
  let url: string;
  let calls: Call[] = [];
  let handler: Handler = (call, res) => answer(res, call.body.input);

  before(async () => {
    server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
      let raw = '';
      for await (const chunk of req) raw += chunk;
      const call: Call = { path: req.url ?? '', authorization: req.headers.authorization, body: JSON.parse(raw) };
      calls.push(call);
      await handler(call, res, calls.length);
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => new Promise<void>((done) => server.close(() => done())));
  beforeEach(() => {
    calls = [];
    handler = (call, res) => answer(res, call.body.input);
  });

  const embedder = (overrides: Partial<OpenAIEmbedderOptions> = {}) =>
    createOpenAIEmbedder({ url, model: 'test-model', timeoutMs: 1000, batchSize: 2, maxRetries: 2, retryBaseMs: 10, ...overrides });
  const unit = (v: number[]) => {
    const n = Math.hypot(...v);
    return v.map((x) => Math.fround(x / n));
  };

  test('the endpoint is {url}/v1/embeddings with or without /v1', () => {
    assert.equal(embeddingsEndpoint('http://h:1'), 'http://h:1/v1/embeddings');
    assert.equal(embeddingsEndpoint('http://h:1/v1/'), 'http://h:1/v1/embeddings');
    assert.equal(embeddingsEndpoint('https://h/proxy/openai'), 'https://h/proxy/openai/v1/embeddings');
  });

  test('texts go in batches of batchSize, answers sorted by index, unit length; the dimension is the first answer', async () => {
    const e = embedder({ url: `${url}/v1`, apiKey: 'sk-test' });
    assert.equal(e.dimension(), undefined);
    assert.equal(e.health().ok, true);
    const texts = ['a', 'bb', 'ccc', 'dddd', 'eeeee'];
    const vectors = await e.embed(texts);
    assert.deepEqual(
      calls.map((c) => c.body.input),
      [['a', 'bb'], ['ccc', 'dddd'], ['eeeee']],
    );
    assert.ok(calls.every((c) => c.path === '/v1/embeddings' && c.body.model === 'test-model' && c.authorization === 'Bearer sk-test'));
    assert.deepEqual(
      vectors.map((v) => Array.from(v)),
      texts.map((t) => unit(vectorOf(t))),
    );
    assert.equal(e.dimension(), 4);
    const health = e.health();
    assert.equal(health.ok, true);
    assert.ok(health.lastSuccessAt);

    handler = (call, res) => answer(res, call.body.input, 8);
    await assert.rejects(e.embed(['x']), /answered 8 dimensions, earlier 4/);
    assert.equal(e.dimension(), 4);
  });

  test('a server that is down: a clear error naming the URL, after the retries; health not ok', async () => {
    const closed = createServer();
    await new Promise<void>((done) => closed.listen(0, '127.0.0.1', done));
    const deadUrl = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
    await new Promise<void>((done) => closed.close(() => done()));
    const warnings: object[] = [];
    const e = embedder({ url: deadUrl, logger: { info() {}, warn: (obj) => warnings.push(obj) } });
    await assert.rejects(e.embed(['x']), (err: Error) => {
      assert.match(err.message, new RegExp(`^${deadUrl}/v1/embeddings: cannot connect \\(ECONNREFUSED\\) \\(after 3 tries\\)`));
      return true;
    });
    assert.equal(warnings.length, 2, 'one warning per retry');
    const health = e.health();
    assert.equal(health.ok, false);
    assert.match(health.lastError!, /ECONNREFUSED/);
    assert.match(health.detail, /failing/);
  });

  test('a slow answer times out and the retry succeeds', async () => {
    handler = async (call, res, n) => {
      if (n === 1) await new Promise((done) => setTimeout(done, 400));
      if (!res.destroyed) answer(res, call.body.input);
    };
    const e = embedder({ timeoutMs: 150 });
    const [vector] = await e.embed(['slow']);
    assert.deepEqual(Array.from(vector!), unit(vectorOf('slow')));
    assert.equal(calls.length, 2);
    assert.equal(e.health().ok, true);
    assert.match(e.health().lastError!, /no answer within 150 ms/);
  });

  test('429 with Retry-After: waits that long, then succeeds', async () => {
    handler = (call, res, n) => {
      if (n === 1)
        res.writeHead(429, { 'retry-after': '1', 'content-type': 'application/json' }).end('{"error":{"message":"rate limited"}}');
      else answer(res, call.body.input);
    };
    const started = Date.now();
    await embedder().embed(['x']);
    assert.equal(calls.length, 2);
    assert.ok(Date.now() - started >= 950, `retried after ${Date.now() - started} ms`);
  });

  test('5xx is retried up to maxRetries; 400 and 401 are not retried', async () => {
    handler = (_call, res) => res.writeHead(503).end('overloaded');
    await assert.rejects(embedder({ maxRetries: 1 }).embed(['x']), /HTTP 503: overloaded \(after 2 tries\)/);
    assert.equal(calls.length, 2);

    for (const status of [400, 401]) {
      calls = [];
      handler = (_call, res) => res.writeHead(status, { 'content-type': 'application/json' }).end('{"error":{"message":"bad input"}}');
      const e = embedder();
      await assert.rejects(
        e.embed(['x']),
        (err: Error) => err.message === `${url}/v1/embeddings: HTTP ${status}: {"error":{"message":"bad input"}}`,
      );
      assert.equal(calls.length, 1, `${status} is not retried`);
      assert.equal(e.health().ok, false);
    }
  });

  test('an answer that is not embeddings is an error', async () => {
    handler = (_call, res) => res.writeHead(200).end('{"data":[]}');
    await assert.rejects(embedder().embed(['x']), /expected 1 embeddings, got 0/);
    handler = (_call, res) => res.writeHead(200).end('<html>');
    await assert.rejects(embedder().embed(['x']), /answer is not JSON/);
  });

  test('createEmbedder and the MIND_EMBEDDINGS settings', async () => {
    // The settings are read once, with the rest of the configuration (config.ts).
    const embeddingsOf = (env: Record<string, string>, dataDir: string) => loadConfig({ ...env, MIND_DATA_DIR: dataDir }).embeddings;
    assert.equal(embeddingsOf({}, '/data').mode, 'local');
    assert.equal(embeddingsOf({}, '/data').cacheDir, '/data/embeddings');
    assert.throws(() => embeddingsOf({ MIND_EMBEDDINGS: 'magic' }, '/data'), /MIND_EMBEDDINGS: must be local, openai or off/);
    assert.throws(() => embeddingsOf({ MIND_EMBEDDINGS: 'openai' }, '/data'), /MIND_EMBEDDINGS_URL is required/);
    assert.throws(
      () => embeddingsOf({ MIND_EMBEDDINGS: 'openai', MIND_EMBEDDINGS_URL: url }, '/data'),
      /MIND_EMBEDDINGS_MODEL is required/,
    );
    const settings = embeddingsOf(
      { MIND_EMBEDDINGS: 'openai', MIND_EMBEDDINGS_URL: url, MIND_EMBEDDINGS_MODEL: 'test-model', MIND_EMBEDDINGS_API_KEY: 'k' },
      '/data',
    );
    const e = createEmbedder(settings)!;
    assert.equal(e.provider, 'openai');
    assert.equal(e.model, 'test-model');
    assert.equal((await e.embed(['hello'])).length, 1);
    assert.equal(calls[0]!.authorization, 'Bearer k');
    await e.close();
  });
});
