import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import type { Knex } from 'knex';
import { markMindDeleted } from '../src/minds/store.js';
import { bearer, freshPostgresSchema, startService, TEST_DATABASE_URL, type TestService } from './harness.js';

/** Tables that hold a mind's rows (commands hang off computers). */
const MIND_TABLES = [
  'events',
  'tasks',
  'memories',
  'memory_tags',
  'chat_messages',
  'scripts',
  'webhooks',
  'webhook_deliveries',
  'webhook_attempts',
  'computers',
  'install_codes',
];

async function rowsOfMind(db: Knex, mindId: string): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of MIND_TABLES) {
    const row = await db(table).where({ mind_id: mindId }).count<{ n: number | string }>({ n: '*' }).first();
    counts[table] = Number(row?.n ?? 0);
  }
  counts.minds = Number((await db('minds').where({ id: mindId }).count<{ n: number | string }>({ n: '*' }).first())?.n ?? 0);
  return counts;
}

const total = (counts: Record<string, number>) => Object.values(counts).reduce((a, b) => a + b, 0);

/** Waits for the mind's row (removed last), then checks that nothing of the mind is left. */
async function waitUntilGone(db: Knex, mindId: string, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  // Polls the minds row only: counting the big tables by mind_id (no index there) would itself block.
  while (await db('minds').where({ id: mindId }).first('id')) {
    if (Date.now() > deadline) assert.fail(`rows left after ${timeoutMs} ms: ${JSON.stringify(await rowsOfMind(db, mindId))}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * A large mind written straight into the database (the API would take minutes): tasks, events,
 * 20 webhooks with a pending delivery per event each (not due, so the worker leaves them), an
 * attempt for some, and memories, tags and chat through the API (search index rows included).
 */
async function seedLargeMind(svc: TestService, mindId: string, mindKey: string, events: number) {
  const db = svc.ctx.db;
  const now = new Date().toISOString();
  const later = '2100-01-01T00:00:00.000Z';
  const webhooks = Array.from({ length: 20 }, (_, i) => ({
    id: randomUUID(),
    mind_id: mindId,
    url: `https://hooks${i}.example.com/in`,
    events: '*',
    secret_encrypted: 'x',
    // Disabled: the API writes below queue no deliveries the worker would try to send meanwhile.
    enabled: false,
    created_at: now,
    last_call: null,
    last_status: null,
    last_error: null,
  }));
  await db('webhooks').insert(webhooks);
  const eventRows = Array.from({ length: events }, () => ({
    id: randomUUID(),
    mind_id: mindId,
    type: 'task.created',
    data: '{}',
    created_at: now,
  }));
  await db.batchInsert('events', eventRows, 500);
  const taskRows = eventRows.map((_, i) => ({
    id: randomUUID(),
    mind_id: mindId,
    title: `task ${i}`,
    description: null,
    priority: 'normal',
    status: 'pending',
    due_at: null,
    created_at: now,
    updated_at: now,
    completed_at: null,
    status_rank: 1,
    priority_rank: 2,
  }));
  await db.batchInsert('tasks', taskRows, 500);
  const deliveries = eventRows.flatMap((e) =>
    webhooks.map((w) => ({
      id: randomUUID(),
      mind_id: mindId,
      webhook_id: w.id,
      event_id: e.id,
      event: 'task.created',
      status: 'pending',
      attempt_count: 1,
      next_attempt_at: later,
      locked_until: null,
      lock_token: null,
      created_at: now,
    })),
  );
  await db.batchInsert('webhook_deliveries', deliveries, 500);
  const attempts = deliveries.slice(0, 5000).map((d) => ({
    id: randomUUID(),
    mind_id: mindId,
    delivery_id: d.id,
    attempt: 1,
    at: now,
    status_code: 500,
    error: 'HTTP 500',
    duration_ms: 3,
  }));
  await db.batchInsert('webhook_attempts', attempts, 500);
  const auth = bearer(mindKey);
  for (let i = 0; i < 200; i += 20) {
    await Promise.all(
      Array.from({ length: 20 }, (_, j) =>
        svc.http
          .post('/memory')
          .set(auth)
          .send({ category: 'fact', key: `k${i + j}`, content: `memory number ${i + j} about deletion`, tags: ['a', 'b'] })
          .expect(201),
      ),
    );
  }
  await svc.http.post('/mind/chat').set(auth).send({ role: 'human', content: 'hello' }).expect(201);
  await svc.http.post('/mind/scripts').set(auth).send({ name: 'one', content: 'print(1)' }).expect(201);
}

