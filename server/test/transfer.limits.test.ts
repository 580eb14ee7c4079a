import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, test } from 'node:test';
import { bearer, useService } from './harness.js';

// Issue 28, findings 2 and 7: an import is bounded in items (413), imports at once are bounded per
// account and per server (429 naming the limit), and imports at once never answer 5xx.

const at = '2026-11-01T00:00:00.000Z';
const memory = (i: number, id = randomUUID()) => ({
  id,
  category: 'note',
  key: null,
  content: `memory ${i}`,
  tags: [],
  source: null,
  created_at: at,
  updated_at: at,
});
const task = (i: number, id = randomUUID()) => ({
  id,
  title: `task ${i}`,
  description: null,
  priority: 'normal',
  status: 'pending',
  due_at: null,
  created_at: at,
  updated_at: at,
  completed_at: null,
});
const message = (i: number, id = randomUUID()) => ({ id, role: 'human', content: `message ${i}`, thread: 'default', created_at: at });
const documentOf = (memories: number, tasks = 0) => ({
  format: 'mind-export/1',
  exported_at: at,
  memories: Array.from({ length: memories }, (_, i) => memory(i)),
  tasks: Array.from({ length: tasks }, (_, i) => task(i)),
  chat: [],
  scripts: [],
  webhooks: [],
});

