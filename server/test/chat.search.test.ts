// Chat search (issue 31): GET /mind/chat/search finds a mind's chat messages by words and by meaning,
// with thread, role and since filters, cursor paging and tenancy; on both databases through HTTP.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { before, describe, test } from 'node:test';
import { openDatabase } from '../src/db/database.js';
import { loadConfig } from '../src/lib/config.js';
import { migrationSource } from '../src/migrations.js';
import { bearer, freshPostgresSchema, startService, TEST_DATABASE_URL, TestClock, type TestService, useService } from './harness.js';
import { eventually } from './webhooks/receiver.js';

type Hit = { id: string; role: string; content: string; thread: string; created_at: string; score: number; match: string };
type Page = { messages: Hit[]; next_cursor: string | null };

function helpers(svc: TestService) {
  return async () => {
    const m = await svc.mind();
    const post = async (content: string, extra: Record<string, unknown> = {}) =>
      (
        await svc.http
          .post('/mind/chat')
          .set(m.auth)
          .send({ role: 'human', content, ...extra })
          .expect(201)
      ).body as Hit;
    const search = async (query: Record<string, string | number>) =>
      (await svc.http.get('/mind/chat/search').set(m.auth).query(query).expect(200)).body as Page;
    const all = async (query: Record<string, string | number>) => {
      const hits: Hit[] = [];
      let cursor: string | null = null;
      do {
        const page: Page = await search(cursor ? { ...query, cursor } : query);
        hits.push(...page.messages);
        cursor = page.next_cursor;
      } while (cursor);
      return hits;
    };
    return { ...m, post, search, all };
  };
}

const ids = (hits: Hit[]) => hits.map((h) => h.id);

