import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { createLocalEmbedder, createLocalEmbedderInProcess } from '../src/embeddings/local-embedder.js';
import { loadLocalModel } from '../src/embeddings/local-model.js';
import {
  alignerFor,
  coverage,
  RERANK_DEFAULTS,
  RERANK_NAMED,
  RERANK_OTHER_WORDS,
  RERANK_SUMMARY,
  type RerankCandidate,
  type RerankOptions,
  rerankOptionsFor,
  type WordAligner,
  windowDensity,
  wordsOf,
} from '../src/embeddings/rerank.js';
import { namesSomeone } from '../src/embeddings/tokens.js';
import { searchWords } from '../src/search/words.js';

describe('rerank: window density', () => {
  test('each row gets the mean cosine to its k closest other rows', () => {
    // Unit vectors in 2-d: a and b close together, c far from both.
    const angle = (deg: number) => [Math.cos((deg * Math.PI) / 180), Math.sin((deg * Math.PI) / 180)];
    const rows = Float32Array.from([...angle(0), ...angle(10), ...angle(90)]);
    const one = windowDensity(rows, 3, 2, 1);
    assert.ok(Math.abs(one[0]! - Math.cos(Math.PI / 18)) < 1e-6, 'a: its closest is b');
    assert.ok(Math.abs(one[1]! - Math.cos(Math.PI / 18)) < 1e-6, 'b: its closest is a');
    assert.ok(Math.abs(one[2]! - Math.cos((80 * Math.PI) / 180)) < 1e-6, 'c: its closest is b');
    const two = windowDensity(rows, 3, 2, 5); // k larger than the window: all the others
    assert.ok(Math.abs(two[0]! - (Math.cos(Math.PI / 18) + 0) / 2) < 1e-6);
    assert.deepEqual(Array.from(windowDensity(rows.subarray(0, 2), 1, 2, 3)), [0], 'a window of one has no neighbours');
  });
});

describe("rerank: coverage of the question's words", () => {
  test('a word counts 1, a variant alone half, and no words cover everything', () => {
    const terms = [['tires', 'tyres'], ['winter']];
    assert.equal(coverage(terms, wordsOf('Winter tires: on.')), 1);
    assert.equal(coverage(terms, wordsOf('winter')), 0.5);
    assert.equal(coverage(terms, wordsOf('New tyres')), 0.25);
    assert.equal(coverage(terms, wordsOf('summer')), 0);
    assert.equal(coverage([], wordsOf('summer')), 1);
  });

  test('holding `enough` of a long question counts as holding all of it; a short question needs all its words', () => {
    const terms = ['budget', 'trip', 'lisbon', 'hotel', 'flights', 'october'].map((w) => [w]);
    assert.equal(coverage(terms, wordsOf('Lisbon trip: hotel booked.'), 3), 1);
    assert.equal(coverage(terms, wordsOf('Lisbon trip: hotel booked.')), 0.5, 'without a cap: the share');
    assert.equal(coverage(terms, wordsOf('The Lisbon trip.'), 3), 2 / 3);
    const short = [['violin'], ['lessons']];
    assert.equal(coverage(short, wordsOf('violin practice'), 3), 0.5, 'two words asked: one held is half');
    assert.equal(coverage(short, wordsOf('violin lessons'), 3), 1);
  });

  test('a text holds a word standing alone, as the index splits it', () => {
    for (const text of ['Winter tires, 4 of them.', 'Wintertires: café 4x winter2', 'Café au lait, winter tires']) {
      const holds = wordsOf(text);
      for (const word of ['winter', 'tires', 'cafe', '4', 'tire', 'inter', 'winter2', 'lait'])
        assert.equal(holds(word), searchWords(text).includes(word), `${text}: ${word}`);
    }
  });
});

