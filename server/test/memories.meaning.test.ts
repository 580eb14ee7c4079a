// Recall by meaning (issue 19): memories are embedded in the background and found by their meaning,
// fused with the keyword ranking; credentials never are; every provider and failure on real parts.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startService, TEST_EMBEDDINGS_CACHE, type TestService, useService } from './harness.js';
import { type FakeEmbeddings, startFakeEmbeddings } from './embeddings/fake-openai.js';
import { eventually } from './webhooks/receiver.js';
import { FUSION_DEFAULTS } from '../src/embeddings/fusion.js';
import { blendLikelihood, fusionLikelihood } from '../src/search/score-calibration.js';

type Hit = { id: string; content: string; score: number; match: string; category: string };

function helpers(svc: TestService) {
  return async () => {
    const m = await svc.mind();
    const store = async (body: Record<string, unknown>) =>
      (
        await svc.http
          .post('/memory')
          .set(m.auth)
          .send({ category: 'fact', ...body })
          .expect(201)
      ).body as { id: string };
    const recall = async (query: Record<string, string>) =>
      (await svc.http.get('/memory/recall').query(query).set(m.auth).expect(200)).body as { memories: Hit[]; next_cursor: string | null };
    const pending = async () => (await svc.http.get('/memory/stats').set(m.auth).expect(200)).body.pending_embeddings as number;
    const embedded = () => eventually(async () => (await pending()) === 0, 20_000, 'every memory embedded');
    return { ...m, store, recall, pending, embedded };
  };
}

const FACTS = [
  "The user's daughter Mia started violin lessons in September.",
  'The car is due for its annual service at the garage in March.',
  'Allergic to peanuts; avoid recipes with nuts.',
  'Prefers short sentences and British spelling.',
];

