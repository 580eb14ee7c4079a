// Tenants apart in search (issue 28, findings 1 and 4): what one mind stores can never reach into
// another mind's part of the search index, and never moves another mind's scores or order.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { keywordIndexMigrations } from '../src/memories/keyword-index-migrations.js';
import { timeMigrations } from '../src/memories/time-migrations.js';
import { type TestService, useService } from './harness.js';
import { eventually } from './webhooks/receiver.js';

type Answer = { memories: Array<{ id: string; score: number; match: string }>; next_cursor: string | null };

function tenant(svc: TestService, m: Awaited<ReturnType<TestService['mind']>>) {
  return {
    ...m,
    store: async (body: Record<string, unknown>) =>
      (
        await svc.http
          .post('/memory')
          .set(m.auth)
          .send({ category: 'fact', ...body })
          .expect(201)
      ).body,
    recall: async (query: Record<string, string>) =>
      (await svc.http.get('/memory/recall').query(query).set(m.auth).expect(200)).body as Answer,
    embedded: () =>
      eventually(
        async () => (await svc.http.get('/memory/stats').set(m.auth).expect(200)).body.pending_embeddings === 0,
        20_000,
        'every memory embedded',
      ),
  };
}

/** Characters FTS5's unicode61 tokenizer split words at and the server's word splitter did not. */
const SPLITTERS = [0x19b0, 0x19b5, 0x19c0, 0x19c8, 0x19c9, 0x1cf2, 0x1cf3].map((c) => String.fromCodePoint(c));

/** Every answer a mind gives to the questions, in every mode, scores included. */
async function answers(t: ReturnType<typeof tenant>, questions: string[]) {
  const all: Record<string, Answer> = {};
  for (const q of questions) for (const mode of ['keyword', 'hybrid', 'semantic']) all[`${q} ${mode}`] = await t.recall({ q, mode });
  return all;
}

