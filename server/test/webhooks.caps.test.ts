import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { bearer, startService, TestClock, type TestService } from './harness.js';
import { createWebhook, recordEvent } from './webhooks/helpers.js';
import { eventually, type Receiver, startReceiver } from './webhooks/receiver.js';

describe('webhooks: MIND_MAX_PENDING_DELIVERIES_PER_WEBHOOK', () => {
  let svc: TestService;
  let receiver: Receiver;
  const clock = new TestClock();
  before(async () => {
    receiver = await startReceiver();
    // Failures are retried an hour later: every delivery of the failing webhook stays pending.
    svc = await startService(
      { MIND_MAX_PENDING_DELIVERIES_PER_WEBHOOK: '5', MIND_WEBHOOK_RETRY_SCHEDULE: '1h', MIND_WEBHOOK_TIMEOUT: '2s' },
      { clock },
    );
  });
  after(async () => {
    await svc.stop();
    await receiver.close();
  });

  const pending = (webhookId: string) =>
    svc.ctx
      .db('webhook_deliveries')
      .where({ webhook_id: webhookId, status: 'pending' })
      .orderBy([{ column: 'created_at' }, { column: 'id' }])
      .pluck('id');

  test('a failing webhook keeps only its newest pending deliveries; the older fail with an attempt saying why; a healthy one gets everything', async () => {
    receiver.respond((req, res) => res.writeHead(req.path === '/down' ? 500 : 200).end());
    const { mindId, mindKey } = await svc.mind();
    const down = await createWebhook(svc, mindKey, { url: `${receiver.url}/down`, events: '*' });
    const up = await createWebhook(svc, mindKey, { url: `${receiver.url}/up`, events: '*' });

    // One event at a time, each delivered to the healthy webhook before the next: it never has a
    // backlog (a backlog beyond the cap would be trimmed too), while the failing one piles up.
    for (let n = 0; n < 20; n++) {
      clock.advance(1);
      await recordEvent(svc, mindId, 'task.created', { n });
      await receiver.waitFor(n + 1, '/up', 10_000);
      await receiver.waitFor(n + 1, '/down', 10_000);
    }
    await eventually(async () => (await pending(down.id)).length === 5, 10_000, 'five pending');

    // The five kept are the newest: events 15..19.
    const res = await svc.http.get(`/webhooks/${down.id}/deliveries`).query({ limit: '100' }).set(bearer(mindKey)).expect(200);
    const deliveries = res.body.deliveries as Array<{
      id: string;
      status: string;
      created_at: string;
      attempts: Array<{ error: string | null }>;
    }>;
    assert.equal(deliveries.length, 20);
    const byAge = [...deliveries].sort((a, b) => (a.created_at < b.created_at ? -1 : a.created_at > b.created_at ? 1 : 0));
    assert.deepEqual(
      byAge.map((d) => d.status),
      [...Array(15).fill('failed'), ...Array(5).fill('pending')],
    );
    for (const d of byAge.slice(0, 15)) {
      assert.match(d.attempts.at(-1)?.error ?? '', /more than 5 deliveries were pending for this webhook/);
    }
    // The healthy webhook is not affected.
    assert.equal((await pending(up.id)).length, 0);
    const upLog = await svc.http.get(`/webhooks/${up.id}/deliveries`).query({ limit: '100' }).set(bearer(mindKey)).expect(200);
    assert.deepEqual(new Set(upLog.body.deliveries.map((d: { status: string }) => d.status)), new Set(['succeeded']));

    // A dropped delivery can be sent again by hand.
    await svc.http.post(`/webhooks/${down.id}/deliveries/${byAge[0]?.id}/redeliver`).set(bearer(mindKey)).expect(202);
  });

  test('a backlog far beyond the cap (written before the cap, or while no worker ran) is cut down in chunks at its next attempt', async () => {
    receiver.respond((_req, res) => res.writeHead(503).end());
    const { mindId, mindKey } = await svc.mind();
    const hook = await createWebhook(svc, mindKey, { url: `${receiver.url}/backlog`, events: '*' });
    const event = await recordEvent(svc, mindId, 'task.created', { n: 0 });
    await receiver.waitFor(1, '/backlog', 10_000);
    await eventually(async () => (await pending(hook.id)).length === 1, 10_000, 'first attempt settled');
    const old = new Date(Date.now() - 3_600_000).toISOString();
    const rows = Array.from({ length: 1200 }, (_, i) => ({
      id: randomUUID(),
      mind_id: mindId,
      webhook_id: hook.id,
      event_id: event.id,
      event: 'task.created',
      status: 'pending',
      attempt_count: 1,
      next_attempt_at: '2100-01-01T00:00:00.000Z',
      locked_until: null,
      lock_token: null,
      created_at: `${old.slice(0, 20)}${String(i).padStart(3, '0').slice(-3)}Z`,
    }));
    await svc.ctx.db.batchInsert('webhook_deliveries', rows, 200);
    assert.equal((await pending(hook.id)).length, 1201);

    clock.advance(1);
    await recordEvent(svc, mindId, 'task.created', { n: 1 });
    await receiver.waitFor(2, '/backlog', 10_000);
    await eventually(async () => (await pending(hook.id)).length === 5, 10_000, 'five pending');
    const dropped = await svc.ctx
      .db('webhook_attempts')
      .whereIn('delivery_id', rows.map((r) => r.id).slice(0, 500))
      .count<{ n: number | string }>({ n: '*' })
      .first();
    assert.equal(Number(dropped?.n), 500);
  });
});
