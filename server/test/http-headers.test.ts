// HTTP hygiene: security headers from helmet on every answer, no caching of API answers (they may
// carry a Mind Key or a JWT), a CSP that Swagger UI lives with, and CORS only for listed origins.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { bearer, startService, useService } from './harness.js';

describe('HTTP headers', () => {
  const svc = useService();

  test('API answers: nosniff, no framing, no referrer, a CSP that allows nothing, never cached', async () => {
    const email = `headers-${Date.now()}@example.com`;
    const answers = [
      await svc.http.post('/register').send({ email, password: 'correct horse' }).expect(201),
      await svc.http.post('/login').send({ email, password: 'correct horse' }).expect(200),
      await svc.http.get('/mind/tasks').expect(401),
      await svc.http.get('/health').expect(200),
    ];
    answers.push(await svc.http.post('/minds').set(bearer(answers[0]!.body.jwt)).send({ name: 'm' }).expect(201));
    for (const res of answers) {
      assert.equal(res.headers['x-content-type-options'], 'nosniff');
      assert.equal(res.headers['x-frame-options'], 'DENY');
      assert.equal(res.headers['referrer-policy'], 'no-referrer');
      assert.equal(res.headers['content-security-policy'], "default-src 'none';frame-ancestors 'none'");
      assert.equal(res.headers['cache-control'], 'no-store');
    }
  });

  test('the guides and Swagger UI: their own scripts only, no framing; Swagger UI does not keep the credential', async () => {
    for (const path of ['/docs', '/docs/api']) {
      const res = await svc.http.get(path).expect(200);
      assert.match(res.headers['content-security-policy'], /script-src 'self'/);
      assert.match(res.headers['content-security-policy'], /frame-ancestors 'none'/);
      assert.equal(res.headers['x-content-type-options'], 'nosniff');
    }
    const init = await svc.http.get('/docs/api/swagger-init.js').expect(200);
    assert.doesNotMatch(init.text, /persistAuthorization/);
  });

  test('CORS is off by default: a preflight is an OPTIONS like any (204 with Allow), no Access-Control headers', async () => {
    const preflight = await svc.http
      .options('/mind/tasks')
      .set('Origin', 'https://app.example.com')
      .set('Access-Control-Request-Method', 'GET')
      .set('Access-Control-Request-Headers', 'authorization');
    assert.equal(preflight.status, 204);
    assert.equal(preflight.headers.allow, 'GET, HEAD, OPTIONS');
    for (const name of Object.keys(preflight.headers)) assert.doesNotMatch(name, /^access-control-/, name);
    const res = await svc.http.get('/health').set('Origin', 'https://app.example.com').expect(200);
    assert.equal(res.headers['access-control-allow-origin'], undefined);
  });
});

describe('HTTP headers: MIND_CORS_ORIGINS', () => {
  const svc = useService({ MIND_CORS_ORIGINS: 'https://app.example.com, http://localhost:5173' });

  test('a listed origin gets its preflight answered and can read answers and their headers', async () => {
    const { mindKey } = await svc.mind();
    const preflight = await svc.http
      .options('/mind/tasks')
      .set('Origin', 'https://app.example.com')
      .set('Access-Control-Request-Method', 'GET')
      .set('Access-Control-Request-Headers', 'authorization')
      .expect(204);
    assert.equal(preflight.headers['access-control-allow-origin'], 'https://app.example.com');
    assert.equal(preflight.headers.allow, 'GET, HEAD, OPTIONS');
    assert.match(preflight.headers['access-control-allow-headers'], /Authorization/);
    const res = await svc.http.get('/mind/tasks').set('Origin', 'http://localhost:5173').set(bearer(mindKey)).expect(200);
    assert.equal(res.headers['access-control-allow-origin'], 'http://localhost:5173');
    assert.match(res.headers['access-control-expose-headers'], /X-Request-Id/);
  });

  test('an origin not listed gets no Access-Control headers, its preflight neither (204 with Allow, as without CORS)', async () => {
    const res = await svc.http.get('/health').set('Origin', 'https://evil.example.com').expect(200);
    assert.equal(res.headers['access-control-allow-origin'], undefined);
    const preflight = await svc.http
      .options('/mind/tasks')
      .set('Origin', 'https://evil.example.com')
      .set('Access-Control-Request-Method', 'GET')
      .set('Access-Control-Request-Headers', 'authorization')
      .expect(204);
    assert.equal(preflight.headers.allow, 'GET, HEAD, OPTIONS');
    for (const name of Object.keys(preflight.headers)) assert.doesNotMatch(name, /^access-control-/, name);
  });

  test('a malformed list stops the start with a message naming the setting', async () => {
    await assert.rejects(startService({ MIND_CORS_ORIGINS: 'app.example.com/path' }), /MIND_CORS_ORIGINS: must be origins like/);
  });
});
