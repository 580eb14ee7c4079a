import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { bearer, startService, useService } from './harness.js';

describe('the error path', () => {
  const svc = useService();

  test('an unknown route is 404 with the spec message, its code, and a pointer to GET /endpoints', async () => {
    const res = await svc.http.get('/no/such/route?x=1').expect(404);
    assert.deepEqual(res.body, {
      statusCode: 404,
      error: 'Not Found',
      message: 'Route GET /no/such/route not found',
      code: 'route_not_found',
      docs: `${svc.config.publicUrl}/docs/errors#route_not_found`,
      details: [{ path: 'url', message: 'is no route of this service; GET /endpoints lists every route' }],
    });
  });

  test('a known path with another method is 405 naming the methods in Allow; OPTIONS is 204 with Allow', async () => {
    const post = await svc.http.post('/health').send({}).expect(405);
    assert.equal(post.headers.allow, 'GET, HEAD, OPTIONS');
    assert.equal(post.body.code, 'method_not_allowed');
    assert.equal(post.body.message, 'POST is not allowed on /health; it takes GET');
    const del = await svc.http.delete('/mind/tasks').expect(405);
    assert.equal(del.headers.allow, 'GET, HEAD, OPTIONS');
    const task = await svc.http.post('/mind/task/00000000-0000-4000-8000-000000000000').send({}).expect(405);
    assert.equal(task.headers.allow, 'GET, HEAD, PUT, OPTIONS');
    assert.match(task.body.message, /^POST is not allowed on \/mind\/task\/0{8}-.*; it takes GET, PUT$/);
    const options = await svc.http.options('/webhooks/00000000-0000-4000-8000-000000000000').expect(204);
    assert.equal(options.headers.allow, 'GET, HEAD, PUT, DELETE, OPTIONS');
    assert.equal(options.text, '');
    // Not a route's path: OPTIONS is the 404 any method gets.
    await svc.http.options('/no/such/route').expect(404);
  });

  test('invalid JSON is 400 with the error object', async () => {
    const res = await svc.http.post('/register').set('Content-Type', 'application/json').send('{"email": ').expect(400);
    assert.equal(res.body.statusCode, 400);
    assert.equal(res.body.error, 'Bad Request');
    assert.match(res.body.message, /not valid JSON/);
  });

  test('a 2 MB body is 413 with the error object', async () => {
    const big = JSON.stringify({ email: 'big@example.com', password: 'x'.repeat(2 * 1024 * 1024) });
    const res = await svc.http.post('/register').set('Content-Type', 'application/json').send(big).expect(413);
    assert.equal(res.body.statusCode, 413);
    assert.equal(res.body.error, 'Payload Too Large');
    assert.match(res.body.message, /larger than 1 MB/);
  });

  test('validation errors are 400 naming every invalid field', async () => {
    const { jwt } = await svc.user();
    const res = await svc.http.post('/minds').set(bearer(jwt)).send({ name: '', description: 42 }).expect(400);
    const paths = res.body.details.map((d: { path: string }) => d.path).sort();
    assert.deepEqual(paths, ['body.description', 'body.name']);
    assert.match(res.body.message, /body\.name/);
    assert.match(res.body.message, /body\.description/);
  });

  test('unknown body fields are ignored, never stored', async () => {
    const { jwt } = await svc.user();
    const res = await svc.http
      .post('/minds')
      .set(bearer(jwt))
      .send({ name: 'n', id: 'chosen-id', key_hash: 'x', user_id: 'y' })
      .expect(201);
    assert.notEqual(res.body.id, 'chosen-id');
    const row = await svc.ctx.db('minds').where({ id: res.body.id }).first();
    assert.notEqual(row.key_hash, 'x');
  });

  test('every response carries X-Request-Id; a sane incoming one is kept', async () => {
    const ok = await svc.http.get('/health');
    assert.match(ok.headers['x-request-id'], /^[0-9a-f-]{36}$/);
    const err = await svc.http.get('/nope');
    assert.ok(err.headers['x-request-id']);
    const kept = await svc.http.get('/health').set('X-Request-Id', 'trace-123');
    assert.equal(kept.headers['x-request-id'], 'trace-123');
    const replaced = await svc.http.get('/health').set('X-Request-Id', 'bad id with spaces');
    assert.notEqual(replaced.headers['x-request-id'], 'bad id with spaces');
  });

  test('an unexpected error is 500 without internals', async () => {
    // A database that is gone makes every query fail: the answer must not leak what happened.
    const broken = await startService();
    const { jwt } = await broken.user();
    await broken.ctx.db.schema.renameTable('minds', 'minds_gone');
    const res = await broken.http.post('/minds').set(bearer(jwt)).send({ name: 'x' }).expect(500);
    assert.deepEqual(Object.keys(res.body).sort(), ['code', 'docs', 'error', 'message', 'statusCode']);
    assert.equal(res.body.error, 'Internal Server Error');
    assert.equal(res.body.code, 'internal_error');
    assert.doesNotMatch(res.body.message, /minds|sqlite|SQL|at /i);
    assert.ok(res.headers['x-request-id']);
    await broken.stop();
  });
});
