// Keyword ranking (issue 31): a question is ranked by its meaningful words, not by "what", "did" or
// "the", on both databases; a question of only such words still finds them.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { useService } from './harness.js';

type Answer = { memories: Array<{ id: string; content: string; score: number; match: string }> };

describe('keyword ranking', () => {
  const svc = useService();

  async function mindWith(contents: string[]) {
    const mind = await svc.mind();
    for (const content of contents) await svc.http.post('/memory').set(mind.auth).send({ category: 'fact', content }).expect(201);
    const recall = async (q: string, mode = 'keyword') =>
      ((await svc.http.get('/memory/recall').query({ q, mode }).set(mind.auth).expect(200)).body as Answer).memories;
    return { mind, recall };
  }

  test('function words in a question do not decide the order', async () => {
    const { recall } = await mindWith([
      'What did the team do when the deadline was moved? They did what they could.',
      'The budget review is on Friday.',
      'Where is the office? It is where it was, on the third floor.',
    ]);
    const hits = await recall('What did they say about the budget review, and where was it?');
    assert.equal(hits[0]?.content, 'The budget review is on Friday.');
    // Only memories holding a meaningful word of the question are hits.
    assert.deepEqual(
      hits.map((h) => h.content),
      ['The budget review is on Friday.'],
    );
  });

  test('a question of only function words is searched as it is', async () => {
    const { recall } = await mindWith(['To be or not to be.', 'A note about apples.']);
    const hits = await recall('to be or not');
    assert.deepEqual(
      hits.map((h) => h.content),
      ['To be or not to be.'],
    );
  });
});

describe('word variants', () => {
  const svc = useService();

  test('a word finds its plural or singular and its other spelling', async () => {
    const mind = await svc.mind();
    const store = async (content: string) =>
      (await svc.http.post('/memory').set(mind.auth).send({ category: 'fact', content }).expect(201)).body.id as string;
    const tyres = await store('New winter tyres fitted on the car in November.');
    const colour = await store('Her favourite colour is green.');
    const parties = await store('She hates loud parties.');
    await store('The garden needs watering every other day.');
    const recall = async (q: string) =>
      ((await svc.http.get('/memory/recall').query({ q, mode: 'keyword' }).set(mind.auth).expect(200)).body as Answer).memories.map(
        (m) => m.id,
      );
    assert.deepEqual(await recall('When were the tires changed?'), [tyres]);
    assert.deepEqual(await recall('favorite colors'), [colour]);
    assert.deepEqual(await recall('party'), [parties]);
    assert.deepEqual(await recall('tyres'), [tyres]);
  });

  test('the word itself counts more than its variant', async () => {
    const mind = await svc.mind();
    const store = async (content: string) =>
      (await svc.http.post('/memory').set(mind.auth).send({ category: 'fact', content }).expect(201)).body.id as string;
    const british = await store('Bought winter tyres for the van.');
    const american = await store('Bought winter tires for the van.');
    const ids = async (q: string) =>
      ((await svc.http.get('/memory/recall').query({ q, mode: 'keyword' }).set(mind.auth).expect(200)).body as Answer).memories.map(
        (m) => m.id,
      );
    assert.deepEqual(await ids('tires'), [american, british]);
    assert.deepEqual(await ids('tyres'), [british, american]);
  });
});
