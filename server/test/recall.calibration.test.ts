// A hit's score estimates how likely it answers the question (search/score-calibration.ts): the
// same for the same match whatever the mind's size and the question's length, within 0..1, and the
// documented min_score values keep a question's own memory.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { BLEND_KNOTS, blendLikelihood, FUSION_KNOTS, fusionLikelihood } from '../src/search/score-calibration.js';
import { type TestService, useService } from './harness.js';

type Answer = { memories: Array<{ id: string; content: string; score: number; match: string }> };

// Texts of about the same length (8 words that are not stop words), as a mind's notes often are.
const OWN = 'Priya adopted a ginger kitten called Marmalade from the shelter in Leeds';
const OTHERS = [
  'The quarterly budget review moved to Thursday afternoon with finance and legal',
  'Tomasz repaired the garden fence behind the shed after Sunday storm',
];

async function mindWith(svc: TestService, contents: string[]) {
  const m = await svc.mind();
  for (let i = 0; i < contents.length; i += 25) {
    await Promise.all(
      contents.slice(i, i + 25).map((content) => svc.http.post('/memory').set(m.auth).send({ category: 'fact', content }).expect(201)),
    );
  }
  // Recall by meaning finds a memory once the background worker embedded it.
  for (let waited = 0; ; waited += 100) {
    const stats = (await svc.http.get('/memory/stats').set(m.auth).expect(200)).body as { pending_embeddings?: number };
    if (!stats.pending_embeddings) break;
    assert.ok(waited < 60_000, 'embedded within a minute');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return async (q: string, mode = 'keyword', extra: Record<string, string> = {}) =>
    (
      await svc.http
        .get('/memory/recall')
        .query({ q, mode, ...extra })
        .set(m.auth)
        .expect(200)
    ).body as Answer;
}

/** Filler in the words of everyday notes, none of the question's rarer words. */
const filler = (n: number) => Array.from({ length: n }, (_, i) => `Note ${i}: team met day ${i % 31} about invoices, travel, printer`);

describe('recall: scores that mean the same everywhere', () => {
  const svc = useService({ MIND_EMBEDDINGS: 'off' });

  test("a question made of a memory's own words scores at least 0.8, the same in a mind of 3 memories and of 1,503", async () => {
    const small = await mindWith(svc, [OWN, ...OTHERS]);
    const large = await mindWith(svc, [OWN, ...OTHERS, ...filler(1500)]);
    const [a, b] = [(await small(OWN)).memories[0]!, (await large(OWN)).memories[0]!];
    assert.equal(a.content, OWN);
    assert.equal(b.content, OWN);
    assert.ok(a.score >= 0.8 && a.score <= 1, `score ${a.score} within 0.8..1`);
    assert.ok(Math.abs(a.score - b.score) <= 0.03, `3 memories: ${a.score}, 1,503: ${b.score}`);
  });

  test("a short and a long question of the memory's own words score alike; a question sharing one word scores lower", async () => {
    const recall = await mindWith(svc, [OWN, ...OTHERS, ...filler(50)]);
    const long = (await recall(OWN)).memories[0]!;
    const short = (await recall('ginger kitten Marmalade')).memories[0]!;
    const weak = (await recall('kitten budget fence printer invoices')).memories.find((m) => m.content === OWN)!;
    assert.equal(short.content, OWN);
    assert.ok(Math.abs(long.score - short.score) <= 0.05, `long question ${long.score}, short ${short.score}`);
    assert.ok(weak.score < short.score, `one shared word ${weak.score} below all of them ${short.score}`);
  });

  test('min_score 0.5, the documented example, keeps the memory a question is made of and drops weak matches', async () => {
    const recall = await mindWith(svc, [OWN, ...OTHERS, ...filler(50)]);
    const kept = await recall('ginger kitten Marmalade shelter', 'keyword', { min_score: '0.5' });
    assert.deepEqual(
      kept.memories.map((m) => m.content),
      [OWN],
    );
    const weak = await recall('printer', 'keyword', { min_score: '0.5' });
    assert.equal(weak.memories.length, 0, `a word in every note is no answer: ${JSON.stringify(weak.memories.map((m) => m.score))}`);
  });
});

describe('chat search: scores as recall gives them', () => {
  const svc = useService({ MIND_EMBEDDINGS: 'off' });

  test("a question made of a message's own words scores at least 0.8; one sharing a common word scores under 0.5", async () => {
    const m = await svc.mind();
    for (const content of [OWN, ...OTHERS, ...filler(50)]) {
      await svc.http.post('/mind/chat').set(m.auth).send({ role: 'human', content }).expect(201);
    }
    const search = async (q: string) =>
      (
        (await svc.http.get('/mind/chat/search').query({ q, mode: 'keyword' }).set(m.auth).expect(200)).body as {
          messages: Array<{ content: string; score: number }>;
        }
      ).messages;
    const [own] = await search(OWN);
    assert.equal(own?.content, OWN);
    assert.ok(own.score >= 0.8 && own.score <= 1, `score ${own.score} within 0.8..1`);
    const weak = await search('printer');
    assert.ok(weak.length > 0 && weak.every((h) => h.score < 0.5), `a word in every message: ${weak.map((h) => h.score)}`);
  });
});

describe('recall: scores by meaning (local embedder)', () => {
  const svc = useService({ MIND_EMBEDDINGS: 'local' });

  for (const mode of ['hybrid', 'semantic']) {
    test(`${mode}: a question made of a memory's own words scores at least 0.8, in a mind of 3 memories and of 203`, async () => {
      const small = await mindWith(svc, [OWN, ...OTHERS]);
      const large = await mindWith(svc, [OWN, ...OTHERS, ...filler(200)]);
      for (const recall of [small, large]) {
        const [first] = (await recall(OWN, mode)).memories;
        assert.equal(first?.content, OWN);
        assert.ok(first.score >= 0.8 && first.score <= 1, `${mode} score ${first.score} within 0.8..1`);
      }
    });
  }

  test('hybrid: paged two at a time, the scores are those of one page (each hit read against the same first hit)', async () => {
    const recall = await mindWith(svc, [OWN, ...OTHERS, ...filler(30)]);
    const q = 'ginger kitten team invoices printer travel';
    const whole = (await recall(q, 'hybrid', { limit: '50' })).memories;
    assert.ok(whole.length > 6, `${whole.length} hits`);
    const paged: Answer['memories'] = [];
    let cursor: string | undefined;
    do {
      const page = (await recall(q, 'hybrid', { limit: '2', ...(cursor ? { cursor } : {}) })) as Answer & { next_cursor: string | null };
      paged.push(...page.memories);
      cursor = page.next_cursor ?? undefined;
    } while (cursor && paged.length < whole.length);
    assert.deepEqual(
      paged.slice(0, whole.length).map((m) => [m.id, m.score]),
      whole.map((m) => [m.id, m.score]),
    );
    for (let i = 1; i < whole.length; i++) assert.ok(whole[i - 1]!.score >= whole[i]!.score, 'descending');
  });

  test('hybrid: a question sharing one word with a memory scores under 0.5, the documented cut-off', async () => {
    const recall = await mindWith(svc, [OWN, ...OTHERS, ...filler(50)]);
    const weak = (await recall('kitten budget fence printer invoices', 'hybrid')).memories;
    const own = weak.find((m) => m.content === OWN);
    assert.ok(own && own.score < 0.5, `one shared word: ${own?.score}`);
  });
});

/** Along one answer (one best blend), a lower blend never scores higher, and every knot is within 0..1. */
function assertMonotone(
  likelihood: (blend: number, best: number) => number,
  best: number,
  knots: ReadonlyArray<readonly [number, number]>,
) {
  let previous = 1;
  for (let blend = best; blend >= 0; blend -= 0.01) {
    const score = likelihood(blend, best);
    assert.ok(score <= previous && score >= 0, `${blend}: ${score}`);
    previous = score;
  }
  assert.ok(knots.every(([x, y]) => x >= 0 && x <= 1 && y >= 0 && y <= 1));
}

describe('hybrid scores: a hit is read against the first of its answer', () => {
  test("the first hit by its blend; the others lower the further they trail it; a question's own memory at 0.8 or more", () => {
    assert.ok(blendLikelihood(0.9) >= 0.8, `own words: ${blendLikelihood(0.9)}`);
    assert.equal(blendLikelihood(0.8, 0.8), blendLikelihood(0.8));
    assert.ok(blendLikelihood(0.8, 0.9) < blendLikelihood(0.8), 'trailing the first by 0.1 costs');
    assert.ok(blendLikelihood(0.8, 0.95) < blendLikelihood(0.8, 0.9), 'trailing further costs more');
    assert.equal(blendLikelihood(0, 0.9), 0, 'a keyword hit past the window');
    assertMonotone(blendLikelihood, 0.95, BLEND_KNOTS);
  });

  test("the fusion's blend (openai embeddings) has its own curve: the same blend is weaker evidence there", () => {
    // A question of a memory's own words: keyword 1 and similarity 1 fuse to about 0.97.
    assert.ok(fusionLikelihood(0.97) >= 0.8, `own words: ${fusionLikelihood(0.97)}`);
    assert.ok(fusionLikelihood(0.6) < blendLikelihood(0.6), `0.6: fusion ${fusionLikelihood(0.6)}, re-ranking ${blendLikelihood(0.6)}`);
    assert.ok(fusionLikelihood(0.6, 0.7) < fusionLikelihood(0.6), 'trailing the first costs');
    assertMonotone(fusionLikelihood, 0.97, FUSION_KNOTS);
  });
});
