import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import jwt from 'jsonwebtoken';
import { bearer, TestClock, type TestService, useService } from './harness.js';

const AUTH_MESSAGE = 'Mind Key fehlt oder ungültig.';
const RATE_MESSAGE = 'Rate limit exceeded. Use Authorization header for unlimited access.';

describe('auth: credentials', () => {
  const svc = useService();
  let user: Awaited<ReturnType<TestService['mind']>>;
  before(async () => {
    user = await svc.mind();
  });

  const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');

  test('a valid JWT works on JWT routes', async () => {
    await svc.http.get('/minds').set(bearer(user.jwt)).expect(200);
  });

  test('a missing Authorization header is 401 with the spec message and the docs link', async () => {
    const res = await svc.http.get('/minds').expect(401);
    assert.equal(res.body.statusCode, 401);
    assert.equal(res.body.error, 'Unauthorized');
    assert.equal(res.body.message, AUTH_MESSAGE);
    assert.equal(res.body.docs, `${svc.config.publicUrl}/docs/getting-started/authentication`);
  });

  test('a JWT with alg none is refused', async () => {
    const [, payload] = user.jwt.split('.');
    const forged = `${b64({ alg: 'none', typ: 'JWT' })}.${payload}.`;
    const res = await svc.http.get('/minds').set(bearer(forged)).expect(401);
    assert.equal(res.body.message, AUTH_MESSAGE);
  });

  test('a JWT with a changed payload is refused', async () => {
    const other = await svc.user();
    const [header, , signature] = user.jwt.split('.');
    const payload = b64({ sub: other.userId, iat: Math.floor(Date.now() / 1000), exp: Math.floor(Date.now() / 1000) + 3600 });
    await svc.http
      .get('/minds')
      .set(bearer(`${header}.${payload}.${signature}`))
      .expect(401);
  });

  test('a JWT signed with another secret is refused', async () => {
    const token = jwt.sign({}, 'another-secret-another-secret-another', { algorithm: 'HS256', subject: user.userId, expiresIn: '1h' });
    await svc.http.get('/minds').set(bearer(token)).expect(401);
  });

  test('a JWT signed with HS512 (not HS256) is refused', async () => {
    const token = jwt.sign({}, svc.ctx.jwtSecret, { algorithm: 'HS512', subject: user.userId, expiresIn: '1h' });
    await svc.http.get('/minds').set(bearer(token)).expect(401);
  });

  test('an expired JWT is refused and the detail says to log in again', async () => {
    const token = jwt.sign({ exp: Math.floor(Date.now() / 1000) - 10 }, svc.ctx.jwtSecret, { algorithm: 'HS256', subject: user.userId });
    const res = await svc.http.get('/minds').set(bearer(token)).expect(401);
    assert.equal(res.body.message, AUTH_MESSAGE);
    assert.match(res.body.details[0].message, /expired/);
  });

  test('a JWT lives 7 days', () => {
    const decoded = jwt.decode(user.jwt) as { iat: number; exp: number; sub: string };
    assert.equal(decoded.exp - decoded.iat, 7 * 24 * 3600);
    assert.equal(decoded.sub, user.userId);
  });

  test('a malformed Authorization header is 401', async () => {
    await svc.http.get('/minds').set('Authorization', `Token ${user.jwt}`).expect(401);
    await svc.http.get('/minds').set('Authorization', 'Bearer').expect(401);
    await svc.http.get('/minds').set(bearer('garbage')).expect(401);
  });

  test('a JWT on a Mind Key route is 401 saying a Mind Key is needed', async () => {
    const res = await svc.http.get('/mind/tasks').set(bearer(user.jwt)).expect(401);
    assert.equal(res.body.message, AUTH_MESSAGE);
    assert.match(res.body.details[0].message, /Mind Key/);
  });

  test('a Computer Token shape on a JWT route is 401', async () => {
    await svc.http.get('/minds').set(bearer('ct_notarealtoken')).expect(401);
  });

  test('an unknown Mind Key is 401 on Mind Key routes, by header and by ?key=', async () => {
    await svc.http.get('/mind/tasks').set(bearer('mk_unknown')).expect(401);
    const res = await svc.http.get('/mind/tasks?key=mk_unknown').expect(401);
    assert.equal(res.body.message, AUTH_MESSAGE);
    assert.ok(res.body.docs.endsWith('/docs/getting-started/authentication'));
  });

  test('routes without credentials need none', async () => {
    await svc.http.get('/health').expect(200);
    await svc.http.get('/endpoints').expect(200);
  });

  test("a disabled mind's key is 403 saying so; enabling restores it", async () => {
    const m = await svc.mind();
    await svc.ctx.db('minds').where({ id: m.mindId }).update({ disabled_at: new Date().toISOString() });
    const res = await svc.http.get('/mind/tasks').set(bearer(m.mindKey)).expect(403);
    assert.match(res.body.message, /disabled/);
    await svc.ctx.db('minds').where({ id: m.mindId }).update({ disabled_at: null });
    const again = await svc.http.get('/mind/tasks').set(bearer(m.mindKey));
    assert.notEqual(again.status, 403);
    assert.notEqual(again.status, 401);
  });
});