describe('recall by meaning with the local embedder (the default)', () => {
  const svc = useService({ MIND_EMBEDDINGS: 'local' });
  const mind = helpers(svc);

  test('a memory is found by keyword at once, and by its meaning once embedded', async () => {
    const m = await mind();
    const [violin] = await Promise.all(FACTS.map((content) => m.store({ content })));
    const right = await m.recall({ q: 'violin lessons' });
    assert.equal(right.memories[0]?.id, violin!.id, 'found by its words before or after embedding');
    await m.embedded();
    const asked = await m.recall({ q: 'Which musical instrument does our kid play?', mode: 'semantic' });
    assert.equal(asked.memories[0]?.id, violin!.id);
    assert.equal(asked.memories[0]?.match, 'semantic');
    const hybrid = await m.recall({ q: 'violin' });
    assert.equal(hybrid.memories[0]?.id, violin!.id);
    assert.equal(hybrid.memories[0]?.match, 'both');
    const keyword = await m.recall({ q: 'Which musical instrument does our kid play?', mode: 'keyword' });
    assert.ok(keyword.memories.every((h) => h.match === 'keyword'));
    assert.ok(!keyword.memories.some((h) => h.id === violin!.id), 'no word in common: keyword alone does not find it');
  });

  test('credentials are never embedded, nor returned by recall by meaning', async () => {
    const m = await mind();
    await m.store({ content: 'The violin teacher is Mrs Novak.' });
    const secret = await m.store({ category: 'credentials', key: 'violin-school', content: 'violin school portal password hunter2' });
    await m.embedded();
    const vectors = await svc.ctx
      .db('memory_vectors')
      .join('memories', 'memories.seq', 'memory_vectors.memory_seq')
      .where('memories.id', secret.id);
    assert.equal(vectors.length, 0);
    for (const query of <Array<Record<string, string>>>[{ q: 'violin password', mode: 'semantic' }, { q: 'violin password' }]) {
      assert.ok(!(await m.recall(query)).memories.some((h) => h.id === secret.id), JSON.stringify(query));
    }
    // Asked for by category, credentials are found by keyword (key and tags) only.
    const asked = await m.recall({ q: 'violin', category: 'credentials' });
    assert.deepEqual(
      asked.memories.map((h) => [h.id, h.match]),
      [[secret.id, 'keyword']],
    );
  });

  test('only a change of what is embedded queues a memory again: a verify does not', async () => {
    const m = await mind();
    const note = await m.store({ content: FACTS[1] });
    await m.embedded();
    await svc.http.post(`/memory/${note.id}/verify`).set('Authorization', `Bearer ${m.jwt}`).expect(200);
    assert.equal(await m.pending(), 0);
    await svc.http.put(`/memory/${note.id}`).set(m.auth).send({ content: 'The car goes to the garage in April.' }).expect(200);
    assert.equal(await m.pending(), 1);
  });

  test('a memory changed into a credential loses its vector', async () => {
    const m = await mind();
    const note = await m.store({ content: 'Bank login for the violin school fees' });
    await m.embedded();
    await svc.http.put(`/memory/${note.id}`).set(m.auth).send({ category: 'credentials', key: 'bank' }).expect(200);
    const vectors = await svc.ctx
      .db('memory_vectors')
      .join('memories', 'memories.seq', 'memory_vectors.memory_seq')
      .where('memories.id', note.id);
    assert.equal(vectors.length, 0);
    assert.equal(await m.pending(), 0);
  });

  test('hybrid recall pages through every hit once, scores never increasing', async () => {
    const m = await mind();
    for (let i = 0; i < 30; i++) await m.store({ content: `practice note ${i}: violin scales and bowing exercises` });
    await m.store({ content: 'Bought a new music stand for the practice room.' });
    await m.embedded();
    const seen: string[] = [];
    let cursor: string | null = null;
    let last = Number.POSITIVE_INFINITY;
    do {
      const page: { memories: Hit[]; next_cursor: string | null } = await m.recall({
        q: 'violin practice',
        limit: '7',
        ...(cursor ? { cursor } : {}),
      });
      for (const hit of page.memories) {
        assert.ok(hit.score <= last, 'scores never increase');
        last = hit.score;
        seen.push(hit.id);
      }
      cursor = page.next_cursor;
    } while (cursor);
    assert.equal(new Set(seen).size, seen.length, 'no hit twice');
    assert.ok(seen.length >= 31, `every keyword hit and the related note (${seen.length})`);
  });

  test('paging while the background worker is still embedding neither skips nor repeats a hit', async () => {
    const m = await mind();
    await Promise.all(Array.from({ length: 150 }, (_, i) => m.store({ content: `alpha item ${i} about the garden` })));
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { memories: Hit[]; next_cursor: string | null } = await m.recall({
        q: 'alpha item',
        limit: '9',
        ...(cursor ? { cursor } : {}),
      });
      seen.push(...page.memories.map((h) => h.id));
      cursor = page.next_cursor;
      await new Promise((r) => setTimeout(r, 30)); // the worker stores vectors between pages
    } while (cursor);
    assert.equal(new Set(seen).size, seen.length, 'no hit twice');
    assert.equal(seen.length, 150);
  });

  test('a page that ends exactly where the fused window ends still leads on to the keyword hits after it', async () => {
    const m = await mind();
    await Promise.all(Array.from({ length: 120 }, (_, i) => m.store({ content: `beta entry ${i} about the orchard` })));
    await m.embedded();
    const all = await m.recall({ q: 'beta entry', limit: '100' });
    const window = all.memories.filter((h) => h.score > 0).length; // the keyword tail follows with score 0
    assert.ok(window >= 50 && window < 100, `window of ${window}`);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { memories: Hit[]; next_cursor: string | null } = await m.recall({
        q: 'beta entry',
        limit: String(window),
        ...(cursor ? { cursor } : {}),
      });
      seen.push(...page.memories.map((h) => h.id));
      cursor = page.next_cursor;
    } while (cursor);
    assert.equal(new Set(seen).size, seen.length, 'no hit twice');
    assert.equal(seen.length, 120);
  });

  test('an import is embedded again', async () => {
    const a = await mind();
    await a.store({ content: FACTS[0] });
    await a.embedded();
    const doc = (await svc.http.get('/memory/mind-export').set(a.auth).expect(200)).body;
    const b = await mind();
    await svc.http.post('/memory/mind-import').set(b.auth).send(doc).expect(200);
    await b.embedded();
    const asked = await b.recall({ q: 'Which musical instrument does our kid play?', mode: 'semantic' });
    assert.equal(asked.memories[0]?.content, FACTS[0]);
  });

  test('mind-service reindex embeds a mind again, with a progress line', async () => {
    const m = await mind();
    for (const content of FACTS) await m.store({ content });
    await m.embedded();
    const before = await svc.ctx.db('memory_vectors').where({ mind_id: m.mindId }).max({ at: 'embedded_at' }).first();
    const run = spawnSync(process.execPath, ['server/bin/mind-service.mjs', 'reindex', m.mindId], {
      cwd: resolve(fileURLToPath(import.meta.url), '../../..'),
      env: {
        PATH: process.env.PATH,
        MIND_DATA_DIR: svc.dataDir,
        MIND_EMBEDDINGS_CACHE_DIR: TEST_EMBEDDINGS_CACHE,
        ...(svc.config.databaseUrl ? { DATABASE_URL: svc.config.databaseUrl } : {}),
      },
      encoding: 'utf8',
      timeout: 60_000,
    });
    assert.equal(run.status, 0, run.stderr);
    assert.match(run.stderr, /reindex: 4 memories queued for local-glove100-sif-v1/);
    // The running service may take a part (then the line says so in parentheses).
    assert.match(run.stdout, /^reindex: 4 of 4 memories embedded with local-glove100-sif-v1 in [\d.]+ s( \(.+\))?\n$/);
    assert.equal(await m.pending(), 0);
    const after = await svc.ctx.db('memory_vectors').where({ mind_id: m.mindId }).max({ at: 'embedded_at' }).first();
    assert.ok(String(after?.at) > String(before?.at), 'new vectors were stored');
  });

  test('/health and mode in the answers say how recall works', async () => {
    const health = (await svc.http.get('/health').expect(200)).body;
    assert.deepEqual(health.embeddings, { provider: 'local', model: 'local-glove100-sif-v1', state: 'ok' });
    const m = await mind();
    await svc.http.get('/memory/recall').query({ q: 'x', mode: 'fuzzy' }).set(m.auth).expect(400);
  });
});

