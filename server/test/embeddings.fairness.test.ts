// One tenant's large memories must not stall another tenant's recall by meaning (issue 28, finding 3),
// and the embedder's caches are kept per mind and bounded in bytes (finding 8).
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { performance } from 'node:perf_hooks';
import { EMBEDDED_CONTENT_CHARS, embeddingText } from '../src/meaning/store.js';
import { ByteLru } from '../src/embeddings/byte-lru.js';
import { createLocalEmbedder } from '../src/embeddings/local-embedder.js';
import { loadLocalModel } from '../src/embeddings/local-model.js';
import { type RerankCandidate, WordAligner } from '../src/embeddings/rerank.js';
import { type FakeEmbeddings, startFakeEmbeddings } from './embeddings/fake-openai.js';
import { startService, TEST_EMBEDDINGS_CACHE, type TestService, useService } from './harness.js';
import { eventually } from './webhooks/receiver.js';

const WORDS = `garden violin kitchen travel budget meeting doctor school river mountain coffee project invoice
  holiday family birthday library museum concert airport hotel weather winter summer ocean forest village
  market bakery bicycle engine garage window letter camera painting football tennis dinner recipe chicken
  vegetable medicine hospital teacher student lesson homework science history language music guitar piano
  computer printer software database server network password contract customer report deadline calendar`.split(/\s+/);

/** A memory of `chars` characters of real words, different for every seed. */
function longText(seed: number, chars = 65_536): string {
  let state = seed * 7919 + 1;
  const parts: string[] = [];
  let length = 0;
  while (length < chars) {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    const word = WORDS[state % WORDS.length]!;
    parts.push(word);
    length += word.length + 1;
  }
  return parts.join(' ').slice(0, chars);
}

const FACTS = [
  "The user's daughter Mia started violin lessons in September.",
  'The car is due for its annual service at the garage in March.',
  'Allergic to peanuts; avoid recipes with nuts.',
];
const QUESTIONS = ['Which musical instrument does our kid play?', 'When is the car service?', 'What food allergies matter?'];

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

describe("one tenant's large memories and another tenant's recall by meaning", () => {
  const svc = useService({ MIND_EMBEDDINGS: 'local' });

  const tenant = async () => {
    const m = await svc.mind();
    const pending = async () => (await svc.http.get('/memory/stats').set(m.auth).expect(200)).body.pending_embeddings as number;
    const recall = (q: string) => svc.http.get('/memory/recall').query({ q }).set(m.auth).expect(200);
    return { ...m, pending, recall };
  };

  /** B's hybrid recall, one at a time (a new question each, so none is answered from the cache), until `busy` settles. */
  async function timedWhile(b: Awaited<ReturnType<typeof tenant>>, busy: Promise<unknown>): Promise<number[]> {
    let done = false;
    void busy.then(
      () => (done = true),
      () => (done = true),
    );
    const times: number[] = [];
    for (let i = 0; !done || times.length < 3; i++) {
      const started = performance.now();
      await b.recall(`${QUESTIONS[i % QUESTIONS.length]} ${i}`);
      times.push(performance.now() - started);
    }
    await busy;
    return times;
  }

  test('200 memories of 64 KB keep another tenant’s hybrid recall median under 300 ms, written and recalled', async (t) => {
    const a = await tenant();
    const b = await tenant();
    for (const content of FACTS) await svc.http.post('/memory').set(b.auth).send({ category: 'fact', content }).expect(201);
    await eventually(async () => (await b.pending()) === 0, 30_000, "B's memories embedded");
    for (let i = 0; i < 3; i++) await b.recall(`${QUESTIONS[i]} warm`);

    // A writes 200 memories of 64 KB at once (an import); B recalls until they are all embedded.
    const now = new Date().toISOString();
    const memories = Array.from({ length: 200 }, (_, i) => ({
      id: randomUUID(),
      category: 'note',
      content: longText(i),
      tags: [],
      created_at: now,
      updated_at: now,
    }));
    const doc = { format: 'mind-export/1', exported_at: now, memories, tasks: [], chat: [], scripts: [], webhooks: [] };
    await svc.http.post('/memory/mind-import').set(a.auth).send(doc).expect(200);
    const embedding = eventually(async () => (await a.pending()) === 0, 120_000, "A's memories embedded");
    const whileEmbedding = await timedWhile(b, embedding);
    t.diagnostic(`while embedding: median ${median(whileEmbedding).toFixed(1)} ms, max ${Math.max(...whileEmbedding).toFixed(0)} ms`);
    assert.ok(
      median(whileEmbedding) < 300,
      `B's recall while A's memories are embedded: median ${median(whileEmbedding).toFixed(0)} ms of ${whileEmbedding.length}`,
    );

    // While A runs hybrid recalls (two at a time) over them, each a new question.
    const until = Date.now() + 5_000;
    let asked = 0;
    const recalling = Promise.all(
      [0, 1].map(async (k) => {
        while (Date.now() < until) await a.recall(`${WORDS[(asked++ * 7 + k) % WORDS.length]} ${WORDS[(asked * 3) % WORDS.length]} notes`);
      }),
    );
    const whileRecalling = await timedWhile(b, recalling);
    t.diagnostic(`while A recalls: median ${median(whileRecalling).toFixed(1)} ms, max ${Math.max(...whileRecalling).toFixed(0)} ms`);
    assert.ok(asked > 2, 'A recalled');
    assert.ok(
      median(whileRecalling) < 300,
      `B's recall while A recalls: median ${median(whileRecalling).toFixed(0)} ms of ${whileRecalling.length}`,
    );
  });
});

