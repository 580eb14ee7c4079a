import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { useService } from './harness.js';

describe('scripts: bad input and other minds', () => {
  const svc = useService();

  test("bad input is 400 naming the field; another mind's script is 404 everywhere", async () => {
    const { auth } = await svc.mind();
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ content: 'x' }, /body\.name/],
      [{ name: '  ', content: 'x' }, /body\.name/],
      [{ name: 'n'.repeat(201), content: 'x' }, /body\.name/],
      [{ name: 'n' }, /body\.content/],
      [{ name: 'n', content: 'x', language: 'l'.repeat(51) }, /body\.language/],
      [{ name: 'n', content: 'x', description: 'd'.repeat(20001) }, /body\.description/],
    ];
    for (const [body, field] of cases) {
      const res = await svc.http.post('/mind/scripts').set(auth).send(body).expect(400);
      assert.match(res.body.message, field);
    }
    assert.deepEqual((await svc.http.get('/mind/scripts').set(auth).expect(200)).body.scripts, []);

    const other = await svc.mind();
    const theirs = (await svc.http.post('/mind/scripts').set(other.auth).send({ name: 'theirs', content: 'secret' }).expect(201)).body;
    for (const id of [theirs.id, '00000000-0000-4000-8000-000000000000']) {
      await svc.http.get(`/mind/scripts/${id}`).set(auth).expect(404);
      await svc.http.put(`/mind/scripts/${id}`).set(auth).send({ content: 'mine' }).expect(404);
      await svc.http.delete(`/mind/scripts/${id}`).set(auth).expect(404);
    }
    assert.equal((await svc.http.get(`/mind/scripts/${theirs.id}`).set(other.auth).expect(200)).body.content, 'secret');
  });
});