describe('rerank by meaning (local word table)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'mind-rerank-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  let aligner: WordAligner;
  before(async () => {
    aligner = alignerFor(await loadLocalModel({ cacheDir: dir }));
  });

  test('word alignment matches a specific word to its general one', () => {
    const question = aligner.bag('What instrument is the child learning?');
    const fact = aligner.align(question, aligner.bag("The user's daughter Mia started violin lessons in September."), 0.3);
    const other = aligner.align(question, aligner.bag('The garage door needs a new motor before winter.'), 0.3);
    assert.ok(fact.forward > other.forward + 0.1, `${fact.forward} vs ${other.forward}`);
    assert.ok(fact.backward > other.backward, `${fact.backward} vs ${other.backward}`);
    const same = aligner.align(question, question, 0.3);
    assert.ok(Math.abs(same.forward - 1) < 1e-6 && Math.abs(same.backward - 1) < 1e-6, 'a text aligns fully with itself');
    assert.deepEqual(aligner.align(aligner.bag('the of and'), question, 0.3), { forward: 0, backward: 0 }, 'no content words');
  });

  test("with hubWeight, words close to every word count less and a rare word's match more", () => {
    const question = aligner.bag('What kind of dishes does she love to order?');
    const fact = aligner.bag("The user's favourite cuisine is Thai food, extra spicy.");
    const generic = aligner.bag('For gifts, the user likes experiences more than things.');
    const plain = [fact, generic].map((m) => aligner.align(question, m, 0.3, 0.8).forward);
    assert.ok(plain[1]! > plain[0]!, `uncorrected, the generic memory aligns better: ${plain}`);
    const corrected = [fact, generic].map((m) => aligner.align(question, m, 0.3, 0.8, RERANK_OTHER_WORDS.hubWeight).forward);
    assert.ok(corrected[0]! > corrected[1]!, `corrected, the fact does: ${corrected}`);
    const pair = (a: string, b: string, hub: number) => aligner.align(aligner.bag(a), aligner.bag(b), 0.3, 1, hub).forward;
    assert.ok(pair('take', 'get', 0.4) < pair('take', 'get', 0), 'two of the commonest words: less');
    assert.ok(pair('violin', 'cello', 0.4) > pair('violin', 'cello', 0), 'two rare words: more');
    assert.equal(RERANK_DEFAULTS.hubWeight, 0, "conversations' weights leave words as they are");
    assert.equal(RERANK_NAMED.hubWeight, 0);
  });

  test('with linkSimilarity, two words WordNet links count at least that much; other pairs as before', () => {
    const pair = (a: string, b: string, link: number) => aligner.align(aligner.bag(a), aligner.bag(b), 0.3, 1, 0, link).forward;
    assert.ok(pair('operation', 'surgery', 0) < 0.3, `GloVe places them apart: ${pair('operation', 'surgery', 0)}`);
    assert.ok(Math.abs(pair('operation', 'surgery', 0.7) - (0.7 - 0.3) / 0.7) < 1e-6, 'linked: counted as 0.7, stretched');
    assert.equal(pair('jog', 'run', 0.7), pair('run', 'jog', 0.7));
    assert.equal(pair('dog', 'cat', 0.7), pair('dog', 'cat', 0), 'not linked (two kinds of one thing): the cosine');
    assert.ok(pair('antidepressant', 'prozac', 0.7) > (0.7 - 0.3) / 0.7, 'a cosine above the link stays');
    assert.equal(RERANK_DEFAULTS.linkSimilarity, 0, "conversations' weights do not read links");
    assert.ok(RERANK_OTHER_WORDS.linkSimilarity > 0);
    assert.equal(RERANK_NAMED.linkSimilarity, 0, 'nor do those of a question that names someone');
  });

  /**
   * With `weight` at 0.1, `question` lowers the candidate `lowered` by exactly that and leaves `kept`
   * as it was; `other`, not such a question, changes no score.
   */
  function takesOff(
    weight: 'timeWeight' | 'preferenceWeight',
    options: RerankOptions,
    question: string,
    other: string,
    lowered: string,
    kept: string,
  ) {
    const candidates = [
      { id: 'lowered', text: lowered },
      { id: 'kept', text: kept },
    ];
    const score = (q: string, w: number) =>
      Object.fromEntries(aligner.rerank(q, candidates, { ...options, [weight]: w }).map((h) => [h.id, h.score]));
    const off = score(question, 0);
    const on = score(question, 0.1);
    assert.ok(Math.abs(off.lowered! - 0.1 - on.lowered!) < 1e-9, `${off.lowered} -> ${on.lowered}`);
    assert.equal(on.kept, off.kept, kept);
    assert.deepEqual(score(other, 0.1), score(other, 0), other);
  }

  test('with timeWeight, a question that asks when takes it off the candidates that name no time', () => {
    takesOff(
      'timeWeight',
      RERANK_OTHER_WORDS,
      'When is the team standup?',
      'Where is the team standup?',
      'The team standup notes are kept in the shared drive.',
      'The daily sync happens at 9:30 with the whole group.',
    );
    assert.equal(RERANK_DEFAULTS.timeWeight, 0);
  });

  test('with preferenceWeight, a question that asks for advice takes it off the candidates that state no preference', () => {
    takesOff(
      'preferenceWeight',
      RERANK_DEFAULTS,
      'Can you recommend some novels for the reading group?',
      'Which novels did the reading group read?',
      'The reading group meets at the library on the first Monday.',
      'I prefer print books to e-books for novels.',
    );
    assert.equal(RERANK_DEFAULTS.preferenceWeight, 0.1);
    assert.equal(RERANK_OTHER_WORDS.preferenceWeight, 0, 'questions in other words keep it off');
  });

  test('a question names someone when a word inside it is capitalised ("I" is not a name)', () => {
    assert.equal(namesSomeone('What hobbies does Jolene have?'), true);
    assert.equal(namesSomeone('Where is she staying in Portugal?'), true);
    assert.equal(namesSomeone('Where did I leave the spare key?'), false);
    assert.equal(namesSomeone('What instrument is the child learning?'), false);
  });

  // A run of near-identical notes (as an agent writes them week after week) and one fact.
  const run = ['Friday', 'Monday', 'Tuesday', 'Thursday', 'Wednesday', 'Saturday'].flatMap((day, i) => [
    { id: `r${i}a`, text: `The user's kid has a school trip on ${day}; pack a lunch.` },
    { id: `r${i}b`, text: `The user's kid has a dentist visit on ${day}; leave work early.` },
  ]);
  const fact = { id: 'fact', text: "The user's daughter Mia started violin lessons in September." };
  const window = (keyword: Record<string, number> = {}): RerankCandidate[] =>
    [...run, fact].map((c) => ({ ...c, keywordScore: keyword[c.id] ?? 0 }));

  test('a memory unlike the rest of the window rises above a run of near-copies', () => {
    const question = 'What instrument is the child learning?';
    const hits = aligner.rerank(question, window());
    assert.equal(hits.length, run.length + 1);
    assert.equal(hits[0]!.id, 'fact', JSON.stringify(hits.slice(0, 3)));
    for (let i = 1; i < hits.length; i++) assert.ok(hits[i - 1]!.score >= hits[i]!.score, 'best first');
    // Without the density and alignment terms, the plain cosine is shown for comparison: the run can win.
    const plain = aligner.rerank(question, window(), { ...RERANK_DEFAULTS, densityWeight: 0, alignWeight: 0 });
    assert.ok(plain.findIndex((h) => h.id === 'fact') >= hits.findIndex((h) => h.id === 'fact'));
  });

  test('a question that asks for a summary keeps the run a window holds many of', () => {
    assert.equal(rerankOptionsFor('Can you summarize what the kid has on this week?'), RERANK_SUMMARY);
    assert.equal(rerankOptionsFor('What does the kid have on Friday?'), RERANK_DEFAULTS);
    assert.equal(rerankOptionsFor('Give me an overview of the hobbies', true), RERANK_OTHER_WORDS, 'a wide window keeps its own weights');
    assert.equal(RERANK_SUMMARY.densityWeight, 0);
    assert.deepEqual({ ...RERANK_SUMMARY, densityWeight: RERANK_DEFAULTS.densityWeight }, RERANK_DEFAULTS, 'only the density differs');
    // The same question and window: with the density correction the one turn unlike the run comes
    // first; for a summary, the run the window holds many of does.
    const question = "Give me a summary of the kid's school plans.";
    const outlier = { id: 'concert', text: 'The kid plays violin at the school concert in June.', keywordScore: 0 };
    const candidates = [...run.map((c) => ({ ...c, keywordScore: 0 })), outlier];
    const rankOf = (options: typeof RERANK_DEFAULTS) => aligner.rerank(question, candidates, options).findIndex((h) => h.id === 'concert');
    assert.equal(rankOf(RERANK_DEFAULTS), 0);
    assert.equal(rankOf(rerankOptionsFor(question)), run.length, 'last, after every turn of the run');
  });

  test('a strong keyword match keeps rank 1', () => {
    const hits = aligner.rerank('dentist visit Tuesday', window({ r2b: 28, r0b: 9, r1b: 9 }));
    assert.equal(hits[0]!.id, 'r2b');
  });

  test('an exact word counts exactWeight in the alignment', () => {
    const question = aligner.bag('violin lessons');
    const memory = aligner.bag('violin lessons');
    assert.ok(Math.abs(aligner.align(question, memory, 0.3).forward - 1) < 1e-6);
    assert.ok(Math.abs(aligner.align(question, memory, 0.3, 0.8).forward - 0.8) < 1e-6);
  });

  test("of two equal keyword hits, the one holding more of the question's words ranks first", () => {
    const question = 'dentist visit Tuesday';
    const candidates: RerankCandidate[] = [
      { id: 'one-word', text: 'The dentist moved to a new office downtown.', keywordScore: 12 },
      { id: 'all-words', text: 'The dentist visit on Tuesday is at nine.', keywordScore: 12 },
    ];
    const only = { ...RERANK_DEFAULTS, keywordWeight: 1 };
    assert.equal(aligner.rerank(question, candidates, only)[0]!.id, 'all-words');
    const [first, second] = aligner.rerank(question, candidates, { ...only, keywordCoverage: 0 });
    assert.equal(first!.score, second!.score, 'without coverage the keyword scores tie');
  });

  test('in a long question, a hit holding four of its words keeps its keyword part; one word does not', () => {
    // Conversations ask at length and answer with a few of the question's words.
    const question = 'Can you remind me what budget we agreed for the Lisbon trip, hotel and flights in October?';
    const candidates: RerankCandidate[] = [
      { id: 'four-words', text: 'User: for the Lisbon trip in October the hotel should stay under 900 euros.', keywordScore: 0.4 },
      { id: 'one-word', text: 'User: October is busy at work.', keywordScore: 0.4 },
    ];
    const only = { ...RERANK_DEFAULTS, keywordWeight: 1 };
    const [best, worst] = aligner.rerank(question, candidates, only);
    assert.equal(best!.id, 'four-words');
    const full = aligner.rerank(question, [candidates[0]!], { ...only, keywordCoverage: 0 })[0]!.score;
    assert.ok(Math.abs(best!.score - full) < 1e-9, `${best!.score} vs ${full}: four words count as the whole question`);
    assert.ok(worst!.score < full / 10, `${worst!.score}`);
  });

  test('similarity is taken when given and computed when not; an empty window gives nothing', () => {
    const question = 'What instrument is the child learning?';
    const given = window().map((c) => ({ ...c, similarity: c.id === 'r0a' ? 1 : 0 }));
    assert.equal(aligner.rerank(question, given, { ...RERANK_DEFAULTS, densityWeight: 0, alignWeight: 0 })[0]!.id, 'r0a');
    assert.deepEqual(aligner.rerank(question, []), []);
    const single = aligner.rerank(question, [fact]);
    assert.equal(single.length, 1);
    assert.ok(Number.isFinite(single[0]!.score));
  });

  test('the worker thread reranks as in process; abort and close are honoured', async () => {
    const question = 'What instrument is the child learning?';
    const here = await createLocalEmbedderInProcess({ cacheDir: dir }).rerank(question, window());
    const embedder = createLocalEmbedder({ cacheDir: dir });
    try {
      const there = await embedder.rerank(question, window());
      assert.deepEqual(there, here);
      assert.deepEqual(await embedder.rerank(question, []), []);
      const aborted = new AbortController();
      aborted.abort(new Error('caller gave up'));
      await assert.rejects(embedder.rerank(question, window(), undefined, aborted.signal), /caller gave up/);
      // Embedding still works on the same thread after a rerank.
      const [vector] = await embedder.embed(['violin lessons']);
      assert.equal(vector!.length, 100);
    } finally {
      await embedder.close();
    }
    await assert.rejects(embedder.rerank(question, window()), /closed/);
  });
});
