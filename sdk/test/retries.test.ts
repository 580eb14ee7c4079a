// Retry behaviour against a real local HTTP server: what is retried, how long the SDK waits, what is not.
import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { ConnectionError, InternalServerError, MindClient, RateLimitedError, RequestAbortedError, UnavailableError } from '../src/index.js';
import { errorObject, HEALTH_OK, scriptedServer, type ScriptedServer } from './scripted-server.js';

const TASK = {
  id: '0b6f5a62-3f5e-4e8e-9a52-2c7d3f3f1a10',
  title: 't',
  description: null,
  priority: 'normal',
  status: 'pending',
  due_at: null,
  created_at: '2026-11-22T01:29:42.123Z',
  updated_at: '2026-11-22T01:29:42.123Z',
  completed_at: null,
};
const unavailable = { status: 503, body: errorObject(503, 'Service Unavailable', 'draining') };

let server: ScriptedServer | undefined;
afterEach(async () => {
  await server?.stop();
  server = undefined;
});

function client(options: Partial<ConstructorParameters<typeof MindClient>[0]> = {}) {
  return new MindClient({
    baseUrl: server!.baseUrl,
    mindKey: 'mk_test',
    retryBackoff: { initialDelayMs: 10, maxDelayMs: 40, jitter: false },
    ...options,
  });
}

describe('retries', () => {
  it('retries a read after 503 and answers the 200 that follows, counting attempts in a header', async () => {
    server = await scriptedServer([unavailable, { status: 200, body: HEALTH_OK }]);
    const health = await client().system.health();
    assert.equal(health.status, 'ok');
    assert.equal(server.requests.length, 2);
    assert.equal(server.requests[0].headers['x-retry-count'], undefined);
    assert.equal(server.requests[1].headers['x-retry-count'], '1');
  });

  it('retries 500 with exponential backoff (initial delay, then double)', async () => {
    const fail = { status: 500, body: errorObject(500, 'Internal Server Error', 'boom') };
    server = await scriptedServer([fail, fail, { status: 200, body: HEALTH_OK }]);
    await client({ retryBackoff: { initialDelayMs: 100, maxDelayMs: 1000, jitter: false } }).system.health();
    const [a, b, c] = server.requests.map((r) => r.at);
    assert.ok(b - a >= 95, `first wait ${b - a} ms, expected about 100`);
    assert.ok(c - b >= 195, `second wait ${c - b} ms, expected about 200`);
    assert.ok(c - b < 1000, `second wait ${c - b} ms is far too long`);
  });

  it('waits for Retry-After on 429 instead of its own backoff', async () => {
    server = await scriptedServer([
      { status: 429, body: errorObject(429, 'Too Many Requests', 'Rate limit exceeded.'), headers: { 'retry-after': '1' } },
      { status: 200, body: HEALTH_OK },
    ]);
    await client().system.health();
    assert.equal(server.requests.length, 2);
    const waited = server.requests[1].at - server.requests[0].at;
    assert.ok(waited >= 990, `waited ${waited} ms, Retry-After said 1 s`);
  });

  it('retries a creating POST after 429 (refused before anything happened)', async () => {
    server = await scriptedServer([
      { status: 429, body: errorObject(429, 'Too Many Requests', 'slow down'), headers: { 'retry-after': '0' } },
      { status: 201, body: TASK },
    ]);
    const task = await client().tasks.create({ title: 't' });
    assert.equal(task.id, TASK.id);
    assert.equal(server.requests.length, 2);
  });

  it('gives up at once when Retry-After is longer than maxRetryAfterMs, with retryAfter on the error', async () => {
    server = await scriptedServer([
      { status: 429, body: errorObject(429, 'Too Many Requests', 'Rate limit exceeded.'), headers: { 'retry-after': '120' } },
    ]);
    const err = await client()
      .system.health()
      .catch((e: unknown) => e);
    assert.ok(err instanceof RateLimitedError);
    assert.equal(err.retryAfter, 120);
    assert.equal(server.requests.length, 1);
  });

  it('does not retry a POST that creates something after 503', async () => {
    server = await scriptedServer([unavailable, { status: 201, body: TASK }]);
    await assert.rejects(client().tasks.create({ title: 't' }), UnavailableError);
    assert.equal(server.requests.length, 1);
  });

  it('retries a creating POST when the caller opts in with idempotent: true', async () => {
    server = await scriptedServer([unavailable, { status: 201, body: TASK }]);
    const task = await client().tasks.create({ title: 't' }, { idempotent: true });
    assert.equal(task.title, 't');
    assert.equal(server.requests.length, 2);
    assert.equal(server.requests[1].body, JSON.stringify({ title: 't' }));
  });

  it('stops after maxRetries and throws the last error', async () => {
    server = await scriptedServer([unavailable]);
    await assert.rejects(client({ maxRetries: 3 }).system.health(), UnavailableError);
    assert.equal(server.requests.length, 4);
  });

  it('maxRetries per call overrides the client', async () => {
    server = await scriptedServer([unavailable]);
    await assert.rejects(client({ maxRetries: 3 }).system.health({ maxRetries: 0 }), UnavailableError);
    assert.equal(server.requests.length, 1);
  });

  it('does not retry 4xx answers other than 408 and 429', async () => {
    server = await scriptedServer([
      { status: 404, body: errorObject(404, 'Not Found', 'Task not found') },
      { status: 200, body: TASK },
    ]);
    await assert.rejects(client().tasks.get(TASK.id));
    assert.equal(server.requests.length, 1);
  });

  it('retries a read after a dropped connection', async () => {
    server = await scriptedServer([
      { status: 0, drop: true },
      { status: 200, body: HEALTH_OK },
    ]);
    assert.equal((await client().system.health()).status, 'ok');
    assert.equal(server.requests.length, 2);
  });

  it('does not retry a creating POST after a dropped connection: it may have been done', async () => {
    server = await scriptedServer([
      { status: 0, drop: true },
      { status: 201, body: TASK },
    ]);
    await assert.rejects(client().tasks.create({ title: 't' }), ConnectionError);
    assert.equal(server.requests.length, 1);
  });

  it('an abort during the wait between attempts ends the call with RequestAbortedError', async () => {
    server = await scriptedServer([{ status: 500, body: errorObject(500, 'Internal Server Error', 'boom') }]);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const started = Date.now();
    const slow = client({ retryBackoff: { initialDelayMs: 5000 } });
    await assert.rejects(slow.system.health({ signal: controller.signal }), RequestAbortedError);
    assert.ok(Date.now() - started < 2000);
    assert.equal(server.requests.length, 1);
  });

  it('the default backoff follows 1, 2, 4, 8 s (checked with the first step only, jitter off)', async () => {
    server = await scriptedServer([
      { status: 500, body: errorObject(500, 'Internal Server Error', 'boom') },
      { status: 200, body: HEALTH_OK },
    ]);
    const c = new MindClient({ baseUrl: server.baseUrl, retryBackoff: { jitter: false } });
    await c.system.health();
    const waited = server.requests[1].at - server.requests[0].at;
    assert.ok(waited >= 990 && waited < 1500, `waited ${waited} ms, expected 1 s`);
  });

  it('the last 500 surfaces as InternalServerError with the request id', async () => {
    server = await scriptedServer([{ status: 500, body: errorObject(500, 'Internal Server Error', 'boom') }]);
    const err = await client({ maxRetries: 1 })
      .system.health()
      .catch((e: unknown) => e);
    assert.ok(err instanceof InternalServerError);
    assert.equal(err.requestId, 'req-2');
  });
});