describe('minds: deleting a large mind', () => {
  const services: TestService[] = [];
  after(async () => {
    for (const svc of services) await svc.stop();
  });

  test('answers 204 at once, the key is 401 at once, the rows go in the background without blocking the event loop', async () => {
    const svc = await startService();
    services.push(svc);
    const { jwt, mindId, mindKey } = await svc.mind();
    const other = await svc.addMind(jwt, 'kept');
    await seedLargeMind(svc, mindId, mindKey, 5000);
    const before = await rowsOfMind(svc.ctx.db, mindId);
    assert.ok(before.webhook_deliveries >= 100_000);

    // The histogram, and a 5 ms ticker's longest gap besides (the histogram records a block only
    // once its own timer runs again).
    const delay = monitorEventLoopDelay({ resolution: 10 });
    delay.enable();
    let last = performance.now();
    let longestGap = 0;
    const ticker = setInterval(() => {
      const now = performance.now();
      longestGap = Math.max(longestGap, now - last);
      last = now;
    }, 5);
    const started = Date.now();
    await svc.http.delete(`/minds/${mindId}`).set(bearer(jwt)).expect(204);
    const answeredMs = Date.now() - started;
    // Gone for the API at once.
    await svc.http.get('/mind/tasks').set(bearer(mindKey)).expect(401);
    const listed = await svc.http.get('/minds').set(bearer(jwt)).expect(200);
    assert.deepEqual(
      listed.body.minds.map((m: { id: string }) => m.id),
      [other.mindId],
    );
    await svc.http.delete(`/minds/${mindId}`).set(bearer(jwt)).expect(404);

    await waitUntilGone(svc.ctx.db, mindId, 60_000);
    delay.disable();
    clearInterval(ticker);
    const maxBlockMs = Math.max(delay.max / 1e6, longestGap);
    assert.equal(total(await rowsOfMind(svc.ctx.db, mindId)), 0);
    assert.ok(answeredMs < 3000, `DELETE took ${answeredMs} ms`);
    // One statement deleting 100,000 deliveries with their cascades blocked for about a second or more; chunks of 500 take milliseconds.
    assert.ok(maxBlockMs < 400, `the event loop was blocked for ${maxBlockMs.toFixed(0)} ms`);

    // The other mind is untouched and a new mind can be created.
    await svc.http.get('/mind/tasks').set(bearer(other.mindKey)).expect(200);
    await svc.addMind(jwt, 'after');
  });

  test('a deletion interrupted by a restart is finished by the next start', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'mind-delete-'));
    const pg = TEST_DATABASE_URL ? await freshPostgresSchema(TEST_DATABASE_URL) : undefined;
    const env = { MIND_DATA_DIR: dataDir, MIND_DELETE_CHUNK_SIZE: '50', ...(pg ? { DATABASE_URL: pg.url } : {}) };
    try {
      const first = await startService(env);
      const { jwt, mindId, mindKey } = await first.mind();
      await seedLargeMind(first, mindId, mindKey, 100);
      // What DELETE /minds/:id commits, without waking this instance's purge: as if the process
      // died right after answering 204.
      assert.equal(await markMindDeleted(first.ctx.db, mindId, new Date().toISOString()), true);
      await first.http.get('/mind/tasks').set(bearer(mindKey)).expect(401);
      assert.ok(total(await rowsOfMind(first.ctx.db, mindId)) > 2000);
      // Its rows are still there, but the owner's JWT reaches none of them either.
      const memory = await first.ctx.db('memories').where({ mind_id: mindId }).first('id');
      await first.http.post(`/memory/${memory.id}/verify`).set(bearer(jwt)).expect(404);
      await first.http.get('/memory/mind-export').query({ mind_id: mindId }).set(bearer(jwt)).expect(404);
      assert.deepEqual((await first.http.get('/minds').set(bearer(jwt)).expect(200)).body.minds, []);
      await first.stop();

      const second = await startService(env);
      services.push(second);
      await second.http.get('/minds').set(bearer(jwt)).expect(200);
      await waitUntilGone(second.ctx.db, mindId, 30_000);
      assert.equal(total(await rowsOfMind(second.ctx.db, mindId)), 0);
      await second.http.get('/mind/tasks').set(bearer(mindKey)).expect(401);
    } finally {
      await pg?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  test('MIND_MAX_MINDS_PER_USER caps the minds of a user (409 beyond); a deleted mind frees its place', async () => {
    const svc = await startService({ MIND_MAX_MINDS_PER_USER: '3' });
    services.push(svc);
    const { jwt, mindId } = await svc.mind();
    await svc.addMind(jwt);
    await svc.addMind(jwt);
    const res = await svc.http.post('/minds').set(bearer(jwt)).send({ name: 'fourth' }).expect(409);
    assert.match(res.body.message, /at most 3 minds/);
    // Another user has places of their own.
    await svc.mind();
    await svc.http.delete(`/minds/${mindId}`).set(bearer(jwt)).expect(204);
    await svc.http.post('/minds').set(bearer(jwt)).send({ name: 'fourth' }).expect(201);
  });
});