describe('chat search by words', () => {
  const clock = new TestClock();
  const svc = useService({}, { clock });
  const mind = helpers(svc);

  test('finds messages of every thread by their words, best first; hybrid without embeddings is by keyword', async () => {
    const m = await mind();
    const budget = await m.post('The budget review moved to Thursday.', { thread: 'work' });
    const twice = await m.post('Budget, budget: the budget review needs the numbers first, with every receipt attached.', {
      role: 'agent',
    });
    await m.post('Lunch at noon?');
    const hits = (await m.search({ q: 'budget review' })).messages;
    assert.deepEqual(ids(hits).sort(), [budget.id, twice.id].sort());
    assert.equal(hits[0]!.id, budget.id, 'a word counts once: the shorter message holding both words ranks first');
    assert.ok(hits[0]!.score > hits[1]!.score && hits[1]!.score > 0);
    assert.ok(hits.every((h) => h.match === 'keyword'));
    assert.deepEqual(Object.keys(hits[0]!).sort(), ['content', 'created_at', 'id', 'match', 'role', 'score', 'thread']);
    assert.deepEqual(ids((await m.search({ q: 'BÚDGET', mode: 'keyword' })).messages).sort(), [budget.id, twice.id].sort());
    assert.deepEqual((await m.search({ q: 'nothing matches this' })).messages, []);
  });

  test('thread, role and since filter', async () => {
    const m = await mind();
    const old = await m.post('garden plan: tomatoes', { thread: 'home' });
    clock.advance(86_400_000);
    const since = new Date(clock.now().getTime() - 1000).toISOString();
    const agent = await m.post('garden plan: beans', { role: 'agent', thread: 'home' });
    const other = await m.post('garden plan: roses', { thread: 'other' });
    assert.deepEqual(ids((await m.search({ q: 'garden', thread: 'home' })).messages).sort(), [old.id, agent.id].sort());
    assert.deepEqual(ids((await m.search({ q: 'garden', role: 'agent' })).messages), [agent.id]);
    assert.deepEqual(ids((await m.search({ q: 'garden', since })).messages).sort(), [agent.id, other.id].sort());
    assert.deepEqual(ids((await m.search({ q: 'garden', since, role: 'human', thread: 'other' })).messages), [other.id]);
  });

  test('pages walk every hit once, in order, with a cursor bound to the search', async () => {
    const m = await mind();
    const posted = new Set<string>();
    for (let i = 0; i < 45; i++) posted.add((await m.post(`${'invoice '.repeat(1 + (i % 4))}number ${i}`)).id);
    await m.post('unrelated');
    const hits = await m.all({ q: 'invoice', limit: 10 });
    assert.equal(hits.length, 45);
    assert.deepEqual(new Set(ids(hits)), posted);
    for (let i = 1; i < hits.length; i++) assert.ok(hits[i - 1]!.score >= hits[i]!.score, 'best first across pages');
    const first = await m.search({ q: 'invoice', limit: 10 });
    const other = await svc.http.get('/mind/chat/search').set(m.auth).query({ q: 'invoice', thread: 'x', cursor: first.next_cursor! });
    assert.equal(other.status, 400);
    assert.equal(other.body.code, 'cursor_invalid');
  });

  test("another mind's messages never appear and never change this mind's scores", async () => {
    const a = await mind();
    const b = await mind();
    for (const content of ['quarterly budget review', 'budget', 'review the garden budget', 'the review']) await a.post(content);
    const before = (await a.search({ q: 'budget review', mode: 'keyword' })).messages.map((h) => [h.id, h.score]);
    const theirs = new Set<string>();
    for (let i = 0; i < 300; i++) theirs.add((await b.post(`budget budget review ${i} with many more words in it`)).id);
    const after = (await a.search({ q: 'budget review', mode: 'keyword' })).messages;
    assert.deepEqual(
      after.map((h) => [h.id, h.score]),
      before,
    );
    assert.ok(!(await a.all({ q: 'budget review', limit: 100 })).some((h) => theirs.has(h.id)));
    assert.equal((await b.search({ q: 'quarterly' })).messages.length, 0);
  });

  test('imported messages are found; a deleted mind leaves nothing in the index', async () => {
    const m = await mind();
    const doc = {
      format: 'mind-export/1',
      exported_at: '2026-11-22T01:29:42.123Z',
      memories: [],
      tasks: [],
      chat: [
        {
          id: '0b6f5a62-3f5e-4e8e-9a52-2c7d3f3f1a10',
          role: 'agent',
          content: 'The zeppelin lands at dawn.',
          thread: 'travel',
          created_at: '2026-11-20T10:00:00.000Z',
        },
      ],
      scripts: [],
      webhooks: [],
    };
    const imported = await svc.http.post('/memory/mind-import').set(m.auth).send(doc);
    assert.equal(imported.status, 200, JSON.stringify(imported.body));
    const [hit] = (await m.search({ q: 'zeppelin', thread: 'travel' })).messages;
    assert.equal(hit?.content, 'The zeppelin lands at dawn.');
    await m.post('zeppelin again');
    await svc.http.delete(`/minds/${m.mindId}`).set(bearer(m.jwt)).expect(204);
    await eventually(
      async () => Number((await svc.ctx.db('chat_messages').where({ mind_id: m.mindId }).count({ n: '*' }))[0]!.n) === 0,
      10_000,
      'purged',
    );
    if (svc.ctx.dialect.name === 'sqlite') {
      assert.equal((await svc.ctx.db('chat_rank').where({ mind_id: m.mindId }).count({ n: '*' }))[0]!.n, 0);
      assert.equal((await svc.ctx.db('chat_search_stats').where({ mind_id: m.mindId }).count({ n: '*' }))[0]!.n, 0);
      const prefix = `m${m.mindId.replaceAll('-', '')}`;
      assert.equal((await svc.ctx.db.raw(`SELECT count(*) AS n FROM chat_fts_words WHERE term LIKE ?`, [`${prefix}%`]))[0].n, 0);
    }
  });

  test('bad input is a 400 naming the field', async () => {
    const m = await mind();
    const bad = async (query: Record<string, string>, path: string) => {
      const res = await svc.http.get('/mind/chat/search').set(m.auth).query(query);
      assert.equal(res.status, 400, JSON.stringify(query));
      assert.ok(
        (res.body.details as Array<{ path: string }>).some((d) => d.path === path),
        `${JSON.stringify(query)}: ${JSON.stringify(res.body)}`,
      );
    };
    await bad({}, 'query.q');
    await bad({ q: '?!' }, 'query.q');
    await bad({ q: 'x'.repeat(1001) }, 'query.q');
    await bad({ q: 'hi', limit: '0' }, 'query.limit');
    await bad({ q: 'hi', limit: '101' }, 'query.limit');
    await bad({ q: 'hi', mode: 'fuzzy' }, 'query.mode');
    await bad({ q: 'hi', mode: 'semantic' }, 'query.mode'); // embeddings are off here
    await bad({ q: 'hi', since: 'yesterday' }, 'query.since');
    await bad({ q: 'hi', role: 'user' }, 'query.role');
    await bad({ q: 'hi', cursor: 'not-a-cursor' }, 'query.cursor');
    await svc.http.get('/mind/chat/search').query({ q: 'hi' }).expect(401);
  });
});