describe('recall with embeddings off', () => {
  const svc = useService({ MIND_EMBEDDINGS: 'off' });
  const mind = helpers(svc);

  test('keyword recall as before; semantic is a 400 that says why; nothing pending', async () => {
    const m = await mind();
    await m.store({ content: FACTS[0] });
    const hits = (await m.recall({ q: 'violin' })).memories;
    assert.deepEqual(
      hits.map((h) => h.match),
      ['keyword'],
    );
    const res = await svc.http.get('/memory/recall').query({ q: 'violin', mode: 'semantic' }).set(m.auth).expect(400);
    assert.match(res.body.message, /MIND_EMBEDDINGS=off/);
    assert.equal(await m.pending(), 0);
    assert.deepEqual((await svc.http.get('/health').expect(200)).body.embeddings, { provider: 'off', model: null, state: 'off' });
  });
});

describe('recall by meaning with an OpenAI-compatible server', () => {
  let fake: FakeEmbeddings;
  let svc: TestService;
  before(async () => {
    fake = await startFakeEmbeddings();
    svc = await startService({ MIND_EMBEDDINGS: 'openai', MIND_EMBEDDINGS_MODEL: 'topics', MIND_EMBEDDINGS_URL: fake.url });
  });
  after(async () => {
    await svc.stop();
    await fake.close();
  });

  test('memories are embedded in batches and found by meaning', async () => {
    const m = await helpers(svc)();
    const [violin] = await Promise.all(FACTS.map((content) => m.store({ content })));
    await m.embedded();
    const asked = await m.recall({ q: 'what instrument', mode: 'semantic' });
    assert.equal(asked.memories[0]?.id, violin!.id);
    assert.deepEqual((await svc.http.get('/health').expect(200)).body.embeddings, { provider: 'openai', model: 'topics', state: 'ok' });
  });

  test("hybrid scores read the fusion's blend on the fusion's own curve", async () => {
    const m = await helpers(svc)();
    const [violin] = await Promise.all(FACTS.map((content) => m.store({ content })));
    await m.embedded();
    const [first] = (await m.recall({ q: 'what instrument', mode: 'hybrid' })).memories;
    assert.equal(first?.id, violin!.id);
    assert.equal(first.match, 'semantic');
    // No keyword hit: the first hit's blend is the meaning's share of the fusion alone.
    const blend = 1 - (FUSION_DEFAULTS as { keywordWeight: number }).keywordWeight;
    assert.equal(first.score, fusionLikelihood(blend));
    assert.notEqual(fusionLikelihood(blend), blendLikelihood(blend), 'the two curves differ there');
  });

  test('while the server is down memories wait, recall works by keyword and /health says why; then they are embedded', async () => {
    const m = await helpers(svc)();
    fake.down = true;
    try {
      const violin = await m.store({ content: FACTS[0] });
      await eventually(async () => (await svc.http.get('/health').expect(200)).body.embeddings.state === 'failing', 10_000, 'failing');
      const health = (await svc.http.get('/health').expect(200)).body.embeddings;
      assert.match(health.detail, /503/);
      const hits = (await m.recall({ q: 'violin lessons' })).memories;
      assert.deepEqual(
        hits.map((h) => [h.id, h.match]),
        [[violin.id, 'keyword']],
      );
      assert.equal(await m.pending(), 1);
    } finally {
      fake.down = false;
    }
    await m.embedded(); // the worker's next retry (a growing pause, 1 s first)
    assert.equal((await svc.http.get('/health').expect(200)).body.embeddings.state, 'ok');
  });

  test('a slow server does not hold up recall: past 3 s the question is ranked by keyword', async () => {
    const m = await helpers(svc)();
    const violin = await m.store({ content: FACTS[0] });
    await m.embedded();
    fake.delayMs = 5_000;
    try {
      const started = Date.now();
      const hits = (await m.recall({ q: 'violin lessons tomorrow' })).memories;
      assert.ok(Date.now() - started < 4_500, `answered in ${Date.now() - started} ms`);
      assert.equal(hits[0]?.id, violin.id);
    } finally {
      fake.delayMs = 0;
    }
  });
});
