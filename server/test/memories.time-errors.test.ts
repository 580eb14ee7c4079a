import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { useService } from './harness.js';

/** Bad times and bad supersedes: a 400 or 404 with the error object, and nothing written in either mind. */
describe('memories over time: bad input', () => {
  const svc = useService();

  /** Everything of a mind a refused request might have written. */
  async function snapshot(mindId: string) {
    const count = async (table: string) => Number((await svc.ctx.db(table).where({ mind_id: mindId }).count({ n: '*' }))[0]!.n);
    const memories = await svc.ctx
      .db('memories')
      .where({ mind_id: mindId })
      .orderBy('id')
      .select('id', 'valid_to', 'superseded_by', 'updated_at');
    return { memories, versions: await count('memory_versions'), events: await count('events'), tags: await count('memory_tags') };
  }

  const isError = (body: Record<string, unknown>, status: number, code: string) => {
    assert.equal(body.statusCode, status);
    assert.equal(body.code, code);
    assert.equal(typeof body.message, 'string');
    assert.equal(typeof body.docs, 'string');
  };

  test('dates that are not RFC 3339 date-times, and valid_to not after valid_from: 400 naming the field', async () => {
    const { auth, mindId } = await svc.mind();
    const kept = (await svc.http.post('/memory').set(auth).send({ category: 'fact', content: 'kept' }).expect(201)).body;
    const before = await snapshot(mindId);
    const bad: Array<[Record<string, unknown>, string]> = [
      [{ expires_at: 'tomorrow' }, 'body.expires_at'],
      [{ valid_from: '2026-12-01' }, 'body.valid_from'],
      [{ valid_to: '2026-02-30T00:00:00Z' }, 'body.valid_to'],
      [{ valid_to: '2026-12-01T09:00:00' }, 'body.valid_to'],
      [{ expires_at: 1764000000 }, 'body.expires_at'],
      [{ valid_from: '2026-12-01T00:00:00Z', valid_to: '2026-11-01T00:00:00Z' }, 'body.valid_to'],
      [{ valid_from: '2026-12-01T00:00:00Z', valid_to: '2026-12-01T01:00:00+01:00' }, 'body.valid_to'],
    ];
    for (const [fields, path] of bad) {
      const created = await svc.http
        .post('/memory')
        .set(auth)
        .send({ category: 'fact', content: 'x', ...fields })
        .expect(400);
      isError(created.body, 400, 'validation_failed');
      assert.match(created.body.message, new RegExp(path.replace('.', '\\.')), JSON.stringify(fields));
      const updated = await svc.http.put(`/memory/${kept.id}`).set(auth).send(fields).expect(400);
      assert.match(updated.body.message, new RegExp(path.replace('.', '\\.')), JSON.stringify(fields));
    }
    // An update whose valid_to would end before the stored valid_from.
    await svc.http.put(`/memory/${kept.id}`).set(auth).send({ valid_from: '2026-06-01T00:00:00Z' }).expect(200);
    const after = await snapshot(mindId);
    const ended = await svc.http.put(`/memory/${kept.id}`).set(auth).send({ valid_to: '2026-05-01T00:00:00Z' }).expect(400);
    assert.match(ended.body.message, /body\.valid_to: must be after valid_from \(2026-06-01T00:00:00\.000Z\)/);
    assert.deepEqual(await snapshot(mindId), after);
    for (const query of [{ as_of: 'yesterday' }, { as_of: '2026-12-01' }, { include_past: 'yes' }]) {
      const r = await svc.http.get('/memory/recall').set(auth).query(query).expect(400);
      isError(r.body, 400, 'validation_failed');
    }
    assert.equal(before.memories.length, 1);
  });

  test("supersedes an unknown memory or another mind's: 404, nothing written in this mind or the other", async () => {
    const a = await svc.mind();
    const b = await svc.mind();
    const theirs = (await svc.http.post('/memory').set(b.auth).send({ category: 'fact', content: 'theirs' }).expect(201)).body;
    const ours = (await svc.http.post('/memory').set(a.auth).send({ category: 'fact', content: 'ours', key: 'k' }).expect(201)).body;
    const [beforeA, beforeB] = [await snapshot(a.mindId), await snapshot(b.mindId)];
    for (const supersedes of [theirs.id, '00000000-0000-4000-8000-000000000000', 'not-an-id']) {
      const r = await svc.http
        .post('/memory')
        .set(a.auth)
        .send({ category: 'fact', content: 'new', tags: ['t'], supersedes })
        .expect(404);
      isError(r.body, 404, 'memory_not_found');
    }
    // With a key another memory of the category has: 409, and the old one untouched.
    const taken = await svc.http
      .post('/memory')
      .set(a.auth)
      .send({ category: 'fact', key: 'k', content: 'new', supersedes: ours.id })
      .expect(409);
    isError(taken.body, 409, 'memory_key_taken');
    assert.deepEqual(await snapshot(a.mindId), beforeA);
    assert.deepEqual(await snapshot(b.mindId), beforeB);
    const stats = (await svc.http.get('/memory/stats').set(b.auth).expect(200)).body;
    assert.equal(stats.total, 1);
    assert.equal((await svc.http.get(`/memory/${theirs.id}`).set(b.auth).expect(200)).body.superseded_by, null);
  });
});