describe('the local embedder drops abandoned work and serves questions first', () => {
  const embedder = createLocalEmbedder({ cacheDir: TEST_EMBEDDINGS_CACHE });
  before(() => embedder.ready());
  after(() => embedder.close());

  test('background work given up on is not computed: a question after it answers at once', async () => {
    const texts = Array.from({ length: 200 }, (_, i) => longText(1000 + i));
    const gaveUp = new AbortController();
    const abandoned = embedder.embed(texts, gaveUp.signal);
    await new Promise((r) => setTimeout(r, 100)); // under way on the thread
    gaveUp.abort(new Error('caller gave up'));
    await assert.rejects(abandoned, /caller gave up/);
    const started = performance.now();
    await embedder.embed(['violin lessons'], undefined, { lane: 'question', mindId: 'm1' });
    const ms = performance.now() - started;
    assert.ok(ms < 1_000, `the question waited ${ms.toFixed(0)} ms`);
  });

  test('a question is served before background work queued earlier', async () => {
    const texts = Array.from({ length: 200 }, (_, i) => longText(2000 + i, 8_000));
    let backgroundDone = 0;
    const background = embedder.embed(texts).then(() => (backgroundDone = performance.now()));
    await new Promise((r) => setTimeout(r, 20));
    const [vector] = await embedder.embed(['violin lessons'], undefined, { lane: 'question', mindId: 'm2' });
    const questionDone = performance.now();
    assert.equal(vector?.length, embedder.dimension());
    assert.equal(backgroundDone, 0, 'the question did not wait for the background batch');
    await background;
    assert.ok(backgroundDone > questionDone);
  });
});

describe('embedding cost and caches', () => {
  test('only the first EMBEDDED_CONTENT_CHARS of a memory are embedded', () => {
    const content = longText(1);
    const text = embeddingText({ key: 'k', content, tags: ['tag'] });
    assert.ok(text.length <= EMBEDDED_CONTENT_CHARS + 10, `${text.length}`);
    assert.ok(text.endsWith('\ntag'), 'the tags are kept');
  });

  test('the LRU is bounded in bytes, oldest out first', () => {
    const lru = new ByteLru<number>(10_000);
    for (let i = 0; i < 100; i++) lru.set(`key ${i} ${'x'.repeat(i * 10)}`, i, 400);
    assert.ok(lru.bytes <= 10_000, `${lru.bytes}`);
    assert.ok(lru.size < 100 && lru.size > 0);
    assert.equal(lru.get(`key 99 ${'x'.repeat(990)}`), 99, 'the newest is kept');
    assert.equal(lru.get('key 0 '), undefined, 'the oldest went');
    lru.set('huge', 1, 20_000);
    assert.equal(lru.get('huge'), undefined, 'an entry over the whole budget is not kept');
    assert.ok(lru.bytes <= 10_000);
  });

  test('the re-ranking memo is bounded in bytes and kept per mind', async () => {
    const encoder = await loadLocalModel({ cacheDir: TEST_EMBEDDINGS_CACHE });
    const aligner = new WordAligner(encoder, 2 * 1024 * 1024);
    const window = (from: number): RerankCandidate[] =>
      Array.from({ length: 50 }, (_, i) => ({
        id: `m${from + i}`,
        text: embeddingText({ key: null, content: longText(from + i), tags: [] }),
      }));
    for (let w = 0; w < 20; w++) aligner.rerank('violin lessons', window(w * 50), undefined, 'mind-a');
    assert.ok(aligner.memo.bytes <= 2 * 1024 * 1024, `${aligner.memo.bytes} bytes`);
    assert.ok(aligner.memo.size < 1000 && aligner.memo.size > 100, `${aligner.memo.size} texts`);

    const small = new WordAligner(encoder);
    const shared = window(5000);
    small.rerank('violin lessons', shared, undefined, 'mind-a');
    assert.equal(small.memo.size, 50);
    small.rerank('violin lessons', shared, undefined, 'mind-b');
    assert.equal(small.memo.size, 100, "mind-b's window is not answered from mind-a's texts");
  });
});

describe('the question-vector cache is per mind', () => {
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

  test("a question one mind asked is embedded again for another (never served from the first mind's cache)", async () => {
    const q = 'Which musical instrument does the child learn this autumn?';
    const a = await svc.mind();
    const b = await svc.mind();
    for (const m of [a, b]) await svc.http.post('/memory').set(m.auth).send({ category: 'fact', content: FACTS[0] }).expect(201);
    await svc.http.get('/memory/recall').query({ q }).set(a.auth).expect(200);
    await svc.http.get('/memory/recall').query({ q }).set(a.auth).expect(200);
    assert.equal(fake.embedded.get(q), 1, 'cached for the mind that asked');
    await svc.http.get('/memory/recall').query({ q }).set(b.auth).expect(200);
    assert.equal(fake.embedded.get(q), 2, 'embedded again for another mind');
  });
});
