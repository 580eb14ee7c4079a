// Accounts, minds, tasks and system through the SDK against a live service.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { MindClient, NotFoundError, UnauthorizedError } from '../src/index.js';
import { startLiveServer, type LiveServer } from './live-server.js';

describe('accounts, minds, tasks, system', () => {
  let live: LiveServer;
  before(async () => {
    live = await startLiveServer();
  });
  after(() => live.stop());

  it('register then login answer a JWT and the user', async () => {
    const email = `ada-${Date.now()}@example.com`;
    const registered = await live.client.accounts.register({ email, password: 'correct horse', display_name: 'Ada' });
    assert.equal(registered.user.email, email);
    assert.equal(registered.user.display_name, 'Ada');
    const login = await live.client.accounts.login({ email, password: 'correct horse' });
    assert.equal(login.user.id, registered.user.id);
    assert.match(login.jwt, /^[\w-]+\.[\w-]+\.[\w-]+$/);
    await assert.rejects(live.client.accounts.login({ email, password: 'wrong password' }), UnauthorizedError);
  });

  it('minds: create answers the key once, list shows it, delete removes it and its key', async () => {
    const { jwt } = await live.client.accounts.register({ email: `m-${Date.now()}@example.com`, password: 'correct horse' });
    const user = live.client.withOptions({ jwt });
    const mind = await user.minds.create({ name: 'research', description: 'notes' });
    assert.match(mind.mind_key, /^mk_/);
    const list = await user.minds.list();
    assert.deepEqual(
      list.data.map((m) => [m.id, m.name, m.memory_count]),
      [[mind.id, 'research', 0]],
    );
    const withKey = user.withOptions({ mindKey: mind.mind_key });
    assert.deepEqual((await withKey.tasks.list()).data, []);
    assert.equal(await user.minds.delete(mind.id), undefined, 'a 204: nothing to answer');
    assert.deepEqual((await user.minds.list()).data, []);
    await assert.rejects(withKey.tasks.list(), UnauthorizedError);
  });

  it('tasks: create, list by status, get, update, complete, delete', async () => {
    const { client } = await live.account();
    const task = await client.tasks.create({ title: 'Write the report', priority: 'high', due_at: '2026-12-01' });
    assert.equal(task.status, 'pending');
    assert.equal(task.priority, 'high');
    assert.equal(task.due_at, '2026-12-01T00:00:00.000Z');
    const other = await client.tasks.create({ title: 'Second' });
    assert.deepEqual(
      (await client.tasks.list()).data.map((t) => t.id),
      [task.id, other.id],
    );

    const started = await client.tasks.update(task.id, { status: 'in_progress', description: 'two pages' });
    assert.equal(started.status, 'in_progress');
    assert.equal((await client.tasks.get(task.id)).description, 'two pages');

    const done = await client.tasks.complete(other.id);
    assert.equal(done.status, 'done');
    assert.ok(done.completed_at);
    assert.deepEqual(
      (await client.tasks.list({ status: 'done' })).data.map((t) => t.id),
      [other.id],
    );
    assert.equal((await client.tasks.list({ status: 'all' })).data.length, 2);

    assert.deepEqual(await client.tasks.delete(task.id), { deleted: true, id: task.id });
    await assert.rejects(client.tasks.get(task.id), NotFoundError);
  });

  it("another mind's task is NotFoundError", async () => {
    const a = await live.account();
    const b = await live.account();
    const task = await a.client.tasks.create({ title: 'private' });
    await assert.rejects(b.client.tasks.get(task.id), NotFoundError);
  });

  it('system: health and the list of endpoints', async () => {
    const health = await live.client.system.health();
    assert.equal(health.status, 'ok');
    const endpoints = await live.client.system.endpoints();
    assert.ok(endpoints.data.some((e) => e.method === 'POST' && e.path === '/mind/task'));
  });

  it('a client without credentials still reaches public routes; withOptions keeps the base URL', () => {
    const c = new MindClient({ baseUrl: `${live.baseUrl}///` });
    assert.equal(c.baseUrl, live.baseUrl);
    assert.equal(c.withOptions({ jwt: 'x' }).baseUrl, live.baseUrl);
    assert.throws(() => new MindClient({ baseUrl: '' }), TypeError);
  });
});
