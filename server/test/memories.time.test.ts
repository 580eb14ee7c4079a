import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { purgeExpiredMemories } from '../src/memories/expiry.js';
import { TestClock, useService } from './harness.js';

const DAY = 24 * 60 * 60 * 1000;

/** Expiry and validity: what is gone at once, what recall answers now, then, or ever. */
describe('memories over time: expiry and validity', () => {
  const clock = new TestClock();
  const svc = useService({}, { clock });
  const at = (offsetMs: number) => new Date(clock.now().getTime() + offsetMs).toISOString();

  async function mind() {
    const m = await svc.mind();
    const store = async (body: Record<string, unknown>, status = 201) =>
      (await svc.http.post('/memory').set(m.auth).send(body).expect(status)).body as Record<string, unknown> & { id: string };
    const recall = async (query: Record<string, string | number | boolean | undefined> = {}) =>
      ((await svc.http.get('/memory/recall').set(m.auth).query(query).expect(200)).body.memories as Array<{ id: string }>).map((h) => h.id);
    const stats = async () => (await svc.http.get('/memory/stats').set(m.auth).expect(200)).body as { total: number };
    return { ...m, store, recall, stats };
  }

  test('an expired memory is gone at once (get, update, delete, recall in every mode, stats), then purged with memory.expired', async () => {
    const { store, recall, stats, auth, mindId } = await mind();
    const lasting = await store({ category: 'fact', content: 'The office door code changes monthly' });
    const expiresAt = at(60_000);
    const brief = await store({ category: 'fact', content: 'The office door code is 4711', expires_at: expiresAt, tags: ['door'] });
    assert.equal(brief.expires_at, expiresAt);
    assert.equal(lasting.expires_at, null);
    assert.deepEqual((await recall({ q: 'door code', mode: 'keyword' })).sort(), [lasting.id, brief.id].sort());
    assert.equal((await stats()).total, 2);

    clock.advance(60_000);
    await svc.http.get(`/memory/${brief.id}`).set(auth).expect(404);
    await svc.http.put(`/memory/${brief.id}`).set(auth).send({ content: 'again' }).expect(404);
    await svc.http.get(`/memory/${brief.id}/history`).set(auth).expect(404);
    for (const query of [{ q: 'door code', mode: 'keyword' }, { q: 'door code' }, {}, { tags: 'door' }, { q: 'door', tags: 'door' }]) {
      assert.deepEqual(await recall(query), query.tags ? [] : [lasting.id], JSON.stringify(query));
    }
    assert.equal((await stats()).total, 1);
    // Still in the table until the purge, which deletes it with its event.
    assert.ok(await svc.ctx.db('memories').where({ id: brief.id }).first());
    assert.ok((await purgeExpiredMemories(svc.ctx)) >= 1);
    assert.equal(await svc.ctx.db('memories').where({ id: brief.id }).first(), undefined);
    const expired = await svc.ctx.db('events').where({ mind_id: mindId, type: 'memory.expired' }).select('data');
    assert.deepEqual(
      expired.map((e) => JSON.parse(e.data)),
      [{ id: brief.id, category: 'fact', key: null, content: 'The office door code is 4711' }],
    );
    await svc.http.delete(`/memory/${brief.id}`).set(auth).expect(404);
  });

  test('expires_at set and cleared by an update; an expired key is free for a new memory', async () => {
    const { store, recall, auth } = await mind();
    const m = await store({ category: 'preference', key: 'tea', content: 'Green tea' });
    const soon = at(1000);
    const updated = (await svc.http.put(`/memory/${m.id}`).set(auth).send({ expires_at: soon }).expect(200)).body;
    assert.equal(updated.expires_at, soon);
    const cleared = (await svc.http.put(`/memory/${m.id}`).set(auth).send({ expires_at: null }).expect(200)).body;
    assert.equal(cleared.expires_at, null);
    await svc.http
      .put(`/memory/${m.id}`)
      .set(auth)
      .send({ expires_at: at(1000) })
      .expect(200);
    clock.advance(1000);
    assert.deepEqual(await recall(), []);
    // The key of the expired memory: a store by key creates (201), not an update of what is gone.
    const fresh = await store({ category: 'preference', key: 'tea', content: 'Black tea' });
    assert.notEqual(fresh.id, m.id);
    assert.deepEqual(await recall(), [fresh.id]);
  });

  test('as_of and include_past over every combination of valid_from and valid_to', async () => {
    const { store, recall, stats } = await mind();
    const past = (days: number) => at(-days * DAY);
    const future = (days: number) => at(days * DAY);
    // Bounds: none, past, future, both; [name, valid_from, valid_to].
    const cases: Array<[string, string | undefined, string | undefined]> = [
      ['open', undefined, undefined],
      ['from-past', past(10), undefined],
      ['from-future', future(10), undefined],
      ['to-past', undefined, past(10)],
      ['to-future', undefined, future(10)],
      ['past-past', past(20), past(10)],
      ['past-future', past(10), future(10)],
      ['future-future', future(10), future(20)],
    ];
    const ids = new Map<string, string>();
    for (const [name, valid_from, valid_to] of cases) {
      const m = await store({ category: 'fact', content: `fact ${name}`, valid_from, valid_to });
      assert.equal(m.valid_from, valid_from ?? null);
      assert.equal(m.valid_to, valid_to ?? null);
      ids.set(m.id, name);
    }
    const names = async (query: Record<string, string | boolean>) => {
      const found = [];
      for (const words of [{}, { q: 'fact', mode: 'keyword' }])
        found.push((await recall({ ...query, ...words, limit: 50 })).map((id) => ids.get(id)).sort());
      assert.deepEqual(found[0], found[1], 'with and without words alike');
      return found[0];
    };
    assert.deepEqual(await names({}), ['from-past', 'open', 'past-future', 'to-future']);
    assert.equal((await stats()).total, 4);
    assert.deepEqual(await names({ as_of: past(15) }), ['open', 'past-past', 'to-future', 'to-past']);
    assert.deepEqual(await names({ as_of: future(15) }), ['from-future', 'from-past', 'future-future', 'open']);
    assert.deepEqual(
      await names({ as_of: past(10) }),
      ['from-past', 'open', 'past-future', 'to-future'],
      'valid_from inclusive, valid_to exclusive',
    );
    assert.deepEqual(await names({ include_past: true }), cases.map(([n]) => n).sort());
    assert.deepEqual(await names({ include_past: true, as_of: past(15) }), cases.map(([n]) => n).sort(), 'include_past wins');
  });
});
