// Durability: deliveries pending when the server process is killed (-9) are sent after it starts again.
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { loadConfig } from '../src/lib/config.js';
import { openDatabase } from '../src/db/database.js';
import { EventRecorder } from '../src/events/recorder.js';
import { systemClock } from '../src/lib/clock.js';
import { queueDeliveries } from '../src/webhooks/service.js';
import { startService, TEST_DATABASE_URL } from './harness.js';
import { createWebhook, recordEvent } from './webhooks/helpers.js';
import { callServer, startServerProcess } from './server-process.js';
import { eventually, startReceiver } from './webhooks/receiver.js';

/** The service as a real process on `dataDir`; the lease of a claimed delivery is 2 x timeout + 1 s, so rows in flight at a kill go out again 3 s later. */
const startServer = (dataDir: string) =>
  startServerProcess({ MIND_DATA_DIR: dataDir, MIND_WEBHOOK_TIMEOUT: '1s', MIND_WEBHOOK_RETRY_SCHEDULE: '50ms,50ms,50ms' });

const call = callServer;

describe('webhooks: durable delivery across a crash', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'mind-webhooks-restart-'));
  const children: ChildProcess[] = [];
  after(() => {
    for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  });

  test('deliveries pending at kill -9 (in flight or never tried) are delivered after a restart', async () => {
    const receiver = await startReceiver();
    receiver.respond(() => undefined); // hold every request: the deliveries stay in flight
    // The test writes events into the server's database the way the server does (same transaction,
    // same hook), so it does not depend on any other area's routes.
    const db = openDatabase(loadConfig({ MIND_DATA_DIR: dataDir }));
    const recorder = new EventRecorder(systemClock);
    recorder.addHook(async (trx, events) => void (await queueDeliveries(trx, events)));
    const record = (mindId: string, n: number) => db.transaction((trx) => recorder.record(trx, mindId, 'task.created', { n }));

    try {
      const first = await startServer(dataDir);
      children.push(first.child);
      const { jwt } = await call(first.url, 'POST', '/register', null, { email: 'crash@example.com', password: 'correct horse' });
      const mind = await call(first.url, 'POST', '/minds', jwt, { name: 'crash test' });
      await call(first.url, 'POST', '/webhooks', mind.mind_key, {
        url: `${receiver.url}/durable`,
        events: 'task.*',
        secret: 'durable-secret',
      });

      const inFlight = [];
      for (let n = 1; n <= 5; n++) inFlight.push(await record(mind.id, n));
      await receiver.waitFor(5, '/durable', 10_000); // the first server is sending them now
      first.child.kill('SIGKILL');
      await new Promise((r) => first.child.once('exit', r));

      const pendingAtKill = await db('webhook_deliveries').where({ mind_id: mind.id }).select('id', 'status', 'attempt_count');
      assert.equal(pendingAtKill.length, 5);
      assert.ok(
        pendingAtKill.every((d) => d.status === 'pending' && d.attempt_count === 0),
        'nothing was recorded before the kill',
      );

      // Two more events while no server runs.
      const whileDown = [await record(mind.id, 6), await record(mind.id, 7)];

      receiver.respond((_req, res) => res.writeHead(200).end());
      const second = await startServer(dataDir);
      children.push(second.child);

      const expected = new Set(pendingAtKill.map((d) => d.id));
      let allIds: string[] = [];
      await eventually(
        async () => {
          const rows = await db('webhook_deliveries').where({ mind_id: mind.id }).select('id', 'status');
          allIds = rows.map((r) => r.id as string);
          return rows.length === 7 && rows.every((r) => r.status === 'succeeded');
        },
        15_000,
        'all seven deliveries to succeed after the restart',
      );
      for (const id of allIds) expected.add(id);
      assert.equal(expected.size, 7);

      const delivered = new Set(receiver.at('/durable').map((r) => r.headers['x-service-delivery']));
      for (const id of expected) assert.ok(delivered.has(id), `delivery ${id} reached the receiver`);
      const eventIds = new Set(receiver.at('/durable').map((r) => r.json.id));
      for (const event of [...inFlight, ...whileDown]) assert.ok(eventIds.has(event.id), `event ${event.id} delivered`);
      second.child.kill('SIGTERM');
      await new Promise((r) => second.child.once('exit', r));
    } finally {
      await db.destroy();
      await receiver.close();
    }
  });

  // It reopens the SQLite file after the stop; the same worker code runs on PostgreSQL in the other tests.
  test('stopping the service aborts an attempt that outlives the grace period and gives its row back uncounted', {
    skip: TEST_DATABASE_URL ? 'reads the SQLite file after the stop' : false,
  }, async () => {
    const stopDir = mkdtempSync(join(tmpdir(), 'mind-webhooks-stop-'));
    const receiver = await startReceiver();
    receiver.respond(() => undefined); // never answers
    const svc = await startService({ MIND_DATA_DIR: stopDir, MIND_WEBHOOK_TIMEOUT: '30s' });
    try {
      const { mindId, mindKey } = await svc.mind();
      await createWebhook(svc, mindKey, { url: `${receiver.url}/stuck`, events: '*' });
      await recordEvent(svc, mindId, 'task.created', {});
      await receiver.waitFor(1, '/stuck');
      const started = Date.now();
      await svc.stop();
      const took = Date.now() - started;
      assert.ok(took >= 1900 && took < 5000, `stop took ${took} ms: it waits the 2 s MIND_SHUTDOWN_TIMEOUT, not the 30 s attempt timeout`);

      const db = openDatabase(loadConfig({ MIND_DATA_DIR: stopDir }));
      try {
        const [row] = await db('webhook_deliveries').where({ mind_id: mindId }).select('status', 'attempt_count', 'locked_until');
        assert.deepEqual(row, { status: 'pending', attempt_count: 0, locked_until: null });
        assert.equal((await db('webhook_attempts').where({ mind_id: mindId })).length, 0);
      } finally {
        await db.destroy();
      }
    } finally {
      await svc.stop();
      await receiver.close();
      rmSync(stopDir, { recursive: true, force: true });
    }
  });
});
