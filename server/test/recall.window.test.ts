// Hybrid recall's vector window (recall/hybrid.ts): a question no keyword hit holds two words of is
// asked in other words, so the re-ranking reads a wide window of nearest memories, however little
// similar; otherwise the usual window of the nearest at least 0.3 similar.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { useService } from './harness.js';

type Hit = { content: string; match: string };

const FACT = 'Tomasz repaired the garden fence behind the shed after the Sunday storm.';
const NOTES = [
  'Mia practises scales on her violin every evening before dinner.',
  'The quarterly budget review moved to Thursday afternoon.',
  'Lessons for the child: piano on Mondays, swimming on Fridays.',
];
const QUESTION = 'What instrument is the child learning?';

describe('recall: the vector window of a question asked in other words', () => {
  const svc = useService({ MIND_EMBEDDINGS: 'local' });

  async function mindWith(contents: string[]) {
    const m = await svc.mind();
    for (const content of contents) await svc.http.post('/memory').set(m.auth).send({ category: 'fact', content }).expect(201);
    for (let waited = 0; ; waited += 100) {
      const stats = (await svc.http.get('/memory/stats').set(m.auth).expect(200)).body as { pending_embeddings?: number };
      if (!stats.pending_embeddings) break;
      assert.ok(waited < 60_000, 'embedded within a minute');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return async (q: string, mode: string) =>
      ((await svc.http.get('/memory/recall').query({ q, mode, limit: '50' }).set(m.auth).expect(200)).body as { memories: Hit[] }).memories;
  }

  test('no keyword hit holds two of its words: a memory under 0.3 similar is still a candidate', async () => {
    const recall = await mindWith([FACT, ...NOTES]);
    // The premise: by meaning alone the fact is not a hit (under the similarity floor), and it shares no word.
    assert.ok(!(await recall(QUESTION, 'semantic')).some((h) => h.content === FACT), 'the fact is under 0.3 similar');
    assert.ok(!(await recall(QUESTION, 'keyword')).some((h) => h.content === FACT));
    const hit = (await recall(QUESTION, 'hybrid')).find((h) => h.content === FACT);
    assert.equal(hit?.match, 'semantic');
  });

  test('a keyword hit holding two of its words: only memories at least 0.3 similar join by meaning', async () => {
    const recall = await mindWith([FACT, ...NOTES]);
    const question = 'Which lessons does the child take?';
    assert.ok(
      (await recall(question, 'keyword')).some((h) => h.content === NOTES[2]),
      'a note holds lessons and child',
    );
    assert.ok(!(await recall(question, 'semantic')).some((h) => h.content === FACT), 'the fact is under 0.3 similar');
    assert.ok(!(await recall(question, 'hybrid')).some((h) => h.content === FACT));
  });
});
