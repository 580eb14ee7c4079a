import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, test } from 'node:test';
import type { PolledCommand } from '@mindservice/contract';
import { InProcessCommandBus } from '../src/computers/bus.js';
import { bearer, TEST_DATABASE_URL, TestClock, useService } from './harness.js';
import { getCommand, mindWithComputer, poll, queue } from './computers/helpers.js';
import { eventually } from './webhooks/receiver.js';

// PostgreSQL hands a command queued in the instance that holds the computer's poll straight to that
// poll, in the statement that queues it (computers/dispatch-postgres.ts), instead of the poll claiming
// it in a round trip of its own. These tests hold the guarantees of that shortcut.
describe('a command handed to the poll held in the same instance', {
  skip: TEST_DATABASE_URL ? false : 'PostgreSQL only (MIND_TEST_DATABASE_URL)',
}, () => {
  const clock = new TestClock();
  const svc = useService({}, { clock });
  let server: Server;
  let url: string;
  before(async () => {
    server = createServer(svc.app);
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => new Promise<void>((done) => server.close(() => done())));

  /** Starts a poll over a real socket; answers once this instance holds it (its first look touched the computer). */
  async function heldPoll(svcCredential: string, computerId: string, token: string) {
    clock.advance(10_000);
    const startedAt = clock.now().toISOString();
    const client = new AbortController();
    const answer = fetch(`${url}/computers/me/poll?wait=20`, { headers: bearer(token), signal: client.signal }).then(async (res) => {
      assert.equal(res.status, 200);
      return (await res.json()) as { commands: Array<{ command_id: string; type: string; payload: unknown }> };
    });
    answer.catch(() => undefined);
    await eventually(async () => {
      const res = await svc.http.get(`/computers/${computerId}`).set(bearer(svcCredential)).expect(200);
      return String(res.body.last_seen_at) >= startedAt || undefined;
    });
    return { answer, client };
  }

  test('the poll answers with the command, which is sent once', async () => {
    const { mindKey, computerId, token } = await mindWithComputer(svc);
    const { answer } = await heldPoll(mindKey, computerId, token);
    const queued = await svc.http
      .post(`/computers/${computerId}/commands`)
      .set(bearer(mindKey))
      .send({ type: 'move', payload: { x: 3, y: 4 } })
      .expect(201);
    assert.equal(queued.body.status, 'queued', 'the answer says what happened on creation');
    const { commands } = await answer;
    assert.deepEqual(
      commands.map((c) => [c.command_id, c.type, c.payload]),
      [[queued.body.command_id, 'move', { x: 3, y: 4 }]],
    );
    const stored = await getCommand(svc, mindKey, computerId, queued.body.command_id);
    assert.equal(stored.status, 'sent');
    assert.equal(stored.attempts, 1);
    assert.ok(stored.sent_at);
    assert.deepEqual(await poll(svc, token, 0), [], 'nothing is left to claim');
  });

  test('a poll whose client went away while its command was being queued leaves the command queued for the next poll', async () => {
    const { mindKey, computerId, token } = await mindWithComputer(svc);
    const { answer, client } = await heldPoll(mindKey, computerId, token);
    // Holding the computer's row keeps the queueing statement waiting after it took the poll.
    const lock = await svc.ctx.db.transaction();
    try {
      await lock.raw('SELECT id FROM computers WHERE id = ? FOR UPDATE', [computerId]);
      const queueing = svc.http
        .post(`/computers/${computerId}/commands`)
        .set(bearer(mindKey))
        .send({ type: 'key', payload: { keys: ['a'] } });
      const sent = queueing.then((r) => r);
      await sleep(300); // the request took the poll and waits for the row
      client.abort();
      await assert.rejects(answer);
      await sleep(200); // the server saw the socket close
      await lock.commit();
      const res = await sent;
      assert.equal(res.status, 201);
      const stored = await getCommand(svc, mindKey, computerId, res.body.command_id);
      assert.equal(stored.status, 'queued', 'nobody received it');
      assert.equal(stored.attempts, 0);
      assert.equal(stored.sent_at, null);
      const next = await poll(svc, token, 0);
      assert.deepEqual(
        next.map((c) => c.command_id),
        [res.body.command_id],
      );
      assert.equal((await getCommand(svc, mindKey, computerId, res.body.command_id)).attempts, 1);
    } finally {
      if (!lock.isCompleted()) await lock.rollback();
    }
  });

  test('a poll whose look claims an older command while a newer one is handed to it loses neither', async () => {
    const { mindKey, computerId, token } = await mindWithComputer(svc);
    const older = await queue(svc, mindKey, computerId, { type: 'move', payload: { x: 1, y: 1 } });
    // Holding the computer's row keeps the poll's look (its claim) and then the queueing statement
    // waiting, in that order: the claim takes the older command, then the newer one is handed over.
    const lock = await svc.ctx.db.transaction();
    try {
      await lock.raw('SELECT id FROM computers WHERE id = ? FOR UPDATE', [computerId]);
      const first = fetch(`${url}/computers/me/poll?wait=5`, { headers: bearer(token) }).then(
        async (res) => ((await res.json()) as { commands: PolledCommand[] }).commands,
      );
      await sleep(300); // the poll waits for the row, its wait registered
      const newer = svc.http
        .post(`/computers/${computerId}/commands`)
        .set(bearer(mindKey))
        .send({ type: 'move', payload: { x: 2, y: 2 } })
        .then((r) => r);
      await sleep(300); // the request took the poll and waits for the row
      await lock.commit();
      const delivered = (await first).map((c) => c.command_id);
      const queued = await newer;
      assert.equal(queued.status, 201);
      assert.equal(delivered[0], older);
      if (!delivered.includes(queued.body.command_id)) {
        // Not in that answer: then the next poll gets it at once, not after the sweeper's lease.
        const startedAt = performance.now();
        const next = await poll(svc, token, 5);
        const waited = performance.now() - startedAt;
        assert.deepEqual(
          next.map((c) => c.command_id),
          [queued.body.command_id],
          `the next poll answered ${JSON.stringify(next)} after ${waited.toFixed(0)} ms`,
        );
        assert.ok(waited < 2000, `the next poll waited ${waited.toFixed(0)} ms`);
      }
      assert.equal((await getCommand(svc, mindKey, computerId, queued.body.command_id)).status, 'sent');
    } finally {
      if (!lock.isCompleted()) await lock.rollback();
    }
  });

  test('a refused command leaves the poll waiting for the next one, without looking again', async () => {
    const { mindKey, computerId, token } = await mindWithComputer(svc);
    const { answer } = await heldPoll(mindKey, computerId, token);
    const seenAt = (await svc.http.get(`/computers/${computerId}`).set(bearer(mindKey)).expect(200)).body.last_seen_at;
    await svc.http.post(`/computers/${computerId}/commands`).set(bearer(mindKey)).send({ type: 'nosuch', payload: {} }).expect(400);
    clock.advance(10_000);
    const other = await mindWithComputer(svc);
    await svc.http
      .post(`/computers/${computerId}/commands`)
      .set(bearer(other.mindKey))
      .send({ type: 'move', payload: { x: 1, y: 1 } })
      .expect(404);
    // Another tenant's request costs the poll nothing: it did not look (a look touches the computer).
    assert.equal((await svc.http.get(`/computers/${computerId}`).set(bearer(mindKey)).expect(200)).body.last_seen_at, seenAt);
    const queued = await svc.http
      .post(`/computers/${computerId}/commands`)
      .set(bearer(mindKey))
      .send({ type: 'move', payload: { x: 2, y: 2 } })
      .expect(201);
    const { commands } = await answer;
    assert.deepEqual(
      commands.map((c) => c.command_id),
      [queued.body.command_id],
    );
  });
});

describe('the bus: a taken poll', () => {
  const command: PolledCommand = { command_id: 'c1', type: 'move', payload: { x: 1, y: 1 }, created_at: '2026-01-01T00:00:00.000Z' };

  test('is no longer waiting, and gets what is delivered', async () => {
    const bus = new InProcessCommandBus();
    const waiter = bus.waitForComputer('pc', 5000);
    const handoff = bus.takePoll('pc');
    assert.ok(handoff);
    assert.equal(await waiter.done, 'taken');
    assert.equal(bus.isPolling('pc'), false);
    assert.equal(bus.takePoll('pc'), undefined, 'taken once');
    assert.equal(handoff.deliver([command]), true);
    assert.deepEqual(await waiter.handoff, { commands: [command] });
    bus.close();
  });

  test('released, looks again only if its computer was notified meanwhile', async () => {
    const bus = new InProcessCommandBus();
    const quiet = bus.waitForComputer('pc', 5000);
    bus.takePoll('pc')!.release();
    assert.deepEqual(await quiet.handoff, { look: false });
    const notified = bus.waitForComputer('pc', 5000);
    const handoff = bus.takePoll('pc')!;
    bus.notifyComputer('pc');
    handoff.release();
    assert.deepEqual(await notified.handoff, { look: true });
    bus.close();
  });

  test('abandoned by its client, refuses a later delivery', async () => {
    const bus = new InProcessCommandBus();
    const waiter = bus.waitForComputer('pc', 5000);
    const handoff = bus.takePoll('pc')!;
    waiter.abandon();
    assert.equal(handoff.deliver([command]), false);
    assert.deepEqual(await waiter.handoff, { look: false });
    bus.close();
  });
});
