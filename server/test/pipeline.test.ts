// The request pipeline's own rules, over real HTTP: credentials before bodies, body limits counted
// after inflating, JSON depth, bounded error answers, path parameters, and `key` never logged.
import assert from 'node:assert/strict';
import { createServer, get as httpGet, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { gzipSync } from 'node:zlib';
import { contract, listRoutes } from '@mindservice/contract';
import pino from 'pino';
import { ApiError } from '../src/http/api-error.js';
import { sendError } from '../src/http/errors.js';
import { mindWithComputer, queue } from './computers/helpers.js';
import { bearer, startService, type TestService } from './harness.js';

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** Sends headers and only `sent` of the body, then waits for an answer (a server that waits for the rest never answers). */
function partialRequest(port: number, path: string, headers: Record<string, string>, sent: Buffer): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, method: 'POST', headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.setTimeout(5000, () => reject(new Error('no answer within 5 s: the server waited for the body')));
    req.write(sent);
  });
}

describe('request pipeline', () => {
  let svc: TestService;
  let port: number;
  let close: () => Promise<void>;
  const lines: Array<{ url?: string }> = [];
  before(async () => {
    const logger = pino({ level: 'info', base: undefined }, { write: (line: string) => void lines.push(JSON.parse(line)) });
    svc = await startService({}, { logger });
    const server = createServer(svc.app);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
    close = () => new Promise((resolve) => server.close(() => resolve()));
  });
  after(async () => {
    await close();
    await svc.stop();
  });

  test('a request without a valid credential is refused before its body is read, and the connection closed', async () => {
    const bomb = gzipSync(Buffer.alloc(24 * 1024 * 1024, ' '));
    for (const headers of [{}, { Authorization: 'Bearer mk_unknown' }] as Record<string, string>[]) {
      const answer = await partialRequest(
        port,
        '/memory/mind-import',
        { ...headers, 'Content-Type': 'application/json', 'Content-Encoding': 'gzip', 'Content-Length': String(bomb.length) },
        bomb.subarray(0, 1024),
      );
      assert.equal(answer.status, 401);
      assert.equal(answer.headers.connection, 'close');
      assert.equal(JSON.parse(answer.body).message, 'Mind Key fehlt oder ungültig.');
    }
  });

  test('the body limit counts inflated bytes: a small gzip of more than 1 MB of JSON is a 413', async () => {
    const { mindKey } = await svc.mind();
    const json = Buffer.from(`{"category":"fact","content":"x","pad":"${' '.repeat(2 * 1024 * 1024)}"}`);
    const gzipped = gzipSync(json);
    const res = await partialRequest(
      port,
      '/memory',
      { ...bearer(mindKey), 'Content-Type': 'application/json', 'Content-Encoding': 'gzip', 'Content-Length': String(gzipped.length) },
      gzipped,
    );
    assert.equal(res.status, 413, res.body);
    const body = JSON.parse(res.body);
    assert.match(body.message, /larger than 1 MB/);
  });

  test('JSON nested deeper than 64 levels is a 400; 64 levels are read', async () => {
    const { mindKey } = await svc.mind();
    const nested = (depth: number) => `{"category":"fact","content":"deep","extra":${'['.repeat(depth - 1)}${']'.repeat(depth - 1)}}`;
    const ok = await svc.http.post('/memory').set(bearer(mindKey)).set('Content-Type', 'application/json').send(nested(64));
    assert.equal(ok.status, 201);
    const deep = await svc.http.post('/memory').set(bearer(mindKey)).set('Content-Type', 'application/json').send(nested(65)).expect(400);
    assert.match(deep.body.message, /nested deeper than 64 levels/);
    const veryDeep = await svc.http
      .post('/memory')
      .set(bearer(mindKey))
      .set('Content-Type', 'application/json')
      .send(nested(100_000))
      .expect(400);
    assert.match(veryDeep.body.message, /nested deeper than 64 levels/);
  });

  test("an agent's result nested 10,000 levels deep is a 400, not a stack overflow", async () => {
    const { mindKey, computerId, token } = await mindWithComputer(svc);
    const commandId = await queue(svc, mindKey, computerId, { type: 'move', payload: { x: 1, y: 2 } });
    await svc.http.get('/computers/me/poll?wait=0').set(bearer(token)).expect(200);
    const result = `{"status":"done","result":{"deep":${'['.repeat(10_000)}${']'.repeat(10_000)}}}`;
    const res = await svc.http
      .post(`/computers/me/commands/${commandId}/result`)
      .set(bearer(token))
      .set('Content-Type', 'application/json')
      .send(result)
      .expect(400);
    assert.match(res.body.message, /nested deeper than 64 levels/);
  });

  test('a validation error names at most 20 problems, counts the rest, and stays under 16 KB', async () => {
    const { mindKey } = await svc.mind();
    const tags = Array.from({ length: 150_000 }, (_, i) => i);
    const res = await svc.http.post('/memory').set(bearer(mindKey)).send({ category: 'fact', content: 'x', tags }).expect(400);
    assert.equal(res.body.details.length, 20);
    assert.match(res.body.message, /and \d+ more problems$/);
    assert.ok(Buffer.byteLength(res.text) < 16 * 1024, `${Buffer.byteLength(res.text)} bytes`);
  });

  test('a NUL character in any string is a 400 naming the field, on every database (PostgreSQL cannot store one)', async () => {
    const { mindKey } = await svc.mind();
    const register = await svc.http.post('/register').send({ email: 'nul\u0000@example.com', password: 'correct horse' }).expect(400);
    assert.equal(register.body.details[0].path, 'body.email');
    const login = await svc.http.post('/login').send({ email: 'a@example.com', password: 'x\u0000y' }).expect(400);
    assert.equal(login.body.details[0].path, 'body.password');
    const nested = await svc.http
      .post('/memory')
      .set(bearer(mindKey))
      .send({ category: 'fact', content: 'ok', tags: ['a', 'b\u0000'] })
      .expect(400);
    assert.equal(nested.body.details[0].path, 'body.tags.1');
    const query = await svc.http.get('/memory/recall?q=a%00b').set(bearer(mindKey)).expect(400);
    assert.equal(query.body.details[0].path, 'query.q');
    const param = await svc.http.get('/mind/task/%00').set(bearer(mindKey)).expect(400);
    assert.equal(param.body.details[0].path, 'params.id');
  });

  test('routes without a body read none: a broken body on GET /health changes nothing', async () => {
    await svc.http.get('/health').set('Content-Type', 'application/json').send('{broken').expect(200);
  });

  test('path parameters: matched from the contract, decoded, and a bad encoding is a 400 with the error object', async () => {
    const { mindKey } = await svc.mind();
    const created = await svc.http.post('/mind/task').set(bearer(mindKey)).send({ title: 'a task' }).expect(201);
    await svc.http.get(`/mind/task/${created.body.id}`).set(bearer(mindKey)).expect(200);
    await svc.http.get(`/mind/task/${created.body.id}/`).set(bearer(mindKey)).expect(200);
    const bad = await svc.http.get('/mind/task/%E0%A4%A').set(bearer(mindKey)).expect(400);
    assert.equal(bad.body.message, 'params.id: is not valid percent-encoding');
    const unknown = await svc.http.get('/mind/nothing-here').set(bearer(mindKey)).expect(404);
    assert.equal(unknown.body.message, 'Route GET /mind/nothing-here not found');
  });

  test('HEAD is served as GET without a body', async () => {
    const res = await svc.http.head('/health').expect(200);
    assert.equal(res.text, undefined);
  });

  test('every contract route is served by the pipeline (none falls through to the 404)', async () => {
    for (const { route } of listRoutes(contract)) {
      const path = route.path.replace(/:(\w+)/g, '00000000-0000-4000-8000-000000000000');
      const res = await svc.http[route.method.toLowerCase() as 'get'](
        route.path.startsWith('/computers/me/poll') ? `${path}?wait=0` : path,
      );
      assert.notEqual(res.body.message, `Route ${route.method} ${path} not found`, `${route.method} ${route.path}`);
    }
  });

  test('`key` is redacted from the log however its name is encoded', async () => {
    const { mindKey } = await svc.mind();
    for (const name of ['key', 'ke%79', '%6Bey', '%6B%65%79']) {
      await svc.http.get(`/mind/tasks?${name}=${mindKey}`).expect(200);
    }
    assert.equal(JSON.stringify(lines).includes(mindKey), false);
    assert.ok(lines.some((l) => l.url === '/mind/tasks?ke%79=[redacted]'));
  });

  test('when writing an error fails, the answer is still the JSON error object with 500 (never HTML or a stack)', async () => {
    // A header value no HTTP answer may carry makes setHeader throw while the error is written.
    const server = createServer((_req, res) => sendError(res, new ApiError(429, 'slow down', { headers: { 'Retry-After': 'a\nb' } })));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const answer = await new Promise<Answer>((resolve, reject) => {
        httpGet(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`, (res) => {
          let body = '';
          res.on('data', (chunk) => (body += chunk));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
        }).on('error', reject);
      });
      assert.equal(answer.status, 500);
      assert.match(String(answer.headers['content-type']), /application\/json/);
      const body = JSON.parse(answer.body);
      assert.deepEqual(Object.keys(body), ['statusCode', 'error', 'message', 'code', 'docs']);
      assert.equal(body.code, 'internal_error');
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
