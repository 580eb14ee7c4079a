// A long question's framing words (search/framing-words.ts): "list the order in which I mentioned
// ... throughout our conversations" names its subject in its other words, and is ranked by those; a
// short question keeps every word, since there "order" may be the subject.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { rankingWords, searchWords } from '../src/search/words.js';
import { useService } from './harness.js';

type Hit = { content: string };

const LONG_QUESTION =
  'Can you list the order in which I mentioned the greenhouse tomato seedlings and their watering schedule throughout our conversations?';

describe('recall: the words that frame a question', () => {
  const svc = useService();

  async function mindWith(contents: string[]) {
    const m = await svc.mind();
    for (const content of contents) await svc.http.post('/memory').set(m.auth).send({ category: 'fact', content }).expect(201);
    return async (q: string) =>
      ((await svc.http.get('/memory/recall').query({ q, mode: 'keyword' }).set(m.auth).expect(200)).body as { memories: Hit[] }).memories;
  }

  test('a long question is ranked by the words that name its subject', async () => {
    assert.deepEqual(rankingWords(searchWords(LONG_QUESTION)), ['greenhouse', 'tomato', 'seedlings', 'watering', 'schedule']);
    const subject = 'The tomato seedlings went into the greenhouse on Monday.';
    const framing = 'Here is the list in order, as mentioned throughout our conversations, with the schedule.';
    const recall = await mindWith([subject, framing, 'The shed roof needs new felt before winter.']);
    const hits = await recall(LONG_QUESTION);
    assert.equal(hits[0]?.content, subject, 'the turn about the subject first');
    assert.equal(hits[1]?.content, framing, 'the other still found by the word it shares');
  });

  test('a short question keeps its framing words', async () => {
    assert.deepEqual(rankingWords(searchWords('Which pizza did I order?')), ['pizza', 'order']);
    const ordered = 'I order the pepperoni pizza from Luigi on Fridays, with extra olives and a side salad.';
    const recall = await mindWith(['Pizza night was fun.', ordered]);
    assert.equal((await recall('Which pizza did I order?'))[0]?.content, ordered);
  });
});
