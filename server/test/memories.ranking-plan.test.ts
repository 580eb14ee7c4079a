// Issue 32: on PostgreSQL a ranked recall finds its candidates through the GIN index and reads only
// them. With PostgreSQL's default random_page_cost (4) the planner scanned the whole table for a
// word in 5-10 % of a large mind, testing every row's words (146 against 56 ms over 100,000
// memories); the service's connections price random reads as SSDs and memory do.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { TEST_DATABASE_URL, useService } from './harness.js';
import { seedNotes } from './memories/seed.js';

const WORDS = 'river stone market window garden yellow quiet morning coffee friend travel music paper lantern harbor valley'.split(' ');

describe('ranked recall on PostgreSQL', { skip: TEST_DATABASE_URL ? false : 'PostgreSQL only (MIND_TEST_DATABASE_URL)' }, () => {
  const svc = useService();

  test('the candidates of a word in 8 % of a large mind come from the GIN index, not a scan of the table', async () => {
    const { mindId, auth } = await svc.mind();
    // Rows the size of the benchmark's (bench/memories.ts): about 30 words, most of them rare.
    const notes = Array.from({ length: 6000 }, (_, i) => {
      const words = Array.from({ length: 30 }, (_, j) =>
        j % 3 ? `${WORDS[(i + j) % WORDS.length]}${(i * 31 + j * 17) % 997}` : WORDS[(i * 7 + j * 5) % WORDS.length],
      );
      return { content: `${words.join(' ')}${i % 12 === 0 ? ' kiwi' : ''} number${i}`, tags: [`tag${i % 50}`] };
    });
    await seedNotes(svc, mindId, notes);
    await svc.ctx.db.raw('ANALYZE memories');

    // The ranking statement's candidates (db/postgres-bm25.ts), planned on one of the service's connections.
    const plan = await svc.ctx.db.raw(
      `EXPLAIN SELECT m.seq FROM memories m WHERE m.mind_id = ? AND m.search_vector @@ to_tsquery('simple', 'kiwi | kiwis')`,
      [mindId],
    );
    const text = (plan.rows as Array<{ 'QUERY PLAN': string }>).map((row) => row['QUERY PLAN']).join('\n');
    assert.match(text, /Bitmap Index Scan on memories_search/, text);
    assert.doesNotMatch(text, /Seq Scan on memories/, text);

    // And recall answers them, best first.
    const res = await svc.http.get('/memory/recall').query({ q: 'kiwi', mode: 'keyword', limit: 5 }).set(auth).expect(200);
    assert.equal(res.body.memories.length, 5);
    for (const hit of res.body.memories) assert.match(hit.content, /kiwi/);
  });

  test("POST /memory's statement writes the row's length and repeated words itself, and the mind's statistics count them", async () => {
    const { mindId, auth } = await svc.mind();
    const words = async () =>
      (await svc.ctx.db('memory_search_stats').where({ mind_id: mindId }).first(svc.ctx.db.raw('sum(words)::int AS words'))) as {
        words: number | null;
      };
    const before = (await words()).words ?? 0;
    // Without the trigger that fills them for other writers (migration 0534): the statement must write them.
    await svc.ctx.db.raw('ALTER TABLE memories DISABLE TRIGGER memories_ranking_columns_insert');
    const [note, secret] = await Promise.all([
      svc.http
        .post('/memory')
        .set(auth)
        .send({ category: 'note', content: 'Kiwi and kiwi, the kiwi; the plum', tags: ['fruit'] }),
      svc.http.post('/memory').set(auth).send({ category: 'credentials', content: 'pin 1234' }),
    ]).finally(() => svc.ctx.db.raw('ALTER TABLE memories ENABLE TRIGGER memories_ranking_columns_insert'));
    assert.deepEqual([note.status, secret.status], [201, 201]);
    const row = async (id: string) => await svc.ctx.db('memories').where({ id }).first('search_words', 'search_counts');
    // kiwi, plum and fruit (and, the: stop words); kiwi three times, the twice.
    assert.deepEqual(await row(note.body.id), { search_words: 3, search_counts: { kiwi: 3, the: 2 } });
    assert.deepEqual(await row(secret.body.id), { search_words: null, search_counts: null });
    assert.equal((await words()).words, before + 3);
  });
});
