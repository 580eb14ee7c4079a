// Every paged route checks its cursor after decoding (issue 28, finding 6): a NUL inside the decoded
// JSON, fields of the wrong type or size, garbage base64 are a 400 that names query.cursor, never a
// 500 (PostgreSQL refused a NUL that passed the query-string check) nor a page.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { registerComputer } from './computers/helpers.js';
import { bearer, type TestService, useService } from './harness.js';

const b64 = (text: string) => Buffer.from(text).toString('base64url');
type Json = unknown[] | Record<string, unknown>;
const decoded = (cursor: string) => JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as Json;
/** The real cursor with one change. */
const changed = (cursor: string, change: (value: Json) => void) => {
  const value = decoded(cursor);
  change(value);
  return b64(JSON.stringify(value));
};

/** What any cursor of any route must refuse. */
const GARBAGE: Record<string, string> = {
  'not base64url': '!!!*** not a cursor ***!!!',
  'base64 of no JSON': b64('hello'),
  'JSON cut short': b64('[1,'),
  'JSON null': b64('null'),
  'a raw NUL byte': b64('[1,"a\u0000"]'),
  'invalid UTF-8': Buffer.from([0x5b, 0x31, 0x2c, 0x22, 0xff, 0xfe, 0x22, 0x5d]).toString('base64url'),
};

async function expectRefused(svc: TestService, path: string, credential: string, cursors: Record<string, string>, field = 'query.cursor') {
  const wrong: string[] = [];
  for (const [what, cursor] of Object.entries(cursors)) {
    const param = field === 'query.cursor' ? 'cursor' : 'before';
    const res = await svc.http
      .get(`${path}${path.includes('?') ? '&' : '?'}${param}=${encodeURIComponent(cursor)}`)
      .set(bearer(credential));
    const ok = res.status === 400 && res.body.details?.[0]?.path === field && typeof res.body.message === 'string';
    if (!ok) wrong.push(`${what}: ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`);
  }
  assert.deepEqual(wrong, [], `${path}: every tampered cursor is a 400 naming ${field}`);
}

