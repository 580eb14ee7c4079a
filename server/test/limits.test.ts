// The cost of a request is bounded by the contract before it runs (counts of arrays in requests),
// and requests that race for one mind are serialised instead of failing.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, test } from 'node:test';
import { IMPORT_LIMITS, MAX_RECALL_TAGS } from '@mindservice/contract';
import { bearer, useService } from './harness.js';

describe('request limits', () => {
  const svc = useService();

  test(`recall requires at most ${MAX_RECALL_TAGS} tags; as many as that answer at once`, async () => {
    const { mindKey } = await svc.mind();
    await svc.http
      .post('/memory')
      .set(bearer(mindKey))
      .send({ category: 'fact', content: 'tagged', tags: ['t1', 't2'] })
      .expect(201);
    const many = Array.from({ length: MAX_RECALL_TAGS + 1 }, (_, i) => `tags=t${i}`).join('&');
    const refused = await svc.http.get(`/memory/recall?${many}`).set(bearer(mindKey)).expect(400);
    assert.equal(refused.body.details[0].path, 'query.tags');
    const started = Date.now();
    const allowed = Array.from({ length: MAX_RECALL_TAGS }, (_, i) => `tags=t${(i % 2) + 1}`).join('&');
    const found = await svc.http.get(`/memory/recall?${allowed}`).set(bearer(mindKey)).expect(200);
    assert.equal(found.body.memories.length, 1);
    assert.ok(Date.now() - started < 5000);
  });

  test('an import document says how many of each kind it may hold', async () => {
    const { mindKey } = await svc.mind();
    const doc = {
      format: 'mind-export/1',
      exported_at: new Date().toISOString(),
      mind: { id: 'x', name: 'x', description: null },
      memories: [],
      tasks: [],
      chat: [],
      scripts: [],
      webhooks: Array.from({ length: IMPORT_LIMITS.webhooks + 1 }, (_, i) => ({
        url: `https://example.com/${i}`,
        events: '*',
        enabled: true,
      })),
    };
    const res = await svc.http.post('/memory/mind-import').set(bearer(mindKey)).send(doc).expect(400);
    assert.equal(res.body.details[0].path, 'body.webhooks');
  });

  test('concurrent imports into one mind each succeed, never a 500', async () => {
    const { mindKey } = await svc.mind();
    await svc.http.post('/memory').set(bearer(mindKey)).send({ category: 'fact', key: 'k', content: 'one' }).expect(201);
    await svc.http.post('/mind/task').set(bearer(mindKey)).send({ title: 'a task' }).expect(201);
    const doc = (await svc.http.get('/memory/mind-export').set(bearer(mindKey)).expect(200)).body;
    // Ids no row has yet: every import tries to insert the same rows.
    for (const item of [...doc.memories, ...doc.tasks]) item.id = randomUUID();
    const { mindKey: target } = await svc.mind();
    const answers = await Promise.all(Array.from({ length: 6 }, () => svc.http.post('/memory/mind-import').set(bearer(target)).send(doc)));
    assert.deepEqual(
      answers.map((a) => a.status),
      answers.map(() => 200),
      answers.map((a) => a.text).join('\n'),
    );
    const tasks = await svc.http.get('/mind/tasks?status=all').set(bearer(target)).expect(200);
    assert.equal(tasks.body.tasks.length, 1);
  });
});
