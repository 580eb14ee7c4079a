// Several instances on one PostgreSQL database (issue 9): long-poll wake-ups, webhook deliveries and
// the ?key= rate limit cross instances through the database alone.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { freshPostgresSchema, TEST_DATABASE_URL } from './harness.js';
import { startServerProcess, type ServerProcess } from './server-process.js';
import { eventually, type Receiver, startReceiver } from './webhooks/receiver.js';

const json = async (url: string, init: RequestInit & { token?: string } = {}) => {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (init.token) headers.authorization = `Bearer ${init.token}`;
  const res = await fetch(url, { ...init, headers });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
};

describe('several instances on one PostgreSQL database', {
  skip: TEST_DATABASE_URL ? false : 'needs PostgreSQL (MIND_TEST_DATABASE_URL)',
}, () => {
  let a: ServerProcess;
  let b: ServerProcess;
  let receiver: Receiver;
  let dropSchema = async () => {};
  const dirs: string[] = [];
  let mindKey = '';

  before(async () => {
    const schema = await freshPostgresSchema(TEST_DATABASE_URL!);
    dropSchema = schema.drop;
    receiver = await startReceiver();
    // Each instance has its own data directory; the JWT secret and encryption key are shared through the database.
    const env = () => {
      const dir = mkdtempSync(join(tmpdir(), 'mind-instance-'));
      dirs.push(dir);
      return { DATABASE_URL: schema.url, MIND_DATA_DIR: dir, MIND_WEBHOOK_RETRY_SCHEDULE: '50ms,100ms', MIND_WEBHOOK_TIMEOUT: '5s' };
    };
    a = await startServerProcess(env()); // migrates
    b = await startServerProcess(env());
    const user = await json(`${a.url}/register`, {
      method: 'POST',
      body: JSON.stringify({ email: 'multi@example.com', password: 'secret-pw' }),
    });
    assert.equal(user.status, 201);
    // A JWT from instance A works on instance B.
    const mind = await json(`${b.url}/minds`, { method: 'POST', token: user.body.jwt, body: JSON.stringify({ name: 'shared' }) });
    assert.equal(mind.status, 201);
    mindKey = mind.body.mind_key;
  });

  after(async () => {
    await Promise.all([a?.stop('SIGTERM'), b?.stop('SIGTERM')]);
    await receiver?.close();
    await dropSchema();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  test('a command queued through instance A reaches an agent long-polling instance B within 100 ms', async (t) => {
    const code = await json(`${a.url}/computers/install-code`, {
      method: 'POST',
      token: mindKey,
      body: JSON.stringify({ computer_name: 'pc' }),
    });
    const registered = await json(`${b.url}/computers/register`, {
      method: 'POST',
      body: JSON.stringify({ code: code.body.install_code, computer_name: 'pc', platform: 'linux', platform_release: '6', python: 'node' }),
    });
    assert.equal(registered.status, 201);
    const { computer_id: computerId, computer_token: token } = registered.body;

    const latencies: number[] = [];
    for (let round = 0; round < 5; round++) {
      const polled = json(`${b.url}/computers/me/poll?wait=10`, { token }).then((r) => ({ ...r, at: performance.now() }));
      // The poll is held by B once A's GET /computers/:id reports it online through the shared database.
      await eventually(async () => (await json(`${a.url}/computers/${computerId}`, { token: mindKey })).body.online === true, 5000);
      await new Promise((r) => setTimeout(r, 50));
      const queuedAt = performance.now();
      const queued = await json(`${a.url}/computers/${computerId}/commands`, {
        method: 'POST',
        token: mindKey,
        body: JSON.stringify({ type: 'click', payload: { x: round, y: 1 } }),
      });
      assert.equal(queued.status, 201);
      const answer = await polled;
      assert.equal(answer.status, 200);
      assert.deepEqual(
        answer.body.commands.map((c: { command_id: string }) => c.command_id),
        [queued.body.command_id],
      );
      const latency = answer.at - queuedAt;
      // Far below the 10 s wait in every round: B was woken, not timed out.
      assert.ok(latency < 1000, `round ${round}: the poll on B answered ${latency.toFixed(1)} ms after the queue on A`);
      latencies.push(latency);
    }
    const shown = latencies.map((l) => l.toFixed(1)).join(', ');
    t.diagnostic(`queue on A -> poll answered on B: ${shown} ms`);
    // The median, not every round: CI runs two test files at once on two cores, and one round there
    // took 103 ms (the request to A included); a wake-up that did not work would miss in every round.
    const median = [...latencies].sort((x, y) => x - y)[2]!;
    assert.ok(median < 100, `median ${median.toFixed(1)} ms from the queue on A to the answer on B (${shown})`);
  });

  test('polls of one computer racing on both instances while commands are queued hand each command over exactly once', async () => {
    const code = await json(`${a.url}/computers/install-code`, { method: 'POST', token: mindKey, body: JSON.stringify({}) });
    const registered = await json(`${a.url}/computers/register`, {
      method: 'POST',
      body: JSON.stringify({
        code: code.body.install_code,
        computer_name: 'racer',
        platform: 'linux',
        platform_release: '6',
        python: 'node',
      }),
    });
    assert.equal(registered.status, 201);
    const { computer_id: computerId, computer_token: token } = registered.body;

    const delivered: string[] = [];
    let queueing = true;
    // Six agents' worth of polls (three on each instance) claim while 100 commands are queued through both.
    const polls = Array.from({ length: 6 }, async (_, i) => {
      for (let last = false; !last; ) {
        last = !queueing; // one more round after the last command was queued
        const answer = await json(`${i % 2 ? a.url : b.url}/computers/me/poll?wait=0`, { token });
        assert.equal(answer.status, 200);
        delivered.push(...answer.body.commands.map((c: { command_id: string }) => c.command_id));
      }
    });
    const queued = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        json(`${i % 2 ? a.url : b.url}/computers/${computerId}/commands`, {
          method: 'POST',
          token: mindKey,
          body: JSON.stringify({ type: 'click', payload: { x: i, y: 0 } }),
        }),
      ),
    );
    queueing = false;
    await Promise.all(polls);
    assert.ok(queued.every((r) => r.status === 201));
    assert.equal(delivered.length, 100, 'no command twice, none left behind');
    assert.deepEqual(new Set(delivered), new Set(queued.map((r) => r.body.command_id)));
  });

  test('200 events fanned out while both instances run are each delivered exactly once', async () => {
    const hook = await json(`${a.url}/webhooks`, {
      method: 'POST',
      token: mindKey,
      body: JSON.stringify({ url: `${receiver.url}/fanout`, events: 'task.created', secret: 'shared-secret' }),
    });
    assert.equal(hook.status, 201);
    // Half the tasks through each instance, concurrently: both workers claim from the same table.
    const created = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        json(`${i % 2 ? a.url : b.url}/mind/task`, { method: 'POST', token: mindKey, body: JSON.stringify({ title: `task ${i}` }) }),
      ),
    );
    assert.ok(created.every((r) => r.status === 201));
    await eventually(() => receiver.received.filter((r) => r.path === '/fanout').length >= 200, 30_000);
    await new Promise((r) => setTimeout(r, 1000)); // room for a duplicate to show up
    const got = receiver.received.filter((r) => r.path === '/fanout');
    const deliveryIds = got.map((r) => r.headers['x-service-delivery']);
    const taskIds = got.map((r) => JSON.parse(r.raw.toString()).data.id);
    assert.equal(got.length, 200, 'no delivery twice');
    assert.equal(new Set(deliveryIds).size, 200);
    assert.deepEqual(new Set(taskIds), new Set(created.map((r) => r.body.id)));
  });

  test('61 ?key= requests from one IP spread over both instances give exactly one 429', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 61; i++) {
      const res = await fetch(`${i % 2 ? a.url : b.url}/mind/tasks?key=${mindKey}`);
      statuses.push(res.status);
      await res.arrayBuffer();
    }
    assert.equal(statuses.filter((s) => s === 429).length, 1, `statuses: ${statuses.join(',')}`);
    assert.equal(statuses[60], 429);
    assert.ok(statuses.slice(0, 60).every((s) => s === 200));
  });
});