describe('tampered cursors', () => {
  const svc = useService();

  test('GET /mind/tasks', async () => {
    const m = await svc.mind();
    for (const title of ['one', 'two']) await svc.http.post('/mind/task').set(m.auth).send({ title }).expect(201);
    const first = await svc.http.get('/mind/tasks?limit=1').set(m.auth).expect(200);
    const cursor = first.body.next_cursor as string;
    await svc.http.get(`/mind/tasks?limit=1&cursor=${cursor}`).set(m.auth).expect(200);
    await expectRefused(svc, '/mind/tasks?limit=1', m.mindKey, {
      ...GARBAGE,
      'NUL in the id': changed(cursor, (v) => ((v as unknown[])[5] += '\u0000')),
      'NUL in the creation time': changed(cursor, (v) => ((v as unknown[])[4] += '\u0000')),
      'NUL in the due date': changed(cursor, (v) => ((v as unknown[])[3] = '2026-01-01\u0000')),
      'a number for the creation time': changed(cursor, (v) => ((v as unknown[])[4] = 7)),
      'an object for the id': changed(cursor, (v) => ((v as unknown[])[5] = {})),
      'a rank of 99': changed(cursor, (v) => ((v as unknown[])[1] = 99)),
      'an oversized creation time': changed(cursor, (v) => ((v as unknown[])[4] = 'x'.repeat(200))),
      'an oversized id': changed(cursor, (v) => ((v as unknown[])[5] = 'x'.repeat(200))),
      'an extra element': changed(cursor, (v) => (v as unknown[]).push('more')),
    });
  });

  test('GET /mind/scripts', async () => {
    const m = await svc.mind();
    for (const name of ['alpha', 'beta']) await svc.http.post('/mind/scripts').set(m.auth).send({ name, content: 'print(1)' }).expect(201);
    const first = await svc.http.get('/mind/scripts?limit=1').set(m.auth).expect(200);
    const cursor = first.body.next_cursor as string;
    await svc.http.get(`/mind/scripts?limit=1&cursor=${cursor}`).set(m.auth).expect(200);
    await expectRefused(svc, '/mind/scripts?limit=1', m.mindKey, {
      ...GARBAGE,
      'NUL in the name': changed(cursor, (v) => ((v as unknown[])[1] += '\u0000')),
      'a number for the name': changed(cursor, (v) => ((v as unknown[])[1] = 12)),
      'an oversized name': changed(cursor, (v) => ((v as unknown[])[1] = 'n'.repeat(400))),
      'version 2': changed(cursor, (v) => ((v as unknown[])[0] = 2)),
    });
  });

  test('GET /memory/recall (keyword)', async () => {
    const m = await svc.mind();
    for (const content of ['beaver dam one', 'beaver dam two']) {
      await svc.http.post('/memory').set(m.auth).send({ category: 'fact', content }).expect(201);
    }
    const path = '/memory/recall?q=beaver&mode=keyword&limit=1';
    const first = await svc.http.get(path).set(m.auth).expect(200);
    const cursor = first.body.next_cursor as string;
    await svc.http.get(`${path}&cursor=${cursor}`).set(m.auth).expect(200);
    type Body = Record<string, unknown>;
    await expectRefused(svc, path, m.mindKey, {
      ...GARBAGE,
      'NUL in the id': changed(cursor, (v) => ((v as Body).i += '\u0000')),
      'NUL in the time': changed(cursor, (v) => ((v as Body).u += '\u0000')),
      'a text score': changed(cursor, (v) => ((v as Body).s = '1')),
      'an infinite score': b64(JSON.stringify(decoded(cursor)).replace(/"s":[^,}]+/, '"s":1e999')),
      'an array for the id': changed(cursor, (v) => ((v as Body).i = ['x'])),
      'an oversized time': changed(cursor, (v) => ((v as Body).u = 'u'.repeat(200))),
      'an oversized id': changed(cursor, (v) => ((v as Body).i = 'i'.repeat(200))),
      'another search': changed(cursor, (v) => ((v as Body).f = 'AAAAAAAAAAAAAAAA')),
    });
  });

  test('GET /computers/:id/commands', async () => {
    const m = await svc.mind();
    const { computerId } = await registerComputer(svc, m.mindKey);
    for (let i = 0; i < 2; i++) {
      await svc.http
        .post(`/computers/${computerId}/commands`)
        .set(m.auth)
        .send({ type: 'move', payload: { x: i, y: i } })
        .expect(201);
    }
    const path = `/computers/${computerId}/commands?limit=1`;
    const first = await svc.http.get(path).set(bearer(m.jwt)).expect(200);
    await svc.http.get(`${path}&cursor=${first.body.next_cursor}`).set(bearer(m.jwt)).expect(200);
    await expectRefused(svc, path, m.jwt, {
      ...GARBAGE,
      'NUL after the position': b64('c1\u0000'),
      'an oversized position': b64(`c${'9'.repeat(40)}`),
    });
  });

  test('GET /mind/chat `before`', async () => {
    const m = await svc.mind();
    await svc.http.post('/mind/chat').set(m.auth).send({ role: 'human', content: 'hello' }).expect(201);
    await expectRefused(svc, '/mind/chat', m.mindKey, { 'an oversized id': 'x'.repeat(300), 'a NUL': 'a\u0000' }, 'query.before');
    await svc.http.get('/mind/chat?before=00000000-0000-4000-8000-000000000000').set(m.auth).expect(404);
  });
});

describe('tampered cursors of recall by meaning', () => {
  const svc = useService({ MIND_EMBEDDINGS: 'local' });

  test('GET /memory/recall (hybrid)', async () => {
    const m = await svc.mind();
    for (const content of ['beaver dam one', 'beaver dam two', 'beaver lodge three']) {
      await svc.http.post('/memory').set(m.auth).send({ category: 'fact', content }).expect(201);
    }
    const deadline = Date.now() + 20_000;
    while ((await svc.http.get('/memory/stats').set(m.auth).expect(200)).body.pending_embeddings > 0) {
      assert.ok(Date.now() < deadline, 'memories embedded');
      await new Promise((r) => setTimeout(r, 50));
    }
    const path = '/memory/recall?q=beaver&limit=1';
    const first = await svc.http.get(path).set(m.auth).expect(200);
    const cursor = first.body.next_cursor as string;
    await svc.http.get(`${path}&cursor=${cursor}`).set(m.auth).expect(200);
    type Body = Record<string, unknown>;
    await expectRefused(svc, path, m.mindKey, {
      ...GARBAGE,
      'NUL in the time seen': changed(cursor, (v) => ((v as Body).t += '\u0000')),
      'a number for the time seen': changed(cursor, (v) => ((v as Body).t = 5)),
      'an oversized offset': changed(cursor, (v) => ((v as Body).o = 1_000_000)),
      'a fractional offset': changed(cursor, (v) => ((v as Body).o = 0.5)),
      'an offset and a position': changed(cursor, (v) => Object.assign(v, { s: 1, u: '2026-01-01T00:00:00.000Z', i: 'x' })),
      'NUL in a position': changed(cursor, (v) => {
        delete (v as Body).o;
        Object.assign(v, { s: 1, u: '2026-01-01T00:00:00.000Z', i: 'x\u0000' });
      }),
    });
  });
});
