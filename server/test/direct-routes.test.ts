import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { type AddressInfo, connect } from 'node:net';
import { after, before, describe, test } from 'node:test';
import type { Response, Test } from 'supertest';
import { bearer, startService, type TestService } from './harness.js';

/**
 * POST /memory and GET /mind/tasks are served before Express (src/http/direct-routes.ts); with a
 * trailing slash Express serves the same route. Every request here goes both ways and must get the
 * same answer: status, headers and body (ids, times and the request id aside).
 */
describe('direct routes answer exactly as Express does', () => {
  let svc: TestService;
  let mindKey: string;
  before(async () => {
    svc = await startService();
    ({ mindKey } = await svc.mind());
  });
  after(() => svc.stop());

  const VARYING_HEADERS = new Set(['date', 'x-request-id', 'content-length', 'x-ratelimit-remaining', 'x-ratelimit-reset', 'connection', 'keep-alive']);
  const VARYING_FIELDS = /^(id|created_at|updated_at)$/;
  const normalised = (value: unknown): unknown =>
    Array.isArray(value)
      ? value.map(normalised)
      : value && typeof value === 'object'
        ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, VARYING_FIELDS.test(k) ? typeof v : normalised(v)]))
        : value;
  const answer = (res: Response) => ({
    status: res.status,
    headers: Object.fromEntries(Object.entries(res.headers).filter(([name]) => !VARYING_HEADERS.has(name))),
    body: normalised(res.body),
  });

  /** Sends the request to `path` (direct) and `path/` (Express); answers the direct answer after comparing both. */
  async function both(path: string, send: (url: string) => Test) {
    const [query = '', base = path] = [path.split('?')[1], path.split('?')[0]];
    const direct = answer(await send(path));
    const viaExpress = answer(await send(`${base}/${query ? `?${query}` : ''}`));
    assert.deepEqual(direct, viaExpress);
    return direct;
  }

  test('POST /memory: created, updated by key, and every kind of bad request', async () => {
    const key = bearer(mindKey);
    const post = (body: string | object, headers: Record<string, string> = key, contentType = 'application/json') => (url: string) =>
      svc.http.post(url).set(headers).set('Content-Type', contentType).send(typeof body === 'string' ? body : JSON.stringify(body));

    assert.equal((await both('/memory', post({ category: 'note', content: 'same either way', tags: ['a'] }))).status, 201);
    await svc.http.post('/memory').set(key).send({ category: 'fact', key: 'home', content: 'Berlin' }).expect(201);
    assert.equal((await both('/memory', post({ category: 'fact', key: 'home', content: 'Hamburg' }))).status, 200);

    const cases: Array<[number, string, ReturnType<typeof post>]> = [
      [400, 'not JSON', post('{"category": ')],
      [400, 'unknown category', post({ category: 'gossip', content: 'x' })],
      [400, 'no content', post({ category: 'note' })],
      [400, 'text/plain body', post('category=note', key, 'text/plain')],
      [401, 'no credentials', post({ category: 'note', content: 'x' }, {})],
      [401, 'unknown Mind Key', post({ category: 'note', content: 'x' }, bearer('mk_unknown'))],
      [413, 'body over 1 MB', post({ category: 'note', content: 'x'.repeat(1_100_000) })],
    ];
    for (const [status, label, send] of cases) {
      const res = await both('/memory', send);
      assert.equal(res.status, status, label);
      assert.equal((res.body as { statusCode: number }).statusCode, status, `${label}: the error object`);
    }
    // A JWT is not what this route takes.
    const { jwt } = await svc.user();
    assert.equal((await both('/memory', post({ category: 'note', content: 'x' }, bearer(jwt)))).status, 401);
  });

  test('POST /memory with ?key= (rate-limited by the client address, headers included)', async () => {
    const res = await both(`/memory?key=${mindKey}`, (url) => svc.http.post(url).send({ category: 'note', content: 'by query key' }));
    assert.equal(res.status, 201);
    assert.ok(res.headers['x-ratelimit-limit'], 'the rate-limit headers are there');
  });

  test('GET /mind/tasks: the list, a status filter, a bad filter, no credentials', async () => {
    await svc.http.post('/mind/task').set(bearer(mindKey)).send({ title: 'one' }).expect(201);
    const get = (headers: Record<string, string> = bearer(mindKey)) => (url: string) => svc.http.get(url).set(headers);
    const list = await both('/mind/tasks', get());
    assert.equal(list.status, 200);
    assert.equal((list.body as { tasks: unknown[] }).tasks.length, 1);
    assert.equal((await both('/mind/tasks?status=pending', get())).status, 200);
    assert.equal((await both('/mind/tasks?status=bogus', get())).status, 400);
    assert.equal((await both('/mind/tasks', get({}))).status, 401);
    assert.equal((await both(`/mind/tasks?key=${mindKey}`, get({}))).status, 200);
    // Express parses a JSON body on GET too, and refuses a broken one.
    const withBody = (text: string) => (url: string) => svc.http.get(url).set(bearer(mindKey)).set('Content-Type', 'application/json').send(text);
    assert.equal((await both('/mind/tasks', withBody('{bad'))).status, 400);
  });

  test('a #fragment sent on the wire is no part of the query, as Express reads it', async () => {
    // HTTP clients drop fragments before sending; a raw request keeps it.
    const server = createServer(svc.app);
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    const { port } = server.address() as AddressInfo;
    const statusOf = (target: string) =>
      new Promise<number>((done, fail) => {
        const socket = connect(port, '127.0.0.1', () => socket.write(`GET ${target} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`));
        let text = '';
        socket.on('data', (chunk) => (text += chunk));
        socket.on('end', () => done(Number(text.split(' ')[1])));
        socket.on('error', fail);
      });
    try {
      for (const path of ['/mind/tasks', '/mind/tasks/']) {
        assert.equal(await statusOf(`${path}?key=${mindKey}#part`), 200, `${path}: the key without the fragment`);
        assert.equal(await statusOf(`${path}?key=${mindKey}&status=pending#part`), 200, `${path}: the status without the fragment`);
      }
    } finally {
      server.close();
    }
  });
});
