import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { bearer, startService, useService } from './harness.js';

describe('the error path', () => {
  const svc = useService();

  test('an unknown route is 404 with the spec message', async () => {
    const res = await svc.http.get('/no/such/route?x=1').expect(404);
    assert.deepEqual(res.body, { statusCode: 404, error: 'Not Found', message: 'Route GET /no/such/route not found' });
    const post = await svc.http.post('/health').send({}).expect(404);
    assert.equal(post.body.message, 'Route POST /health not found');
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
    assert.deepEqual(Object.keys(res.body).sort(), ['error', 'message', 'statusCode']);
    assert.equal(res.body.error, 'Internal Server Error');
    assert.doesNotMatch(res.body.message, /minds|sqlite|SQL|at /i);
    assert.ok(res.headers['x-request-id']);
    await broken.stop();
  });
});
