// Recall's read-your-writes (`wait_ms`) and score floor (`min_score`), issue 31: over HTTP, on each
// database. The embedder is a real OpenAI-compatible server whose answers for chosen memories can be
// held back, so "not embedded yet" is a state the test sets, not a race it hopes to win.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { startService, type TestService, useService } from './harness.js';
import { topicVector } from './embeddings/fake-openai.js';
import { eventually } from './webhooks/receiver.js';

type Hit = { id: string; content: string; score: number; match: string };
type Page = { memories: Hit[]; next_cursor: string | null };

/** A tag that marks a memory whose embedding the gated server holds back (tags are part of what is embedded). */
const HELD = 'heldback';

/** Fixed topic vectors (fake-openai.ts); a batch holding a HELD text is answered only once `release()` is called. */
async function startGatedEmbeddings() {
  let open: Promise<void> = Promise.resolve();
  let release = () => {};
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', async () => {
      const { input } = JSON.parse(body) as { input: string[] };
      if (input.some((text) => text.includes(HELD))) await open;
      const data = input.map((text, index) => ({ object: 'embedding', index, embedding: topicVector(text) }));
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ object: 'list', data, model: 'topics' }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    hold() {
      open = new Promise((resolve) => (release = resolve));
    },
    release: () => release(),
    close: () =>
      new Promise<void>((resolve) => {
        release();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function mindOf(svc: TestService) {
  return async () => {
    const m = await svc.mind();
    const store = async (content: string, tags: string[] = []) =>
      (await svc.http.post('/memory').set(m.auth).send({ category: 'fact', content, tags }).expect(201)).body as { id: string };
    const get = (query: Record<string, string>) => svc.http.get('/memory/recall').query(query).set(m.auth);
    const recall = async (query: Record<string, string>) => {
      const res = await get(query);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      return res.body as Page;
    };
    const pending = async () => (await svc.http.get('/memory/stats').set(m.auth).expect(200)).body.pending_embeddings as number;
    const embedded = () => eventually(async () => (await pending()) === 0, 20_000, 'every memory embedded');
    return { ...m, store, get, recall, pending, embedded };
  };
}

const found = (page: Page, id: string) => page.memories.some((h) => h.id === id);

describe('wait_ms: a recall by meaning waits for the mind’s pending embeddings', () => {
  let gate: Awaited<ReturnType<typeof startGatedEmbeddings>>;
  let svc: TestService;
  before(async () => {
    gate = await startGatedEmbeddings();
    svc = await startService({ MIND_EMBEDDINGS: 'openai', MIND_EMBEDDINGS_MODEL: 'topics', MIND_EMBEDDINGS_URL: gate.url });
  });
  after(async () => {
    await svc.stop();
    await gate.close();
  });
  const mind = () => mindOf(svc)();

  test('store, then ask by meaning with wait_ms: the memory just stored is found', async () => {
    const m = await mind();
    await m.store('Bought winter tyres for the car at the garage.');
    const violin = await m.store('Mia started violin lessons in September.');
    const page = await m.recall({ q: 'which instrument', mode: 'semantic', wait_ms: '2000' });
    assert.equal(page.memories[0]?.id, violin.id);
    assert.equal(page.memories[0]?.match, 'semantic');
    assert.equal(await m.pending(), 0);
  });

  test('without wait_ms a memory not yet embedded is not found by meaning; with it, once its batch is stored', async () => {
    const m = await mind();
    gate.hold();
    try {
      const violin = await m.store('Mia started violin lessons in September.', [HELD]);
      assert.ok(!found(await m.recall({ q: 'which instrument', mode: 'semantic' }), violin.id), 'not embedded yet');
      assert.equal(await m.pending(), 1);
      // The batch is answered while this request waits: the wait ends with it, well before wait_ms.
      setTimeout(gate.release, 300);
      const started = Date.now();
      const page = await m.recall({ q: 'which instrument', mode: 'semantic', wait_ms: '2000' });
      assert.equal(page.memories[0]?.id, violin.id);
      assert.ok(Date.now() - started < 1_900, `answered ${Date.now() - started} ms after asking`);
    } finally {
      gate.release();
    }
  });

  test('the wait is bounded: embeddings that cannot finish get an answer after about wait_ms, still 200', async () => {
    const m = await mind();
    gate.hold();
    try {
      const violin = await m.store('Mia started violin lessons in September.', [HELD]);
      const started = Date.now();
      const page = await m.recall({ q: 'which instrument', mode: 'semantic', wait_ms: '600' });
      const took = Date.now() - started;
      assert.ok(took >= 590 && took < 1_600, `answered after ${took} ms`);
      assert.ok(!found(page, violin.id));
      // Keyword mode and a recall without words never wait.
      for (const query of [{ q: 'violin', mode: 'keyword' }, {}] as Array<Record<string, string>>) {
        const quick = Date.now();
        const hits = await m.recall({ ...query, wait_ms: '2000' });
        assert.ok(Date.now() - quick < 1_000, `${JSON.stringify(query)} waited ${Date.now() - quick} ms`);
        assert.ok(found(hits, violin.id));
      }
      assert.equal(await m.pending(), 1);
    } finally {
      gate.release();
    }
  });

  test('a caller that goes away ends its wait: the queue is no longer looked at for it', async () => {
    const m = await mind();
    gate.hold();
    const looks: number[] = [];
    const onQuery = (query: { sql: string }) => {
      if (/embedding_queue/.test(query.sql) && /count\(/i.test(query.sql)) looks.push(Date.now());
    };
    svc.ctx.db.on('query', onQuery);
    try {
      await m.store('Mia started violin lessons in September.', [HELD]);
      await assert.rejects(m.get({ q: 'which instrument', mode: 'semantic', wait_ms: '2000' }).timeout(400), /Timeout/);
      await sleep(100); // the server sees the connection close
      const gone = looks.length;
      assert.ok(gone >= 2, `looked ${gone} times while the caller waited`);
      await sleep(900); // a wait still running would look every 250 ms (SQLite) or 50 ms (PostgreSQL)
      assert.equal(looks.length, gone, 'no look at the queue after the caller left');
    } finally {
      svc.ctx.db.off('query', onQuery);
      gate.release();
    }
  });

  test('min_score keeps the hits scoring at least it, and the first below it ends the answer', async () => {
    const m = await mind();
    const contents = [
      'violin',
      'violin lessons and the car',
      'violin and a car at the garage service',
      'car garage service maintenance',
      'allergic to peanuts',
    ];
    for (const content of contents) await m.store(content);
    await m.embedded();
    for (const mode of ['semantic', 'hybrid', 'keyword']) {
      // Hybrid reads a hit against the first (how far it trails it): two memories holding all its words.
      const q = mode === 'keyword' ? 'violin car' : mode === 'hybrid' ? 'car garage service' : 'violin music';
      const all = (await m.recall({ q, mode, limit: '100' })).memories;
      // Thresholds inside 0..1 between distinct scores (scores are calibrated into 0..1 in every mode;
      // until then a mode's scores above 1 are simply not used as thresholds here).
      const scores = [...new Set(all.map((h) => h.score))].filter((s) => s > 0 && s <= 1);
      assert.ok(scores.length >= 2, `${mode}: distinct scores ${JSON.stringify(all.map((h) => h.score))}`);
      for (const floor of scores) {
        const expected = all.filter((h) => h.score >= floor).map((h) => h.id);
        // Page by 1: every page holds at most the hits at the floor or above, and the last has no cursor.
        const seen: string[] = [];
        let cursor: string | null = null;
        let pages = 0;
        do {
          const page: Page = await m.recall({ q, mode, limit: '1', min_score: String(floor), ...(cursor ? { cursor } : {}) });
          assert.ok(
            page.memories.every((h) => h.score >= floor),
            `${mode} ${floor}: ${JSON.stringify(page.memories)}`,
          );
          seen.push(...page.memories.map((h) => h.id));
          cursor = page.next_cursor;
          assert.ok(++pages <= expected.length + 1, `${mode} ${floor}: too many pages`);
        } while (cursor);
        assert.deepEqual(seen, expected, `${mode} min_score=${floor}`);
      }
      // Between two scores: one page of all at or above it, with no cursor.
      const cut = (scores[0]! + scores[1]!) / 2;
      const page = await m.recall({ q, mode, limit: '100', min_score: String(cut) });
      assert.deepEqual(
        page.memories.map((h) => h.id),
        all.filter((h) => h.score >= cut).map((h) => h.id),
      );
      assert.equal(page.next_cursor, null);
    }
  });
});

describe('wait_ms with the local embedder (the default)', () => {
  const svc = useService({ MIND_EMBEDDINGS: 'local' });

  test('store, then ask by meaning with wait_ms=2000: found', async () => {
    const m = await mindOf(svc)();
    // The first embedding starts the model (built once per machine): not part of what is measured.
    await m.store('Bought winter tyres for the car at the garage.');
    await m.embedded();
    const violin = await m.store("The user's daughter Mia started violin lessons in September.");
    const page = await m.recall({ q: 'Which musical instrument does our kid play?', mode: 'semantic', wait_ms: '2000' });
    assert.equal(page.memories[0]?.id, violin.id);
  });
});

describe('wait_ms and min_score: bad values are 400 naming the parameter and what is allowed', () => {
  const svc = useService();

  test('out of range or not a number', async () => {
    const m = await mindOf(svc)();
    const expect400 = async (query: Record<string, string>, path: string, message: RegExp) => {
      const res = await m.get(query);
      assert.equal(res.status, 400, `${JSON.stringify(query)}: ${JSON.stringify(res.body)}`);
      assert.equal(res.body.code, 'validation_failed');
      assert.match(res.body.message, new RegExp(`^${path.replace('.', '\\.')}: `));
      assert.equal(res.body.details[0].path, path);
      assert.match(res.body.details[0].message, message);
    };
    for (const wait of ['2001', '100000']) await expect400({ q: 'x', wait_ms: wait }, 'query.wait_ms', /at most 2000/);
    for (const wait of ['-1', '1.5', 'soon', '1e3', ' 5']) await expect400({ q: 'x', wait_ms: wait }, 'query.wait_ms', /whole number/);
    for (const score of ['1.5', '2']) await expect400({ q: 'x', min_score: score }, 'query.min_score', /from 0 to 1/);
    for (const score of ['-0.1', 'high', '.5', '0x1', 'Infinity', '1e1', '']) {
      await expect400({ q: 'x', min_score: score }, 'query.min_score', /from 0 to 1/);
    }
    // Without q every score is 0 (newest first): a floor above 0 would answer nothing, so it is refused.
    await expect400({ min_score: '0.2' }, 'query.min_score', /needs q/);
    await m.store('Mia started violin lessons in September.');
    assert.equal((await m.recall({ min_score: '0' })).memories.length, 1);
    // Both bounds are accepted; with embeddings off a wait has nothing to wait for.
    for (const [wait, score] of [
      ['0', '0'],
      ['2000', '0.0'],
      ['1', '5e-7'],
    ]) {
      const started = Date.now();
      assert.equal((await m.recall({ q: 'violin', wait_ms: wait, min_score: score })).memories.length, 1);
      assert.ok(Date.now() - started < 1_000, `waited ${Date.now() - started} ms with embeddings off`);
    }
    assert.equal((await m.recall({ q: 'violin', min_score: '1' })).memories.length <= 1, true);
  });
});
