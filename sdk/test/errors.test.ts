// Each error class: the service's own answers where it gives them on demand, a scripted server for the rest.
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { after, before, describe, it } from 'node:test';
import {
  BadRequestError,
  ConflictError,
  ConnectionError,
  ForbiddenError,
  GatewayTimeoutError,
  InternalServerError,
  MindClient,
  MindServiceError,
  NotFoundError,
  NotImplementedError,
  PayloadTooLargeError,
  RateLimitedError,
  RequestAbortedError,
  TimeoutError,
  UnauthorizedError,
  UnavailableError,
} from '../src/index.js';
import { startLiveServer, type LiveServer } from './live-server.js';
import { errorObject, scriptedServer } from './scripted-server.js';

describe('errors from the live service', () => {
  let live: LiveServer;
  before(async () => {
    live = await startLiveServer();
  });
  after(() => live.stop());

  it('400 BadRequestError names the field, with details and the request id', async () => {
    const { client } = await live.account();
    const err = await client.tasks.create({ title: '' }).catch((e: unknown) => e);
    assert.ok(err instanceof BadRequestError);
    assert.ok(err instanceof MindServiceError);
    assert.equal(err.statusCode, 400);
    assert.equal(err.error, 'Bad Request');
    assert.match(err.message, /body\.title/);
    assert.ok(err.details?.some((d) => d.path === 'body.title'));
    assert.match(err.requestId ?? '', /.+/);
    assert.equal(err.code, 'validation_failed');
    assert.match(err.docs ?? '', /\/docs\/errors#validation_failed$/);
  });

  it('401 UnauthorizedError for a wrong Mind Key, with the docs link', async () => {
    const client = new MindClient({ baseUrl: live.baseUrl, mindKey: 'mk_not-a-real-key' });
    const err = await client.tasks.list().catch((e: unknown) => e);
    assert.ok(err instanceof UnauthorizedError);
    assert.equal(err.statusCode, 401);
    assert.equal(err.code, 'mind_key_invalid');
    assert.match(err.docs ?? '', /\/docs\/getting-started\/authentication$/);
  });

  it("403 ForbiddenError for deleting another user's mind", async () => {
    const owner = await live.account();
    const other = await live.account();
    const err = await other.client.minds.delete(owner.mindId).catch((e: unknown) => e);
    assert.ok(err instanceof ForbiddenError, String(err));
    assert.equal(err.statusCode, 403);
    assert.equal(err.code, 'mind_not_owned');
  });

  it('404 NotFoundError for an unknown task', async () => {
    const { client } = await live.account();
    const err = await client.tasks.get('0b6f5a62-3f5e-4e8e-9a52-2c7d3f3f1a10').catch((e: unknown) => e);
    assert.ok(err instanceof NotFoundError);
    assert.equal(err.statusCode, 404);
    // Typed: a NotFoundError's code is one of the 404 codes.
    const code: 'task_not_found' | 'route_not_found' | 'mind_not_found' | undefined = err.code === 'task_not_found' ? err.code : undefined;
    assert.equal(code, 'task_not_found');
  });

  it('409 ConflictError for an email already registered', async () => {
    const { email } = await live.account();
    const err = await live.client.accounts.register({ email, password: 'another one' }).catch((e: unknown) => e);
    assert.ok(err instanceof ConflictError);
    assert.equal(err.statusCode, 409);
    assert.equal(err.code, 'email_taken');
  });

  it('an empty id is refused before any request (it would address another route)', async () => {
    const { client } = await live.account();
    await assert.rejects(client.tasks.get(''), TypeError);
  });
});

describe('errors the service gives only in special situations', () => {
  const cases = [
    [413, 'Payload Too Large', PayloadTooLargeError, 'body_too_large'],
    [429, 'Too Many Requests', RateLimitedError, 'rate_limited'],
    [500, 'Internal Server Error', InternalServerError, 'internal_error'],
    [501, 'Not Implemented', NotImplementedError, undefined],
    [503, 'Service Unavailable', UnavailableError, 'shutting_down'],
    [504, 'Gateway Timeout', GatewayTimeoutError, 'screenshot_timeout'],
  ] as const;
  for (const [status, name, Class, code] of cases) {
    it(`${status} is ${Class.name} with the error object's fields`, async () => {
      const body = { ...errorObject(status, name, `msg ${status}`), code, docs: 'https://x/docs' };
      const server = await scriptedServer([{ status, body, headers: { 'retry-after': '7' } }]);
      try {
        const client = new MindClient({ baseUrl: server.baseUrl, maxRetries: 0 });
        const err = await client.system.health().catch((e: unknown) => e);
        assert.ok(err instanceof Class, `${String(err)} is not ${Class.name}`);
        assert.ok(err instanceof MindServiceError);
        assert.equal(err.name, Class.name);
        assert.equal(err.statusCode, status);
        assert.equal(err.error, name);
        assert.equal(err.message, `msg ${status}`);
        assert.equal(err.docs, 'https://x/docs');
        assert.equal(err.requestId, 'req-1');
        if (err instanceof RateLimitedError) assert.equal(err.retryAfter, 7);
        assert.equal(err.code, code);
      } finally {
        await server.stop();
      }
    });
  }

  it('another status is a plain MindServiceError; a body that is not JSON becomes the message', async () => {
    const server = await scriptedServer([{ status: 418, body: 'I am a teapot' }]);
    try {
      const err = await new MindClient({ baseUrl: server.baseUrl }).system.health().catch((e: unknown) => e);
      assert.ok(err instanceof MindServiceError);
      assert.equal(err.constructor, MindServiceError);
      assert.equal(err.statusCode, 418);
      assert.equal(err.message, 'I am a teapot');
      assert.equal(err.code, undefined);
    } finally {
      await server.stop();
    }
  });

  it('ConnectionError when nothing listens, after the retries', async () => {
    // A port that was free a moment ago: reserve one, then close it.
    const probe = createServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
    const port = (probe.address() as { port: number }).port;
    await new Promise<void>((r) => probe.close(() => r()));
    const client = new MindClient({ baseUrl: `http://127.0.0.1:${port}`, maxRetries: 1, retryBackoff: { initialDelayMs: 1 } });
    const err = await client.system.health().catch((e: unknown) => e);
    assert.ok(err instanceof ConnectionError);
    assert.equal(err.statusCode, undefined);
    assert.match(err.message, /cannot reach/);
  });

  it('TimeoutError when no answer comes within timeout (a subclass of ConnectionError)', async () => {
    const server = await scriptedServer([{ status: 0, hang: true }]);
    try {
      const client = new MindClient({ baseUrl: server.baseUrl, timeout: 200, maxRetries: 0 });
      const started = Date.now();
      const err = await client.system.health().catch((e: unknown) => e);
      assert.ok(err instanceof TimeoutError);
      assert.ok(err instanceof ConnectionError);
      assert.ok(Date.now() - started < 2000);
    } finally {
      await server.stop();
    }
  });

  it('RequestAbortedError when the caller aborts, never retried', async () => {
    const server = await scriptedServer([{ status: 0, hang: true }]);
    try {
      const client = new MindClient({ baseUrl: server.baseUrl, maxRetries: 3 });
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 100);
      await assert.rejects(client.system.health({ signal: controller.signal }), RequestAbortedError);
      assert.equal(server.requests.length, 1);
    } finally {
      await server.stop();
    }
  });
});
