import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { COMMON_WORD_MIN_TEXTS } from '../src/search/common-words.js';
import { bearer, TestClock, useService } from './harness.js';
import { seedNotes } from './memories/seed.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('memories: happy paths', () => {
  const clock = new TestClock();
  const svc = useService({}, { clock });

  /** A fresh mind per test, so no test depends on another's rows. */
  async function mind() {
    const m = await svc.mind();
    const { auth } = m;
    /** Stores a memory; the clock moves a second first so recency order is the order of calls. */
    const store = async (body: Record<string, unknown>, status = 201) => {
      clock.advance(1000);
      return (await svc.http.post('/memory').set(auth).send(body).expect(status)).body;
    };
    const recall = async (query: Record<string, string | number | string[] | undefined>) =>
      (await svc.http.get('/memory/recall').set(auth).query(query).expect(200)).body as {
        memories: Array<Record<string, unknown> & { id: string; score: number; updated_at: string }>;
        next_cursor: string | null;
      };
    return { ...m, store, recall };
  }
  const events = (mindId: string) =>
    svc.ctx
      .db('events')
      .where({ mind_id: mindId })
      .orderBy('created_at')
      .select('type', 'data')
      .then((rows) => rows.map((r) => ({ type: r.type, data: JSON.parse(r.data) })));

  test('POST /memory creates (201) the record and records memory.created with id, category, key and content', async () => {
    const { store, auth, mindId } = await mind();
    const created = await store({
      category: 'preference',
      key: 'writing-style',
      content: 'Short sentences.',
      tags: ['writing', ' style '],
      source: 'chat',
      id: 'x',
      verified: true,
    });
    assert.match(created.id, UUID);
    assert.deepEqual(
      { ...created, id: undefined, created_at: undefined, updated_at: undefined },
      {
        id: undefined,
        category: 'preference',
        key: 'writing-style',
        content: 'Short sentences.',
        tags: ['writing', 'style'],
        verified: false,
        verified_at: null,
        source: 'chat',
        created_at: undefined,
        updated_at: undefined,
        expires_at: null,
        valid_from: null,
        valid_to: null,
        superseded_by: null,
      },
    );
    assert.equal(created.created_at, created.updated_at);
    const got = await svc.http.get(`/memory/${created.id}`).set(auth).expect(200);
    assert.deepEqual(got.body, created);
    assert.deepEqual(await events(mindId), [
      { type: 'memory.created', data: { id: created.id, category: 'preference', key: 'writing-style', content: 'Short sentences.' } },
    ]);
  });

  test('POST /memory with an existing category and key updates that memory (200, memory.updated); other categories are separate', async () => {
    const { store, mindId } = await mind();
    const first = await store({ category: 'fact', key: 'home', content: 'Berlin', tags: ['city'] });
    const second = await store({ category: 'fact', key: 'home', content: 'Hamburg' }, 200);
    assert.equal(second.id, first.id);
    assert.equal(second.content, 'Hamburg');
    assert.deepEqual(second.tags, ['city'], 'omitted tags are kept');
    assert.equal(second.created_at, first.created_at);
    assert.ok(second.updated_at > first.updated_at);
    const other = await store({ category: 'note', key: 'home', content: 'a note' });
    assert.notEqual(other.id, first.id);
    // Without a key every store creates.
    const a = await store({ category: 'note', content: 'same' });
    const b = await store({ category: 'note', content: 'same' });
    assert.notEqual(a.id, b.id);
    assert.deepEqual(
      (await events(mindId)).map((e) => e.type),
      ['memory.created', 'memory.updated', 'memory.created', 'memory.created', 'memory.created'],
    );
  });

  test('PUT /memory/:id changes given fields, null clears key and source; an unchanged PUT records nothing', async () => {
    const { store, auth, mindId } = await mind();
    const m = await store({ category: 'project', key: 'p1', content: 'Build it', source: 'mail' });
    clock.advance(1000);
    const res = await svc.http
      .put(`/memory/${m.id}`)
      .set(auth)
      .send({ content: 'Build it well', tags: ['x'], key: null, source: null })
      .expect(200);
    assert.equal(res.body.content, 'Build it well');
    assert.equal(res.body.key, null);
    assert.equal(res.body.source, null);
    assert.deepEqual(res.body.tags, ['x']);
    assert.equal(res.body.category, 'project');
    assert.ok(res.body.updated_at > m.updated_at);
    const same = await svc.http.put(`/memory/${m.id}`).set(auth).send({ content: 'Build it well' }).expect(200);
    assert.deepEqual(same.body, res.body);
    assert.deepEqual(
      (await events(mindId)).map((e) => e.type),
      ['memory.created', 'memory.updated'],
    );
  });

  test('DELETE /memory/:id answers 204, the memory is gone (also from search) and memory.deleted carries its data', async () => {
    const { store, auth, mindId, recall } = await mind();
    const m = await store({ category: 'note', key: 'gone', content: 'ephemeral zebra' });
    await svc.http.delete(`/memory/${m.id}`).set(auth).expect(204, '');
    await svc.http.get(`/memory/${m.id}`).set(auth).expect(404);
    assert.deepEqual((await recall({ q: 'zebra' })).memories, []);
    const last = (await events(mindId)).at(-1);
    assert.deepEqual(last, { type: 'memory.deleted', data: { id: m.id, category: 'note', key: 'gone', content: 'ephemeral zebra' } });
  });

  test('recall: a word counts once however often a memory repeats it, so the shorter memory outranks the longer; each hit has its score', async () => {
    const { store, recall } = await mind();
    const repeats = await store({ category: 'note', content: 'giraffe giraffe giraffe ate green leaves beside the muddy river bank' });
    const short = await store({ category: 'note', content: 'the giraffe by the river' });
    await store({ category: 'note', content: 'nothing about that animal here at all' });
    const { memories } = await recall({ q: 'giraffe' });
    assert.deepEqual(
      memories.map((m) => m.id),
      [short.id, repeats.id],
    );
    assert.ok(memories[0]!.score > memories[1]!.score && memories[1]!.score > 0);
  });

  test('recall: a verified memory outranks an equal unverified one, even an older one', async () => {
    const { store, recall, jwt } = await mind();
    const older = await store({ category: 'fact', content: 'the capital of France is Paris' });
    const newer = await store({ category: 'fact', content: 'the capital of France is Paris' });
    assert.deepEqual(
      (await recall({ q: 'Paris' })).memories.map((m) => m.id),
      [newer.id, older.id],
      'equal scores: newest first',
    );
    await svc.http.post(`/memory/${older.id}/verify`).set(bearer(jwt)).expect(200);
    const { memories } = await recall({ q: 'paris' });
    assert.deepEqual(
      memories.map((m) => m.id),
      [older.id, newer.id],
    );
    assert.ok(memories[0]!.score > memories[1]!.score);
    assert.equal(memories[0]!.verified, true);
  });

  test('recall searches key, content and tags, ignores case and accents, and ranks memories matching more words higher', async () => {
    const { store, recall } = await mind();
    const byKey = await store({ category: 'skill', key: 'kubernetes-deploy', content: 'use helm' });
    const byTag = await store({ category: 'skill', content: 'rollout steps', tags: ['Kubernetes'] });
    const byContent = await store({ category: 'skill', content: 'KUBERNETES needs a cluster' });
    const both = await store({ category: 'skill', content: 'kubernetes cluster upgrade notes for the café' });
    const hits = (await recall({ q: 'kubernetes' })).memories.map((m) => m.id);
    assert.deepEqual(new Set(hits), new Set([byKey.id, byTag.id, byContent.id, both.id]));
    const two = (await recall({ q: 'kubernetes cluster' })).memories.map((m) => m.id);
    assert.equal(two.length, 4, 'any word matches');
    assert.deepEqual(new Set(two.slice(0, 2)), new Set([byContent.id, both.id]), 'both words rank first');
    assert.deepEqual(
      (await recall({ q: 'cafe' })).memories.map((m) => m.id),
      [both.id],
    );
  });

  test('recall without q lists newest first with score 0; filters category, key, tags (all given), verified and since combine', async () => {
    const { store, recall, jwt } = await mind();
    const a = await store({ category: 'note', key: 'a', content: 'one', tags: ['red', 'blue'] });
    const b = await store({ category: 'note', key: 'b', content: 'two', tags: ['red'] });
    const c = await store({ category: 'fact', key: 'c', content: 'three', tags: ['blue'] });
    await svc.http.post(`/memory/${b.id}/verify`).set(bearer(jwt)).expect(200);

    const all = await recall({});
    assert.deepEqual(
      all.memories.map((m) => m.id),
      [c.id, b.id, a.id],
    );
    assert.ok(all.memories.every((m) => m.score === 0));
    assert.equal(all.next_cursor, null);
    const ids = async (q: Record<string, string | string[]>) => (await recall(q)).memories.map((m) => m.id);
    assert.deepEqual(await ids({ category: 'note' }), [b.id, a.id]);
    assert.deepEqual(await ids({ memory_key: 'a' }), [a.id]);
    assert.deepEqual(await ids({ tags: 'red' }), [b.id, a.id]);
    assert.deepEqual(await ids({ tags: ['red', 'blue'] }), [a.id]);
    assert.deepEqual(await ids({ verified: 'true' }), [b.id]);
    assert.deepEqual(await ids({ verified: 'false' }), [c.id, a.id]);
    assert.deepEqual(await ids({ since: b.updated_at }), [c.id, b.id]);
    assert.deepEqual(await ids({ since: b.updated_at, category: 'note', tags: 'red', q: 'two' }), [b.id]);
  });

  test('recall pages through 250 memories without losing or repeating one, with and without q', async () => {
    const { auth, recall } = await mind();
    // Many ties (same time, same score) so the id must break them.
    for (let i = 0; i < 250; i++) {
      if (i % 50 === 0) clock.advance(1000);
      await svc.http
        .post('/memory')
        .set(auth)
        .send({ category: 'note', content: `${'alpha '.repeat((i % 4) + 1)}item ${i}`, tags: i % 2 ? ['bulk', 'odd'] : ['bulk'] })
        .expect(201);
    }
    for (const query of [{}, { q: 'alpha' }, { q: 'alpha item' }, { tags: 'bulk' }]) {
      const seen: string[] = [];
      const scores: number[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const page = await recall({ ...query, limit: 17, ...(cursor ? { cursor } : {}) });
        assert.ok(page.memories.length <= 17);
        seen.push(...page.memories.map((m) => m.id));
        scores.push(...page.memories.map((m) => m.score));
        cursor = page.next_cursor;
        pages++;
      } while (cursor);
      assert.equal(seen.length, 250, `all 250 seen for ${JSON.stringify(query)}`);
      assert.equal(new Set(seen).size, 250, `no duplicates for ${JSON.stringify(query)}`);
      assert.equal(pages, Math.ceil(250 / 17));
      assert.deepEqual(
        scores,
        [...scores].sort((x, y) => y - x),
        'scores never increase',
      );
    }
    const odd: string[] = [];
    for (let cursor: string | null | undefined; cursor !== null; ) {
      const page = await recall({ tags: ['bulk', 'odd'], limit: 40, cursor });
      odd.push(...page.memories.map((m) => m.id));
      cursor = page.next_cursor;
    }
    assert.equal(new Set(odd).size, 125, 'two tags: every odd one, once');
    const first = await recall({});
    assert.equal(first.memories.length, 20, 'default limit 20');
    const max = await recall({ limit: 100 });
    assert.equal(max.memories.length, 100);
    assert.ok(max.next_cursor);
  });

  test('many memories: a word in at least a tenth of them weighs 0; memories with the rarer words lead, the rest follow newest first, none lost', async () => {
    const { mindId, recall } = await mind();
    // Seeded through the store in one transaction: 1,200 requests would take the test seconds.
    const total = COMMON_WORD_MIN_TEXTS + 200;
    const memories = await seedNotes(
      svc,
      mindId,
      Array.from({ length: total }, (_, i) => ({
        content: i === 10 ? 'alpha zebra zebra' : i === 20 ? 'alpha zebra plain' : i % 2 ? `alpha beta filler${i}` : `alpha filler${i}`,
      })),
    );
    const newestFirst = [...memories].reverse().map((m) => m.id);

    // alpha is common (in every memory): the two with zebra lead, ranked by zebra (a word counts once: the shorter first).
    const first = await recall({ q: 'alpha zebra', limit: 5 });
    assert.deepEqual(
      first.memories.slice(0, 2).map((m) => m.content),
      ['alpha zebra zebra', 'alpha zebra plain'],
    );
    assert.ok(first.memories[1]!.score > 0);
    assert.deepEqual(
      first.memories.slice(2).map((m) => m.score),
      [0, 0, 0],
    );
    assert.deepEqual(
      first.memories.slice(2).map((m) => m.id),
      newestFirst.slice(0, 3),
      'then the others, newest first',
    );

    // Only common words: newest first, score 0. beta, in 600 (under 1,000), is ranked: its memories
    // lead. Paging finds every match once.
    const withBeta = new Set(memories.filter((m) => m.content.includes('beta')).map((m) => m.id));
    for (const [q, expected] of [
      ['alpha', newestFirst],
      ['beta alpha', null],
      ['alpha zebra', null],
    ] as const) {
      const seen: string[] = [];
      let cursor: string | null = null;
      do {
        const page = await recall({ q, limit: 100, ...(cursor ? { cursor } : {}) });
        seen.push(...page.memories.map((m) => m.id));
        cursor = page.next_cursor;
      } while (cursor);
      assert.equal(new Set(seen).size, total, `every memory once for q=${q}`);
      if (expected) assert.deepEqual(seen, expected, `q=${q} lists newest first`);
      if (q === 'beta alpha') assert.deepEqual(new Set(seen.slice(0, withBeta.size)), withBeta, 'memories with beta first');
    }
  });

  test('q is never read as search syntax: quotes, operators, stars and colons are plain text', async () => {
    const { store, recall } = await mind();
    const m = await store({ category: 'note', content: 'NEAR the AND gate of column key: "quoted" text*' });
    for (const q of ['AND', 'NEAR(', 'key:', 'quoted"', '*text', '-gate', 'column : key', '(gate', 'gate OR', '^gate', '{key}']) {
      const res = await recall({ q });
      assert.deepEqual(
        res.memories.map((x) => x.id),
        [m.id],
        `q=${q}`,
      );
    }
    assert.deepEqual((await recall({ q: '😀 unknownword' })).memories, []);
  });

  test('GET /memory/stats names the mind of the key, counts by category, verified and the latest change; GET /minds shows memory_count and last_activity', async () => {
    const { store, auth, jwt, mindId } = await mind();
    const empty = await svc.http.get('/memory/stats').set(auth).expect(200);
    assert.deepEqual(empty.body, { mind_id: mindId, total: 0, by_category: {}, verified: 0, last_activity: null, pending_embeddings: 0 });
    const a = await store({ category: 'note', content: 'x' });
    await store({ category: 'note', content: 'y' });
    const c = await store({ category: 'credentials', key: 'pw', content: 'hunter2' });
    await svc.http.post(`/memory/${a.id}/verify`).set(bearer(jwt)).expect(200);
    const stats = await svc.http.get('/memory/stats').set(auth).expect(200);
    assert.deepEqual(stats.body, {
      mind_id: mindId,
      total: 3,
      by_category: { note: 2, credentials: 1 },
      verified: 1,
      last_activity: c.updated_at,
      pending_embeddings: 0, // embeddings are off in this service
    });

    const minds = await svc.http.get('/minds').set(bearer(jwt)).expect(200);
    const mine = minds.body.minds.find((x: { id: string }) => x.id === mindId);
    assert.equal(mine.memory_count, 3);
    assert.ok(mine.last_activity >= c.updated_at);
  });

  test('deleting a mind removes its memories, tags and search index rows', async () => {
    const { store, jwt, mindId } = await mind();
    const other = await mind();
    await store({ category: 'note', content: 'walrus facts', tags: ['sea'] });
    await store({ category: 'note', content: 'more walrus facts' });
    await other.store({ category: 'note', content: 'walrus elsewhere' });
    const seqs = await svc.ctx.db('memories').where({ mind_id: mindId }).pluck('seq');
    // SQLite keeps the index in its own FTS5 table (cleaned by a trigger); PostgreSQL in a column of the row.
    const postgres = svc.ctx.dialect.name === 'postgres';
    const index = () => (postgres ? svc.ctx.db('memories').whereNotNull('search_vector') : svc.ctx.db('memories_fts'));
    const indexed = async (rowids: number[]) => (await index().whereIn(postgres ? 'seq' : 'rowid', rowids)).length;
    assert.equal(await indexed(seqs), 2);
    const total = Number((await index().count({ n: '*' }))[0]!.n);
    await svc.http.delete(`/minds/${mindId}`).set(bearer(jwt)).expect(204);
    // The rows go in the background (minds/purge.ts); the mind's own row goes last.
    for (let i = 0; i < 500 && (await svc.ctx.db('minds').where({ id: mindId }).first('id')); i++)
      await new Promise((r) => setTimeout(r, 10));
    assert.equal(await indexed(seqs), 0, "the deleted mind's rows left the full-text index");
    assert.equal(Number((await index().count({ n: '*' }))[0]!.n), total - 2, 'and only those');
    assert.equal((await svc.ctx.db('memories').where({ mind_id: mindId })).length, 0);
    assert.equal((await svc.ctx.db('memory_tags').where({ mind_id: mindId })).length, 0);
    assert.deepEqual(
      (await other.recall({ q: 'walrus' })).memories.map((m) => m.content),
      ['walrus elsewhere'],
    );
  });
});