describe('tenants apart in search', () => {
  const svc = useService({ MIND_EMBEDDINGS: 'local' });

  test("words crafted with another mind's id never reach that mind's recall, in content or tags", async () => {
    const victim = tenant(svc, await svc.mind());
    const attacker = tenant(svc, await svc.mind());
    for (let i = 0; i < 5; i++) await victim.store({ content: `the quokka number ${i} lives on the island` });
    for (let i = 0; i < 3; i++) await victim.store({ content: `note ${i}`, tags: ['wombat', `burrow${i}`] });
    await victim.embedded();
    const questions = ['quokka', 'wombat', 'quokka island wombat'];
    const before = await answers(victim, questions);
    assert.equal(before['quokka keyword']!.memories.length, 5);
    assert.equal(before['wombat keyword']!.memories.length, 3);

    const victimPrefix = `m${victim.mindId.replaceAll('-', '')}`;
    const poison = (word: string) => SPLITTERS.map((c) => `x${c}${victimPrefix}${word}`);
    await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        attacker.store({ content: `${poison('quokka').join(' ')} ${poison('wombat').join(' ')} ${i}`, tags: poison('wombat').slice(0, 3) }),
      ),
    );
    await attacker.embedded();

    assert.deepEqual(await answers(victim, questions), before);
    if (svc.ctx.dialect.name !== 'postgres') {
      // Whatever the index holds under the victim's prefix belongs to the victim's memories.
      const owners = await svc.ctx
        .db('memories_fts_terms as v')
        .join('memories as m', 'm.seq', 'v.doc')
        .where('v.term', '>=', victimPrefix)
        .andWhere('v.term', '<', `${victimPrefix}~`)
        .distinct('m.mind_id')
        .pluck('m.mind_id');
      assert.deepEqual(owners, [victim.mindId]);
    }
  });

  test("another account's writes, updates and deletes leave a mind's scores and order identical", async () => {
    const a = tenant(svc, await svc.mind());
    const b = tenant(svc, await svc.mind());
    await a.store({ content: 'The garden hose is in the shed behind the garage.' });
    await a.store({ content: 'Water the garden plants every morning.', tags: ['garden'] });
    await a.store({ content: 'The shed key hangs next to the back door; the garden gate key too.' });
    await a.embedded();
    const questions = ['garden', 'shed key', 'garden hose shed'];
    const keyword = async () => {
      const all: Record<string, Answer> = {};
      for (const q of questions) all[q] = await a.recall({ q, mode: 'keyword' });
      return all;
    };
    const before = await keyword();
    assert.ok(before.garden!.memories.every((h) => h.score > 0));

    // Another account writes memories of every length holding the same words, then changes and deletes some.
    const written = [];
    for (let i = 0; i < 40; i++) {
      written.push(
        await b.store({
          content: `${'garden '.repeat(1 + (i % 7))}shed ${'words of filler text '.repeat(i % 11)}`,
          tags: i % 3 ? [] : ['garden'],
        }),
      );
    }
    for (const m of written.slice(0, 10)) await svc.http.put(`/memory/${m.id}`).set(b.auth).send({ content: 'key' }).expect(200);
    for (const m of written.slice(10, 20)) await svc.http.delete(`/memory/${m.id}`).set(b.auth).expect(204);
    assert.deepEqual(await keyword(), before);
  });

  test("hundreds of another mind's memories with the same words leave a mind's recall identical in every mode", async () => {
    const a = tenant(svc, await svc.mind());
    const b = tenant(svc, await svc.mind());
    await a.store({ content: 'The budget review for the garden project is on Friday.' });
    await a.store({ content: 'Review the quarterly budget with Sam before the board meeting.', tags: ['budget'] });
    await a.store({ content: 'The garden needs new tyres for the wheelbarrow.' });
    await a.embedded();
    const questions = ['budget review', 'When is the garden budget meeting?', 'wheelbarrow tires'];
    const before = await answers(a, questions);
    for (let i = 0; i < 300; i++) {
      await b.store({ content: `budget review ${'garden meeting '.repeat(i % 5)}notes ${i} ${'tyres '.repeat(i % 3)}`, tags: ['budget'] });
    }
    await b.embedded();
    assert.deepEqual(await answers(a, questions), before);
  });

  test("a mind's scores depend on what it holds now, not on how it got there", async () => {
    const history = tenant(svc, await svc.mind());
    const fresh = tenant(svc, await svc.mind());
    const final = ['apples and pears in the orchard', 'the orchard gate is green', 'pears ripen in autumn'];
    const scratch = [];
    for (let i = 0; i < 12; i++) scratch.push(await history.store({ content: `orchard ${'pears '.repeat(i)}` }));
    for (const m of scratch.slice(0, 6)) await svc.http.put(`/memory/${m.id}`).set(history.auth).send({ content: 'apples' }).expect(200);
    for (const m of scratch) await svc.http.delete(`/memory/${m.id}`).set(history.auth).expect(204);
    for (const content of final) {
      await history.store({ content });
      await fresh.store({ content });
    }
    for (const q of ['orchard', 'pears autumn', 'apples orchard gate']) {
      const scores = async (t: typeof fresh) => (await t.recall({ q, mode: 'keyword' })).memories.map((h) => h.score);
      assert.deepEqual(await scores(history), await scores(fresh), q);
    }
  });

  test('SQLite: the migration that rebuilds the index gives every mind the answers it had', async (t) => {
    if (svc.ctx.dialect.name === 'postgres') return t.skip('the search index migration is SQLite only');
    const a = tenant(svc, await svc.mind());
    const b = tenant(svc, await svc.mind());
    for (const content of ['red kite over the hill', 'a kite string', 'hill walking boots']) {
      await a.store({ content, tags: ['outdoors'] });
      await b.store({ content: `${content} and more` });
    }
    const questions = ['kite', 'hill', 'outdoors', 'kite hill boots'];
    const keyword = async (m: typeof a) => {
      const all: Record<string, Answer> = {};
      for (const q of questions) all[q] = await m.recall({ q, mode: 'keyword' });
      return all;
    };
    const before = [await keyword(a), await keyword(b)];
    await svc.ctx.db.transaction(async (trx) => {
      await keywordIndexMigrations[0]!.up(trx, svc.ctx.dialect);
      // The ranking copy as it is made, and then given the time bounds.
      await timeMigrations[1]!.up(trx, svc.ctx.dialect);
    });
    assert.deepEqual([await keyword(a), await keyword(b)], before);
  });
});
