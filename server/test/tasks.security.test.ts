// No credential, the wrong kind, another mind's key and a disabled mind: security.routes.test.ts, for every route.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { bearer, useService } from './harness.js';

describe('tasks: a task belongs to the mind of the key', () => {
  const svc = useService();

  test('a task is created in the mind of the key, whatever the body says', async () => {
    const owner = await svc.mind();
    const stranger = await svc.mind();
    const res = await svc.http.post('/mind/task').set(stranger.auth).send({ title: 'Mine', mind_id: owner.mindId }).expect(201);
    const row = await svc.ctx.db('tasks').where({ id: res.body.id }).first('mind_id');
    assert.equal(row.mind_id, stranger.mindId);
    await svc.http.get(`/mind/task/${res.body.id}`).set(owner.auth).expect(404);
    await svc.http.get(`/mind/task/${res.body.id}/delete`).set(bearer(stranger.mindKey)).expect(200);
  });
});