describe('chat search by meaning (local embedder)', () => {
  const svc = useService({ MIND_EMBEDDINGS: 'local' });
  const mind = helpers(svc);

  // The local embedder loads its model with its first job. Chat search gives the embedder 3 s and
  // then answers by keyword; on a loaded machine the first load alone took longer. These tests are
  // about ranking by meaning, so they start once the model answers (a memory embedded).
  before(async () => {
    const { auth } = await svc.mind();
    await svc.http.post('/memory').set(auth).send({ category: 'fact', content: 'the model is loaded' }).expect(201);
    await eventually(
      async () => (await svc.http.get('/memory/stats').set(auth).expect(200)).body.pending_embeddings === 0,
      30_000,
      'the local embedder answers',
    );
  });

  test('a paraphrase finds a message without a word in common; hybrid finds it too, keyword does not', async () => {
    const m = await mind();
    const violin = await m.post("The user's daughter Mia started violin lessons in September.", { thread: 'family' });
    await m.post('The car is due for its annual service at the garage in March.', { role: 'agent' });
    await m.post('Allergic to peanuts; avoid recipes with nuts.');
    const q = 'Which musical instrument does our kid play?';
    const semantic = (await m.search({ q, mode: 'semantic' })).messages;
    assert.equal(semantic[0]?.id, violin.id);
    assert.equal(semantic[0]?.match, 'semantic');
    assert.equal((await m.search({ q })).messages[0]?.id, violin.id);
    assert.ok(!(await m.search({ q, mode: 'keyword' })).messages.some((h) => h.id === violin.id));
    assert.equal((await m.search({ q: 'violin lessons' })).messages[0]?.match, 'both');
    // The filters hold by meaning too.
    assert.ok(!(await m.search({ q, mode: 'semantic', thread: 'default' })).messages.some((h) => h.id === violin.id));
    assert.ok(!(await m.search({ q, mode: 'semantic', role: 'agent' })).messages.some((h) => h.id === violin.id));
  });

  test('hybrid pages past the window without repeats, and another mind never appears', async () => {
    const m = await mind();
    const other = await mind();
    const theirs = new Set<string>();
    for (let i = 0; i < 20; i++) theirs.add((await other.post(`weather report ${i}: rain`)).id);
    const posted = new Set<string>();
    // 120 keyword hits (a window of 50, then the tail), all older than the last 200 messages.
    for (let i = 0; i < 120; i++) posted.add((await m.post(`weather report ${i}: ${i % 2 ? 'sunny' : 'cloudy'} skies`)).id);
    for (let i = 0; i < 200; i++) await m.post(`shopping list item ${i}`);
    const recent = await m.post('one more weather note');
    posted.add(recent.id);
    const hits = await m.all({ q: 'weather', limit: 15 });
    assert.equal(new Set(ids(hits)).size, hits.length, 'no repeats');
    for (const id of posted) assert.ok(ids(hits).includes(id), 'every keyword hit is shown');
    assert.equal(hits.filter((h) => h.score === 0 && h.match === 'keyword').length, posted.size - 50, 'past the window: the tail');
    assert.ok(!hits.some((h) => theirs.has(h.id)));
    const semantic = await m.all({ q: 'forecast rain', mode: 'semantic', limit: 7 });
    assert.equal(new Set(ids(semantic)).size, semantic.length);
    assert.ok(!semantic.some((h) => theirs.has(h.id)));
  });
});

test('migration 0560 indexes the messages stored before it; its down takes the index away', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'mind-chat-search-'));
  const schema = TEST_DATABASE_URL ? await freshPostgresSchema(TEST_DATABASE_URL) : undefined;
  const env: Record<string, string> = { MIND_DATA_DIR: dataDir, ...(schema ? { DATABASE_URL: schema.url } : {}) };
  try {
    let svc = await startService(env);
    const m = await helpers(svc)();
    const kept = await m.post('The lighthouse keeper logs every ship.');
    await svc.stop();
    const db = openDatabase(loadConfig(env));
    try {
      // The migrations after 0560 go down first, 0561 (PostgreSQL's ranking columns; nothing on SQLite) among them.
      const undone: string[] = [];
      while (!undone.includes('0560_chat_search')) {
        const [, names] = (await db.migrate.down({ migrationSource })) as [number, string[]];
        assert.ok(names.length > 0, `nothing left to undo after ${undone.join(', ')}`);
        undone.push(...names);
      }
      assert.equal(undone.at(-1), '0560_chat_search');
      assert.ok(undone.includes('0561_chat_ranking_postgres'), undone.join(', '));
      if (schema) assert.equal(await db.schema.hasColumn('chat_messages', 'search_vector'), false);
      else assert.equal(await db.schema.hasTable('chat_rank'), false);
      // A message stored by the code of before (no index).
      await db('chat_messages').insert({
        id: crypto.randomUUID(),
        mind_id: m.mindId,
        thread: 'default',
        role: 'agent',
        content: 'Ships pass the lighthouse at night.',
        created_at: new Date().toISOString(),
      });
    } finally {
      await db.destroy();
    }
    svc = await startService(env);
    const search = async (q: string) => (await svc.http.get('/mind/chat/search').set(m.auth).query({ q }).expect(200)).body as Page;
    assert.equal((await search('lighthouse')).messages.length, 2);
    assert.deepEqual(ids((await search('keeper')).messages), [kept.id]);
    await svc.stop();
  } finally {
    await schema?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
});
