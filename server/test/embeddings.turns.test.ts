// The local embedder's question lane takes turns by account, then by mind, and serves every job in
// slices of about SLICE_CHARS of text: another account's question waits for one slice, not for a
// whole window of long texts, however many minds an account has.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { JobQueue } from '../src/embeddings/job-queue.js';
import { createLocalEmbedder, SLICE_CHARS } from '../src/embeddings/local-embedder.js';
import { loadLocalModel } from '../src/embeddings/local-model.js';
import { type RerankCandidate, WordAligner } from '../src/embeddings/rerank.js';
import { TEST_EMBEDDINGS_CACHE } from './harness.js';

const WORDS = 'garden violin kitchen travel budget meeting doctor school river mountain coffee project invoice holiday'.split(' ');

/** `chars` characters of real words, different for every seed. */
function words(seed: number, chars: number): string {
  let state = seed * 7919 + 1;
  let out = '';
  while (out.length < chars) {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    out += `${WORDS[state % WORDS.length]} `;
  }
  return out.slice(0, chars);
}

describe('the question lane takes turns by account, then by mind', () => {
  test('an account with eight minds gets the turns of an account with one', () => {
    const queue = new JobQueue<string>();
    for (let m = 1; m <= 8; m++) for (let j = 1; j <= 2; j++) queue.push(`a${m}.${j}`, 'question', { userId: 'a', mindId: `a${m}` });
    queue.push('b1.1', 'question', { userId: 'b', mindId: 'b1' });
    queue.push('b1.2', 'question', { userId: 'b', mindId: 'b1' });
    queue.push('background', 'background');
    const order: string[] = [];
    for (let job = queue.shift(); job !== undefined; job = queue.shift()) order.push(job);
    assert.deepEqual(order.slice(0, 5), ['a1.1', 'b1.1', 'a2.1', 'b1.2', 'a3.1'], 'accounts alternate, the minds of a in turn');
    assert.deepEqual(order.slice(5, 11), ['a4.1', 'a5.1', 'a6.1', 'a7.1', 'a8.1', 'a1.2'], 'then the minds of a, each in turn');
    assert.equal(order.at(-1), 'background', 'background work last');
    assert.equal(order.length, 19);
  });

  test('a job taken out leaves no empty turn behind', () => {
    const queue = new JobQueue<string>();
    queue.push('a', 'question', { userId: 'u1', mindId: 'm1' });
    queue.push('b', 'question', { userId: 'u2', mindId: 'm2' });
    assert.ok(queue.remove('a'));
    assert.equal(queue.size, 1);
    assert.equal(queue.shift(), 'b');
    assert.equal(queue.shift(), undefined);
  });
});

describe('the local embedder serves large questions in slices', () => {
  const embedder = createLocalEmbedder({ cacheDir: TEST_EMBEDDINGS_CACHE });
  before(() => embedder.ready());
  after(() => embedder.close());

  test("another account's question is answered before a window of long texts asked first", async () => {
    await embedder.embed(['warm up'], undefined, { lane: 'question', userId: 'b', mindId: 'b1' });
    const texts = Array.from({ length: 128 }, (_, i) => words(i, 4096)); // 16 slices
    const done: string[] = [];
    const large = embedder.embed(texts, undefined, { lane: 'question', userId: 'a', mindId: 'a1' }).then((v) => {
      done.push('large');
      return v;
    });
    const small = embedder
      .embed(['violin lessons'], undefined, { lane: 'question', userId: 'b', mindId: 'b1' })
      .then(() => done.push('small'));
    const [vectors] = await Promise.all([large, small]);
    assert.deepEqual(done, ['small', 'large'], 'the question went between two slices of the window');
    assert.equal(vectors.length, texts.length, 'the window still gets every vector, in order');
    const [again] = await embedder.embed([texts[7]!], undefined, { lane: 'question', userId: 'a', mindId: 'a1' });
    assert.deepEqual(Array.from(again!), Array.from(vectors[7]!));
  });

  test('a re-ranking reads the words of its new texts while it prepares, in slices, not in its last turn', async () => {
    const encoder = await loadLocalModel({ cacheDir: TEST_EMBEDDINGS_CACHE });
    const aligner = new WordAligner(encoder);
    const window: RerankCandidate[] = Array.from({ length: 100 }, (_, i) => ({
      id: `c${i}`,
      text: words(1000 + i, 4096),
      keywordScore: 3,
    }));
    let turns = 1;
    while (!aligner.prepare(window, 'mind', SLICE_CHARS)) turns++;
    // Each text is encoded and its words read: twice its length, SLICE_CHARS a turn.
    assert.ok(turns >= Math.floor((2 * 100 * 4096) / SLICE_CHARS), `${turns} turns`);
    const bytes = aligner.memo.bytes;
    const hits = aligner.rerank('violin budget', window, undefined, 'mind');
    assert.equal(hits.length, 100);
    assert.equal(aligner.memo.bytes, bytes, 'the last turn read no text of the window again');
  });
});