describe('auth: ?key= rate limit', () => {
  let mindKey: string;
  const clock = new TestClock();
  const svc = useService({}, { clock });
  before(async () => {
    ({ mindKey } = await svc.mind());
  });

  test('60 ?key= requests a minute pass with X-RateLimit headers; the 61st is 429 with Retry-After and the exact message', async () => {
    clock.advance(120_000); // a fresh window
    for (let i = 1; i <= 60; i++) {
      const res = await svc.http.get(`/mind/tasks?key=${mindKey}`);
      assert.notEqual(res.status, 429, `request ${i} was limited`);
      assert.equal(res.headers['x-ratelimit-limit'], '60');
      assert.equal(res.headers['x-ratelimit-remaining'], String(60 - i));
      assert.match(res.headers['x-ratelimit-reset'], /^\d{10}$/);
    }
    const limited = await svc.http.get(`/mind/tasks?key=${mindKey}`).expect(429);
    assert.equal(limited.body.statusCode, 429);
    assert.equal(limited.body.error, 'Too Many Requests');
    assert.equal(limited.body.message, RATE_MESSAGE);
    assert.equal(limited.headers['x-ratelimit-limit'], '60');
    assert.equal(limited.headers['x-ratelimit-remaining'], '0');
    const retryAfter = Number(limited.headers['retry-after']);
    assert.ok(retryAfter >= 1 && retryAfter <= 60, `Retry-After ${retryAfter}`);
  });

  test('invalid keys count too, and header authentication is not limited and has no X-RateLimit headers', async () => {
    await svc.http.get('/mind/tasks?key=mk_wrong').expect(429);
    const res = await svc.http.get('/mind/tasks').set(bearer(mindKey));
    assert.notEqual(res.status, 429);
    assert.equal(res.headers['x-ratelimit-limit'], undefined);
    assert.equal(res.headers['x-ratelimit-remaining'], undefined);
  });

  test('a forged X-Forwarded-For does not reset the limit when TRUST_PROXY is unset', async () => {
    const res = await svc.http.get(`/mind/tasks?key=${mindKey}`).set('X-Forwarded-For', '203.0.113.77').expect(429);
    assert.equal(res.body.message, RATE_MESSAGE);
  });

  test('the window resets after a minute', async () => {
    clock.advance(61_000);
    const res = await svc.http.get(`/mind/tasks?key=${mindKey}`);
    assert.notEqual(res.status, 429);
    assert.equal(res.headers['x-ratelimit-remaining'], '59');
  });

  test('?key= is redacted from the request log', async () => {
    const { redactUrl } = await import('../src/http/request-log.js');
    assert.equal(redactUrl(`/mind/tasks?status=all&key=${mindKey}&x=1`), '/mind/tasks?status=all&key=[redacted]&x=1');
    assert.equal(redactUrl(`/mind/task?key=${mindKey}`).includes(mindKey), false);
  });
});

describe('auth: TRUST_PROXY', () => {
  const svc = useService({ TRUST_PROXY: '1' });

  test("with TRUST_PROXY=1 the client address comes from the proxy's X-Forwarded-For", async () => {
    for (let i = 0; i < 61; i++) await svc.http.get('/mind/tasks?key=mk_x').set('X-Forwarded-For', '198.51.100.1');
    await svc.http.get('/mind/tasks?key=mk_x').set('X-Forwarded-For', '198.51.100.1').expect(429);
    await svc.http.get('/mind/tasks?key=mk_x').set('X-Forwarded-For', '198.51.100.2').expect(401);
  });
});
