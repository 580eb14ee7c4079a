// Commands queued while polls come and go (an agent that leaves mid-poll and comes back, through
// either of two instances on one PostgreSQL database; one instance on SQLite) each reach the agent
// at once: none waits for the sweeper's lease, none is handed to a poll that cannot answer.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, test } from 'node:test';
import { bearer, freshPostgresSchema, startService, TEST_DATABASE_URL, type TestService } from './harness.js';
import { registerComputer } from './computers/helpers.js';

const COMPUTERS = 3;
const QUEUEING_AT_ONCE = 4;
const COMMANDS_EACH = 40;
/** From the queue request's answer to the agent's: far below the sweeper's 60 s lease, generous for a busy CI box. */
const AT_ONCE_MS = 2000;
/**
 * A command handed to a poll whose client left before the answer arrived is lost to the agent (the
 * server cannot tell; the lease ends it): excused when handed over while such a poll was open, or
 * before its instance saw the client leave (these services share the test's busy event loop: a loaded
 * 2-core machine once took 107 ms to see it).
 */
const LEFT_SEEN_WITHIN_MS = 500;

interface Instance {
  svc: TestService;
  url: string;
  server: Server;
}

describe('computers: commands queued while polls come and go', () => {
  const instances: Instance[] = [];
  let dropSchema = async () => {};

  before(async () => {
    const schema = TEST_DATABASE_URL ? await freshPostgresSchema(TEST_DATABASE_URL) : undefined;
    if (schema) dropSchema = schema.drop;
    const env: Record<string, string> = schema ? { DATABASE_URL: schema.url } : {};
    // Two instances share one PostgreSQL database; SQLite is one process's file.
    for (let i = 0; i < (schema ? 2 : 1); i++) {
      const svc = await startService(env);
      const server = createServer(svc.app);
      await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
      instances.push({ svc, server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` });
    }
  });
  after(async () => {
    for (const { svc, server } of instances) {
      server.closeAllConnections();
      await new Promise<void>((done) => server.close(() => done()));
      await svc.stop();
    }
    await dropSchema();
  });

  test('every command reaches the agent at once', async (t) => {
    const first = instances[0]!.svc;
    const { mindKey } = await first.mind();
    const computers = await Promise.all(Array.from({ length: COMPUTERS }, () => registerComputer(first, mindKey)));
    const queuedAt = new Map<string, number>();
    const deliveredAt = new Map<string, number>();
    /** Polls whose client left before their answer, per computer: when they started and left. */
    const leftPolls = new Map<string, Array<{ from: number; to: number }>>(computers.map((c) => [c.computerId, []]));
    let polls = 0;
    let left = 0;
    let queueing = true;
    let lastQueuedAt = Date.now();

    // Each agent polls the instances in turn; every sixth poll leaves after 5-45 ms and polls again.
    const agents = computers.map(async ({ computerId, token }, n) => {
      for (let i = n; queueing || deliveredAt.size < queuedAt.size; i++) {
        const { url } = instances[i % instances.length]!;
        const client = new AbortController();
        const leaving = i % 6 === 0;
        const from = Date.now();
        const timer = leaving
          ? setTimeout(
              () => {
                leftPolls.get(computerId)!.push({ from, to: Date.now() });
                left++;
                client.abort();
              },
              5 + Math.random() * 40,
            )
          : undefined;
        polls++;
        try {
          const res = await fetch(`${url}/computers/me/poll?wait=1`, { headers: bearer(token), signal: client.signal });
          const body = (await res.json()) as { commands: Array<{ command_id: string }> };
          clearTimeout(timer);
          assert.equal(res.status, 200, JSON.stringify(body));
          for (const c of body.commands) {
            assert.equal(deliveredAt.has(c.command_id), false, `${c.command_id} delivered twice`);
            deliveredAt.set(c.command_id, Date.now());
          }
        } catch (err) {
          if (!client.signal.aborted) throw err;
        }
        if (!queueing && Date.now() > lastQueuedAt + AT_ONCE_MS) return;
      }
    });

    // Requests queue at once on random computers through random instances.
    await Promise.all(
      Array.from({ length: QUEUEING_AT_ONCE }, async (_, w) => {
        for (let i = 0; i < COMMANDS_EACH; i++) {
          const { computerId } = computers[Math.floor(Math.random() * COMPUTERS)]!;
          const { url } = instances[Math.floor(Math.random() * instances.length)]!;
          const res = await fetch(`${url}/computers/${computerId}/commands`, {
            method: 'POST',
            headers: { ...bearer(mindKey), 'content-type': 'application/json' },
            body: JSON.stringify({ type: 'move', payload: { x: w, y: i } }),
          });
          const body = (await res.json()) as { command_id: string };
          assert.equal(res.status, 201, JSON.stringify(body));
          queuedAt.set(body.command_id, Date.now());
          lastQueuedAt = Date.now();
          await sleep(Math.random() * 15);
        }
      }),
    );
    queueing = false;
    await Promise.all(agents);

    const late: string[] = [];
    let excused = 0;
    for (const [id, at] of queuedAt) {
      const delivered = deliveredAt.get(id);
      if (delivered !== undefined) {
        if (delivered - at > AT_ONCE_MS) late.push(`${id}: after ${delivered - at} ms`);
        continue;
      }
      const row = (await first.ctx.db('commands').where({ id }).first('computer_id', 'status', 'sent_at')) as {
        computer_id: string;
        status: string;
        sent_at: string | null;
      };
      const sentAt = row.sent_at ? Date.parse(row.sent_at) : NaN;
      const leftThen = leftPolls.get(row.computer_id)!.some(({ from, to }) => sentAt >= from - 20 && sentAt <= to + LEFT_SEEN_WITHIN_MS);
      if (row.status === 'sent' && leftThen) excused++;
      else {
        const nearest = Math.min(...leftPolls.get(row.computer_id)!.map(({ from, to }) => Math.max(from - sentAt, sentAt - to, 0)));
        late.push(`${id}: never delivered (${row.status}, sent_at ${row.sent_at}, ${nearest} ms from a poll that left)`);
      }
    }
    t.diagnostic(
      `${queuedAt.size} commands, ${polls} polls on ${instances.length} instance(s), ${left} left mid-poll; ${excused} lost as a poll left`,
    );
    assert.deepEqual(late, [], 'every command reaches the agent at once');
  });
});