describe('transfer: limits on imports', () => {
  // Per account 3,000 items at a time, per server 6,000: two imports of 2,500 from one account, or
  // three from three accounts, cannot all run at once.
  const svc = useService({ MIND_IMPORT_MAX_ITEMS: '3000', MIND_IMPORT_CONCURRENCY: '2', MIND_IMPORT_CONCURRENCY_PER_USER: '1' });
  const importInto = (key: string, doc: object, query = '') => svc.http.post(`/memory/mind-import${query}`).set(bearer(key)).send(doc);

  test('a document of more items than MIND_IMPORT_MAX_ITEMS is a 413 naming the limit, and nothing is imported', async () => {
    const { mindKey } = await svc.mind();
    const res = await importInto(mindKey, documentOf(3000, 1));
    assert.equal(res.status, 413, res.text);
    assert.match(res.body.message, /3,001 items.*at most 3,000 \(MIND_IMPORT_MAX_ITEMS\)/);
    const stats = await svc.http.get('/memory/stats').set(bearer(mindKey)).expect(200);
    assert.equal(stats.body.total, 0);
    await importInto(mindKey, documentOf(3000)).expect(200);
  });

  /** Sends the imports at once, up to five rounds, until one is refused; every answer of every round. */
  async function untilRefused(send: () => Array<Promise<{ status: number; body: { message?: string }; headers: Record<string, string> }>>) {
    const all = [];
    for (let round = 0; round < 5; round++) {
      const answers = await Promise.all(send());
      all.push(...answers);
      if (answers.some((a) => a.status === 429)) break;
    }
    for (const a of all) assert.ok([200, 429].includes(a.status), `${a.status}: ${JSON.stringify(a.body)}`);
    const refused = all.find((a) => a.status === 429);
    assert.ok(refused, `no import was refused: ${all.map((a) => a.status).join(', ')}`);
    return refused;
  }

  test("an account's second large import while its first runs is a 429 naming MIND_IMPORT_CONCURRENCY_PER_USER, with Retry-After", async () => {
    const user = await svc.user();
    const first = await svc.addMind(user.jwt);
    const second = await svc.addMind(user.jwt);
    const refused = await untilRefused(() => [
      importInto(first.mindKey, documentOf(2500), '?dry_run=true'),
      importInto(second.mindKey, documentOf(2500), '?dry_run=true'),
    ]);
    assert.match(
      refused.body.message!,
      /This account is importing 2,500 items already; an account imports at most 3,000 at a time \(MIND_IMPORT_CONCURRENCY_PER_USER=1 imports of up to MIND_IMPORT_MAX_ITEMS=3,000 items/,
    );
    assert.ok(Number(refused.headers['retry-after']) > 0);
  });

  test('a third account importing while two large imports run is a 429 naming MIND_IMPORT_CONCURRENCY', async () => {
    const minds = await Promise.all([svc.mind(), svc.mind(), svc.mind()]);
    const refused = await untilRefused(() => minds.map((m) => importInto(m.mindKey, documentOf(2500), '?dry_run=true')));
    assert.match(
      refused.body.message!,
      /The server is importing 5,000 items already; it imports at most 6,000 at a time \(MIND_IMPORT_CONCURRENCY=2 imports of up to MIND_IMPORT_MAX_ITEMS=3,000 items\)/,
    );
  });

  test('eight accounts importing at once: every answer is 200 or 429, never 5xx, and each mind has all or nothing', async () => {
    const minds = await Promise.all(Array.from({ length: 8 }, () => svc.mind()));
    const answers = await Promise.all(minds.map((m) => importInto(m.mindKey, documentOf(1500, 500))));
    for (const [i, a] of answers.entries()) {
      assert.ok([200, 429].includes(a.status), `${a.status}: ${a.text}`);
      const stats = await svc.http.get('/memory/stats').set(bearer(minds[i]!.mindKey)).expect(200);
      assert.equal(stats.body.total, a.status === 200 ? 1500 : 0);
    }
    assert.ok(answers.some((a) => a.status === 200));
  });
});

describe('transfer: imports at once with the default limits', () => {
  const svc = useService();

  test('small imports are not held back: six at once into one mind all succeed', async () => {
    const { mindKey } = await svc.mind();
    const doc = documentOf(3, 1);
    const answers = await Promise.all(Array.from({ length: 6 }, () => svc.http.post('/memory/mind-import').set(bearer(mindKey)).send(doc)));
    assert.deepEqual(
      answers.map((a) => a.status),
      [200, 200, 200, 200, 200, 200],
    );
    assert.equal(answers.filter((a) => a.body.created.memories === 3).length, 1, 'one creates, the others find the rows');
  });

  test('the items are checked in pieces as the pipeline checks bodies: a NUL character in one is a 400 naming it', async () => {
    const { mindKey } = await svc.mind();
    const doc = documentOf(1200);
    doc.memories[1100]!.content = 'nul \u0000 here';
    const res = await svc.http.post('/memory/mind-import').set(bearer(mindKey)).send(doc).expect(400);
    assert.match(res.body.message, /body\.memories\.1100\.content: must not contain the NUL character/);
    const envelope = await svc.http
      .post('/memory/mind-import')
      .set(bearer(mindKey))
      .send({ ...documentOf(1), exported_at: 'x\u0000' })
      .expect(400);
    assert.match(envelope.body.message, /body\.exported_at: must not contain the NUL character/);
    const stats = await svc.http.get('/memory/stats').set(bearer(mindKey)).expect(200);
    assert.equal(stats.body.total, 0);
  });

  test('the same new ids into two minds at once: both imports succeed (no 5xx on either database), each mind gets every item', async () => {
    for (let round = 0; round < 3; round++) {
      const doc = {
        format: 'mind-export/1',
        exported_at: at,
        memories: Array.from({ length: 400 }, (_, i) => memory(i)),
        tasks: Array.from({ length: 200 }, (_, i) => task(i)),
        chat: Array.from({ length: 200 }, (_, i) => message(i)),
        scripts: [],
        webhooks: [],
      };
      const [a, b] = await Promise.all([svc.mind(), svc.mind()]);
      const answers = await Promise.all([a, b].map((m) => svc.http.post('/memory/mind-import').set(m.auth).send(doc)));
      assert.deepEqual(
        answers.map((r) => r.status),
        [200, 200],
        answers.map((r) => r.text).join('\n'),
      );
      for (const m of [a, b]) {
        const exported = (await svc.http.get('/memory/mind-export').set(m.auth).expect(200)).body;
        assert.deepEqual([exported.memories.length, exported.tasks.length, exported.chat.length], [400, 200, 200]);
      }
    }
  });
});
