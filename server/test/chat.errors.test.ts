import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { bearer, useService } from './harness.js';

describe('chat: bad input and other minds', () => {
  const svc = useService();

  test("bad role, empty or oversized content, bad limits are 400 naming the field; another mind's message as before is 404", async () => {
    const m = await svc.mind();
    const { auth } = m;
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ role: 'system', content: 'x' }, /body\.role/],
      [{ content: 'x' }, /body\.role/],
      [{ role: 'human' }, /body\.content/],
      [{ role: 'human', content: '' }, /body\.content/],
      [{ role: 'human', content: 'x'.repeat(65537) }, /body\.content/],
      [{ role: 'human', content: 'x', thread: '' }, /body\.thread/],
      [{ role: 'human', content: 'x', thread: 't'.repeat(201) }, /body\.thread/],
    ];
    for (const [body, field] of cases) {
      const res = await svc.http.post('/mind/chat').set(auth).send(body).expect(400);
      assert.match(res.body.message, field);
    }
    for (const limit of ['0', '501', 'x']) {
      const res = await svc.http.get('/mind/chat').set(auth).query({ limit }).expect(400);
      assert.match(res.body.message, /query\.limit/);
    }
    assert.deepEqual((await svc.http.get('/mind/chat').set(auth).expect(200)).body.messages, []);

    const other = await svc.mind();
    const theirs = (await svc.http.post('/mind/chat').set(bearer(other.mindKey)).send({ role: 'human', content: 'private' }).expect(201))
      .body;
    const res = await svc.http.get('/mind/chat').set(auth).query({ before: theirs.id }).expect(404);
    assert.match(res.body.message, /not found/);
    await svc.http.get('/mind/chat').set(auth).query({ before: 'nope' }).expect(404);
  });
});
