import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { TestClock, useService } from './harness.js';

interface History {
  versions: Array<{ content: string; key: string | null; tags: string[]; at: string; replaced_at: string | null }>;
  chain: Array<{ id: string; content: string; valid_to: string | null; superseded_by: string | null; created_at: string }>;
  next_cursor: string | null;
}

/** Supersede chains and versions: what replaced what, and what a memory said before. */
describe('memories over time: supersedes and history', () => {
  const clock = new TestClock();
  const svc = useService({}, { clock });

  async function mind() {
    const m = await svc.mind();
    const store = async (body: Record<string, unknown>, status = 201) => {
      clock.advance(1000);
      return (await svc.http.post('/memory').set(m.auth).send(body).expect(status)).body as Record<string, unknown> & { id: string };
    };
    const history = async (id: string, query: Record<string, string | number> = {}) =>
      (await svc.http.get(`/memory/${id}/history`).set(m.auth).query(query).expect(200)).body as History;
    const recall = async (query: Record<string, string | boolean> = {}) =>
      ((await svc.http.get('/memory/recall').set(m.auth).query(query).expect(200)).body.memories as Array<{ id: string }>).map((h) => h.id);
    return { ...m, store, history, recall };
  }

  test('a supersede chain of three: each old one ends and points on, recall shows the newest, every history the whole chain', async () => {
    const { store, history, recall, auth, mindId } = await mind();
    const leeds = await store({ category: 'identity', content: 'Lives in Leeds' });
    const york = await store({ category: 'identity', content: 'Lives in York', supersedes: leeds.id });
    const bath = await store({ category: 'identity', content: 'Lives in Bath', supersedes: york.id });
    // Each ended when its successor was written.
    const [firstEnd, secondEnd] = [york.created_at as string, bath.created_at as string];

    const get = async (id: string) => (await svc.http.get(`/memory/${id}`).set(auth).expect(200)).body;
    assert.deepEqual([(await get(leeds.id)).superseded_by, (await get(leeds.id)).valid_to], [york.id, firstEnd]);
    assert.deepEqual([(await get(york.id)).superseded_by, (await get(york.id)).valid_to], [bath.id, secondEnd]);
    assert.deepEqual([(await get(bath.id)).superseded_by, (await get(bath.id)).valid_to], [null, null]);
    assert.deepEqual(await recall({ q: 'lives', mode: 'keyword' }), [bath.id]);
    assert.deepEqual((await recall({ q: 'lives', mode: 'keyword', include_past: true })).sort(), [leeds.id, york.id, bath.id].sort());
    assert.deepEqual(await recall({ as_of: new Date(Date.parse(firstEnd) - 1).toISOString() }), [leeds.id]);

    for (const id of [leeds.id, york.id, bath.id]) {
      const { chain } = await history(id);
      assert.deepEqual(
        chain.map((l) => [l.id, l.content, l.superseded_by]),
        [
          [leeds.id, 'Lives in Leeds', york.id],
          [york.id, 'Lives in York', bath.id],
          [bath.id, 'Lives in Bath', null],
        ],
      );
    }
    // Paged one link a page, the same chain in order.
    const links: string[] = [];
    let cursor: string | null = '';
    while (cursor !== null) {
      const page = await history(york.id, cursor ? { limit: 1, cursor } : { limit: 1 });
      assert.ok(page.chain.length <= 1 && page.versions.length <= 1);
      links.push(...page.chain.map((l) => l.id));
      cursor = page.next_cursor;
    }
    assert.deepEqual(links, [leeds.id, york.id, bath.id]);
    // Events as for any change: the old memory's memory.updated.
    const types = await svc.ctx.db('events').where({ mind_id: mindId }).orderBy('created_at').select('type', 'data');
    const updated = types.filter((e) => e.type === 'memory.updated').map((e) => JSON.parse(e.data).id);
    assert.deepEqual(updated, [leeds.id, york.id]);
    // Superseding one that is superseded already: 409, nothing written.
    const before = await svc.ctx.db('memories').where({ mind_id: mindId }).count({ n: '*' });
    const refused = await store({ category: 'identity', content: 'Lives in Hull', supersedes: york.id }, 409);
    assert.equal(refused.code, 'memory_superseded');
    assert.deepEqual(await svc.ctx.db('memories').where({ mind_id: mindId }).count({ n: '*' }), before);
  });

  test('history after updates by id and by key: oldest first, the current content last, each with its time', async () => {
    const { store, history, auth } = await mind();
    const first = await store({ category: 'preference', key: 'drink', content: 'Tea', tags: ['a'] });
    clock.advance(1000);
    const byId = (await svc.http.put(`/memory/${first.id}`).set(auth).send({ content: 'Coffee' }).expect(200)).body;
    const byKey = await store({ category: 'preference', key: 'drink', content: 'Water', tags: ['b'] }, 200);
    assert.equal(byKey.id, first.id);
    // No change, no version.
    await store({ category: 'preference', key: 'drink', content: 'Water', tags: ['b'] }, 200);
    const { versions, chain, next_cursor } = await history(first.id);
    assert.deepEqual(
      versions.map((v) => [v.content, v.tags, v.at, v.replaced_at]),
      [
        ['Tea', ['a'], first.updated_at, byId.updated_at],
        ['Coffee', ['a'], byId.updated_at, byKey.updated_at],
        ['Water', ['b'], byKey.updated_at, null],
      ],
    );
    assert.deepEqual(
      chain.map((l) => l.id),
      [first.id],
    );
    assert.equal(next_cursor, null);
    // Paged two a page: the same, no repeats.
    const page1 = await history(first.id, { limit: 2 });
    assert.deepEqual(
      page1.versions.map((v) => v.content),
      ['Tea', 'Coffee'],
    );
    assert.ok(page1.next_cursor);
    const page2 = await history(first.id, { limit: 2, cursor: page1.next_cursor });
    assert.deepEqual(
      page2.versions.map((v) => v.content),
      ['Water'],
    );
    assert.deepEqual(page2.chain, []);
    assert.equal(page2.next_cursor, null);
    await svc.http.get(`/memory/${first.id}/history`).set(auth).query({ cursor: 'bm90IGEgY3Vyc29y' }).expect(400);
  });

  test("a credentials memory's versions are encrypted at rest like the memory, and readable where the memory is", async () => {
    const { store, history, auth, mindId } = await mind();
    const secret = await store({ category: 'credentials', key: 'wifi', content: 'password: hunter2' });
    await svc.http.put(`/memory/${secret.id}`).set(auth).send({ content: 'password: correct horse' }).expect(200);
    const rows = await svc.ctx.db('memory_versions').where({ mind_id: mindId }).select('content', 'content_encrypted');
    assert.equal(rows.length, 1);
    assert.equal(rows[0].content, '');
    assert.ok(!String(rows[0].content_encrypted).includes('hunter2'));
    const { versions } = await history(secret.id);
    assert.deepEqual(
      versions.map((v) => v.content),
      ['password: hunter2', 'password: correct horse'],
    );
    // The events never carry it.
    const data = await svc.ctx.db('events').where({ mind_id: mindId }).select('data');
    assert.ok(data.every((e) => !String(e.data).includes('hunter2') && !String(e.data).includes('correct horse')));
    // Moved to another memory, a version's ciphertext no longer opens (bound to its memory and id).
    const other = await store({ category: 'credentials', key: 'door', content: 'code 1234' });
    await svc.http.put(`/memory/${other.id}`).set(auth).send({ content: 'code 5678' }).expect(200);
    await svc.ctx.db('memory_versions').where({ memory_id: other.id }).update({ content_encrypted: rows[0].content_encrypted });
    const swapped = await svc.http.get(`/memory/${other.id}/history`).set(auth).expect(500);
    assert.equal(swapped.body.code, 'encryption_key_changed');
  });
});
