import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { bearer, startService, type TestService } from './harness.js';

describe('tasks: credentials and isolation between minds', () => {
  let svc: TestService;
  let owner: { jwt: string; mindId: string; mindKey: string };
  let ownerAuth: Record<string, string>;
  /** A mind of another user, and a second mind of the same user: both are strangers to the task. */
  let strangers: Array<{ name: string; mindId: string; mindKey: string }>;
  let task: Record<string, unknown>;

  before(async () => {
    svc = await startService();
    owner = await svc.mind();
    ownerAuth = bearer(owner.mindKey);
    const otherUser = await svc.mind();
    const sibling = await svc.addMind(owner.jwt, 'sibling');
    strangers = [
      { name: "another user's mind", ...otherUser },
      { name: 'another mind of the same user', ...sibling },
    ];
    task = (await svc.http.post('/mind/task').set(ownerAuth).send({ title: 'Private', description: 'owner only', due_at: '2026-12-01' }).expect(201)).body;
  });
  after(() => svc.stop());

  const eventCount = async (mindId: string) => Number((await svc.ctx.db('events').where({ mind_id: mindId }).count({ n: '*' }))[0].n);

  async function assertUnchanged() {
    const res = await svc.http.get(`/mind/task/${task.id}`).set(ownerAuth).expect(200);
    assert.deepEqual(res.body, task);
    assert.equal(await eventCount(owner.mindId), 1); // only its task.created
  }

  test('another mind cannot read, update, complete or delete the task: 404, task unchanged, no event', async () => {
    for (const stranger of strangers) {
      const viaHeader = bearer(stranger.mindKey);
      const attempts = [
        ['read', svc.http.get(`/mind/task/${task.id}`).set(viaHeader)],
        ['update', svc.http.put(`/mind/task/${task.id}`).set(viaHeader).send({ title: 'Taken', status: 'cancelled', due_at: null })],
        ['complete', svc.http.get(`/mind/task/${task.id}/complete`).set(viaHeader)],
        ['delete', svc.http.get(`/mind/task/${task.id}/delete`).set(viaHeader)],
        ['complete with ?key=', svc.http.get(`/mind/task/${task.id}/complete?key=${stranger.mindKey}`)],
        ['delete with ?key=', svc.http.get(`/mind/task/${task.id}/delete?key=${stranger.mindKey}`)],
      ] as const;
      for (const [what, req] of attempts) {
        const res = await req;
        assert.equal(res.status, 404, `${stranger.name}: ${what}`);
        assert.equal(res.body.message, 'Task not found');
        assert.equal(JSON.stringify(res.body).includes('Private'), false);
      }
      await assertUnchanged();
      assert.equal(await eventCount(stranger.mindId), 0);
    }
  });

  test("another mind's list does not show the task", async () => {
    for (const stranger of strangers) {
      const res = await svc.http.get('/mind/tasks?status=all').set(bearer(stranger.mindKey)).expect(200);
      assert.deepEqual(res.body.tasks, [], stranger.name);
    }
    const own = await svc.http.get('/mind/tasks').set(ownerAuth).expect(200);
    assert.deepEqual(own.body.tasks, [task]);
  });

  test('a task is created in the mind of the key, whatever the body says', async () => {
    const [stranger] = strangers;
    const res = await svc.http.post('/mind/task').set(bearer(stranger.mindKey)).send({ title: 'Mine', mind_id: owner.mindId }).expect(201);
    const row = await svc.ctx.db('tasks').where({ id: res.body.id }).first('mind_id');
    assert.equal(row.mind_id, stranger.mindId);
    await svc.http.get(`/mind/task/${res.body.id}`).set(ownerAuth).expect(404);
    await svc.http.get(`/mind/task/${res.body.id}/delete`).set(bearer(stranger.mindKey)).expect(200);
  });

  const routes = () =>
    [
      ['GET /mind/tasks', () => svc.http.get('/mind/tasks')],
      ['POST /mind/task', () => svc.http.post('/mind/task').send({ title: 'x' })],
      ['GET /mind/task (create form)', () => svc.http.get('/mind/task?title=x')],
      ['GET /mind/task/:id', () => svc.http.get(`/mind/task/${task.id}`)],
      ['PUT /mind/task/:id', () => svc.http.put(`/mind/task/${task.id}`).send({ title: 'x' })],
      ['GET /mind/task/:id/complete', () => svc.http.get(`/mind/task/${task.id}/complete`)],
      ['GET /mind/task/:id/delete', () => svc.http.get(`/mind/task/${task.id}/delete`)],
    ] as const;

  test('every task route answers 401 without a credential, with a JWT or with an unknown key', async () => {
    const credentials: Array<[string, Record<string, string>]> = [
      ['none', {}],
      ['a JWT', bearer(owner.jwt)],
      ['an unknown Mind Key', bearer('mk_unknown')],
      ['a malformed header', { Authorization: owner.mindKey }],
    ];
    for (const [route, request] of routes()) {
      for (const [what, headers] of credentials) {
        const res = await request().set(headers);
        assert.equal(res.status, 401, `${route} with ${what}`);
        assert.equal(res.body.statusCode, 401);
      }
    }
    const unknownKey = await svc.http.get('/mind/task?key=mk_unknown&title=x');
    assert.equal(unknownKey.status, 401);
    await assertUnchanged();
    const minds = [owner.mindId, ...strangers.map((s) => s.mindId)];
    assert.equal(Number((await svc.ctx.db('tasks').whereIn('mind_id', minds).count({ n: '*' }))[0].n), 1);
  });

  test('a disabled mind gets 403 and cannot change its tasks', async () => {
    await svc.ctx.db('minds').where({ id: owner.mindId }).update({ disabled_at: new Date().toISOString() });
    try {
      for (const [route, request] of routes()) {
        const res = await request().set(ownerAuth);
        assert.equal(res.status, 403, route);
      }
    } finally {
      await svc.ctx.db('minds').where({ id: owner.mindId }).update({ disabled_at: null });
    }
    await assertUnchanged();
  });
});
