import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { bearer, useService } from './harness.js';

const NINE = 'identity, preference, fact, project, skill, mistake, context, note, credentials';
const MISSING = '00000000-0000-4000-8000-000000000000';

describe('memories: bad input', () => {
  const svc = useService();

  /** Asserts the error object and that the message names the field. */
  function expectError(res: { status: number; body: Record<string, unknown> }, status: number, field: string) {
    assert.equal(res.status, status, JSON.stringify(res.body));
    assert.equal(res.body.statusCode, status);
    assert.equal(typeof res.body.error, 'string');
    assert.match(String(res.body.message), new RegExp(field.replace(/[.*]/g, '\\$&')));
  }

  test('an unknown category is 400 listing the nine categories, in the body and in recall', async () => {
    const { auth } = await svc.mind();
    const res = await svc.http.post('/memory').set(auth).send({ category: 'secrets', content: 'x' });
    expectError(res, 400, 'body.category');
    assert.ok(String(res.body.message).includes(NINE), res.body.message);
    const q = await svc.http.get('/memory/recall').set(auth).query({ category: 'secrets' });
    expectError(q, 400, 'query.category');
    assert.ok(String(q.body.message).includes(NINE));
    const put = await svc.http.post('/memory').set(auth).send({ category: 'note', content: 'x' }).expect(201);
    const bad = await svc.http.put(`/memory/${put.body.id}`).set(auth).send({ category: 'Note' });
    expectError(bad, 400, 'body.category');
    assert.ok(String(bad.body.message).includes(NINE));
  });

  test('missing or oversized fields are 400 naming the field, and nothing is stored', async () => {
    const { auth } = await svc.mind();
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ content: 'x' }, 'body.category'],
      [{ category: 'note' }, 'body.content'],
      [{ category: 'note', content: '' }, 'body.content'],
      [{ category: 'note', content: 'x'.repeat(65537) }, 'body.content'],
      [{ category: 'note', content: 'x', key: 'k'.repeat(201) }, 'body.key'],
      [{ category: 'note', content: 'x', key: '   ' }, 'body.key'],
      [{ category: 'note', content: 'x', tags: 'one' }, 'body.tags'],
      [{ category: 'note', content: 'x', tags: [''] }, 'body.tags.0'],
      [{ category: 'note', content: 'x', tags: Array.from({ length: 51 }, (_, i) => `t${i}`) }, 'body.tags'],
      [{ category: 'note', content: 'x', source: 's'.repeat(201) }, 'body.source'],
      [{ category: 'note', content: 42 }, 'body.content'],
    ];
    for (const [body, field] of cases) expectError(await svc.http.post('/memory').set(auth).send(body), 400, field);
    const stats = await svc.http.get('/memory/stats').set(auth).expect(200);
    assert.equal(stats.body.total, 0);
    // Exactly at the limit is fine.
    await svc.http
      .post('/memory')
      .set(auth)
      .send({ category: 'note', content: 'x'.repeat(65536) })
      .expect(201);
  });

  test("unknown ids and another mind's memory are 404 on get, update, delete, verify and unverify", async () => {
    const { auth, jwt } = await svc.mind();
    const other = await svc.mind();
    const theirs = (await svc.http.post('/memory').set(other.auth).send({ category: 'note', content: 'theirs' }).expect(201)).body;
    for (const id of [MISSING, theirs.id, 'not-a-uuid']) {
      expectError(await svc.http.get(`/memory/${id}`).set(auth), 404, 'Memory not found');
      expectError(await svc.http.put(`/memory/${id}`).set(auth).send({ content: 'mine now' }), 404, 'Memory not found');
      expectError(await svc.http.delete(`/memory/${id}`).set(auth), 404, 'Memory not found');
      expectError(await svc.http.post(`/memory/${id}/verify`).set(bearer(jwt)), 404, 'Memory not found');
      expectError(await svc.http.post(`/memory/${id}/unverify`).set(bearer(jwt)), 404, 'Memory not found');
    }
    const still = await svc.http.get(`/memory/${theirs.id}`).set(other.auth).expect(200);
    assert.deepEqual(still.body, theirs);
  });

  test('PUT to a category and key another memory has is 409, and changes nothing', async () => {
    const { auth } = await svc.mind();
    const a = (await svc.http.post('/memory').set(auth).send({ category: 'fact', key: 'a', content: 'A' }).expect(201)).body;
    const b = (await svc.http.post('/memory').set(auth).send({ category: 'note', key: 'a', content: 'B' }).expect(201)).body;
    expectError(await svc.http.put(`/memory/${b.id}`).set(auth).send({ category: 'fact', content: 'changed' }), 409, 'body.key');
    const c = (await svc.http.post('/memory').set(auth).send({ category: 'fact', key: 'c', content: 'C' }).expect(201)).body;
    expectError(await svc.http.put(`/memory/${c.id}`).set(auth).send({ key: 'a' }), 409, 'body.key');
    assert.deepEqual((await svc.http.get(`/memory/${b.id}`).set(auth).expect(200)).body, b);
    assert.deepEqual((await svc.http.get(`/memory/${c.id}`).set(auth).expect(200)).body, c);
    assert.deepEqual((await svc.http.get(`/memory/${a.id}`).set(auth).expect(200)).body, a);
  });

  test('recall rejects bad limits, cursors, dates and a q without words with 400 naming the parameter', async () => {
    const { auth } = await svc.mind();
    const get = (query: Record<string, string>) => svc.http.get('/memory/recall').set(auth).query(query);
    expectError(await get({ limit: '0' }), 400, 'query.limit');
    expectError(await get({ limit: '101' }), 400, 'query.limit');
    expectError(await get({ limit: 'ten' }), 400, 'query.limit');
    expectError(await get({ verified: 'yes' }), 400, 'query.verified');
    expectError(await get({ since: 'yesterday' }), 400, 'query.since');
    expectError(await get({ cursor: 'garbage' }), 400, 'query.cursor');
    expectError(await get({ cursor: Buffer.from('{"v":1,"s":"x"}').toString('base64url') }), 400, 'query.cursor');
    expectError(await get({ q: '"*:' }), 400, 'query.q');
    expectError(await get({ q: 'x'.repeat(1001) }), 400, 'query.q');

    // A cursor of one search cannot continue another.
    for (let i = 0; i < 3; i++)
      await svc.http
        .post('/memory')
        .set(auth)
        .send({ category: 'note', content: `otter ${i}` })
        .expect(201);
    const page = await get({ q: 'otter', limit: '1' }).expect(200);
    assert.ok(page.body.next_cursor);
    expectError(await get({ q: 'beaver', limit: '1', cursor: page.body.next_cursor }), 400, 'query.cursor');
    await get({ q: 'otter', limit: '1', cursor: page.body.next_cursor }).expect(200);
  });

  test('malformed JSON is 400 and a body over 1 MB is 413', async () => {
    const { auth } = await svc.mind();
    const bad = await svc.http.post('/memory').set(auth).set('Content-Type', 'application/json').send('{"category": "note",');
    assert.equal(bad.status, 400);
    const big = await svc.http
      .post('/memory')
      .set(auth)
      .send({ category: 'note', content: 'x'.repeat(1_100_000) });
    assert.equal(big.status, 413);
    assert.equal(big.body.statusCode, 413);
  });
});
