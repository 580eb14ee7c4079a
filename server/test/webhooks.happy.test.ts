import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Delivery } from '@mindservice/contract';
import { bearer, useService } from './harness.js';
import { createWebhook, FAST_RETRIES, recordEvent, serviceSignatureOk, standardSignatureOk } from './webhooks/helpers.js';
import { eventually, type Receiver, startReceiver } from './webhooks/receiver.js';

describe('webhooks: configuration and delivery', () => {
  const svc = useService(FAST_RETRIES);
  let receiver: Receiver;
  before(async () => {
    receiver = await startReceiver();
  });
  after(() => receiver.close());

  const deliveriesOf = async (mindKey: string, webhookId: string): Promise<Delivery[]> =>
    (await svc.http.get(`/webhooks/${webhookId}/deliveries`).set(bearer(mindKey)).expect(200)).body.deliveries;
  const settled = async (mindKey: string, webhookId: string, count = 1): Promise<Delivery[]> => {
    let list: Delivery[] = [];
    await eventually(
      async () => {
        list = await deliveriesOf(mindKey, webhookId);
        return list.length >= count && list.every((d) => d.status !== 'pending');
      },
      5000,
      'deliveries to settle',
    );
    return list;
  };

  test('create answers the typed form without the secret; events and url are normalised', async () => {
    const { mindId, mindKey } = await svc.mind();
    const before = Math.floor(Date.now() / 1000);
    const res = await svc.http
      .post('/webhooks')
      .set(bearer(mindKey))
      .send({ url: 'https://Example.COM/hooks', events: ' memory.store, task.* ,task.*,memory.created ', secret: 'super-secret-value' })
      .expect(201);
    assert.deepEqual(Object.keys(res.body).sort(), ['created_at', 'enabled', 'events', 'id', 'mind_id', 'url']);
    assert.equal(res.body.url, 'https://example.com/hooks');
    assert.equal(res.body.events, 'memory.created,task.*');
    assert.equal(res.body.mind_id, mindId);
    assert.equal(res.body.enabled, true);
    assert.ok(Number.isInteger(res.body.created_at) && res.body.created_at >= before && res.body.created_at <= before + 5);

    const list = await svc.http.get('/webhooks').set(bearer(mindKey)).expect(200);
    assert.equal(list.body.length, 1);
    assert.deepEqual(list.body[0], { ...res.body, last_call: null, last_status: null, last_error: null });
    const one = await svc.http.get(`/webhooks/${res.body.id}`).set(bearer(mindKey)).expect(200);
    assert.deepEqual(one.body, list.body[0]);
    assert.equal(JSON.stringify([res.body, list.body, one.body]).includes('super-secret-value'), false);
  });

  test('a delivery carries both signatures over the exact body bytes; one changed byte fails them', async () => {
    const { mindId, mindKey } = await svc.mind();
    const secret = 'sign-me-please';
    const hook = await createWebhook(svc, mindKey, { url: `${receiver.url}/signed`, events: 'task.created', secret });
    const event = await recordEvent(svc, mindId, 'task.created', { id: 't1', title: 'Grüße, "quotes" & emoji 🎉' });

    const [got] = await receiver.waitFor(1, '/signed');
    assert.ok(got);
    assert.deepEqual(Object.keys(got.json), ['id', 'event', 'timestamp', 'mind_id', 'data']);
    assert.deepEqual(got.json, { id: event.id, event: 'task.created', timestamp: event.createdAt, mind_id: mindId, data: event.data });
    assert.equal(got.headers['content-type'], 'application/json');
    assert.equal(got.headers['x-service-event'], 'task.created');
    assert.equal(got.headers['webhook-id'], event.id);
    assert.ok(Math.abs(Number(got.headers['webhook-timestamp']) - Date.now() / 1000) < 10);

    assert.equal(serviceSignatureOk(secret, got), true);
    assert.equal(standardSignatureOk(secret, got), true);
    assert.equal(serviceSignatureOk('another-secret', got), false);
    assert.equal(standardSignatureOk('another-secret', got), false);
    const tampered = Buffer.from(got.raw);
    tampered[tampered.length - 3] ^= 0x01;
    assert.equal(serviceSignatureOk(secret, { ...got, raw: tampered }), false);
    assert.equal(standardSignatureOk(secret, { ...got, raw: tampered }), false);

    const [delivery] = await settled(mindKey, hook.id);
    assert.equal(got.headers['x-service-delivery'], delivery!.id);
    assert.equal(delivery!.event_id, event.id);
  });

  test('only enabled webhooks whose patterns match receive an event', async () => {
    const { mindId, mindKey } = await svc.mind();
    const make = (path: string, events: string) => createWebhook(svc, mindKey, { url: `${receiver.url}/match-${path}`, events });
    const group = await make('group', 'task.*');
    const exact = await make('exact', 'task.created');
    const all = await make('all', '*');
    const other = await make('other', 'memory.*,task.updated');
    const disabled = await make('disabled', 'task.created');
    await svc.http.post(`/webhooks/${disabled.id}/disable`).set(bearer(mindKey)).expect(200);
    const otherMind = await svc.mind();
    const foreign = await createWebhook(svc, otherMind.mindKey, { url: `${receiver.url}/match-foreign`, events: '*' });

    await recordEvent(svc, mindId, 'task.created', { id: 'x' });
    // Deliveries are written in the event's transaction, so who gets one is decided now.
    for (const [hook, expected] of [
      [group, 1],
      [exact, 1],
      [all, 1],
      [other, 0],
      [disabled, 0],
      [foreign, 0],
    ] as const) {
      const key = hook === foreign ? otherMind.mindKey : mindKey;
      assert.equal((await deliveriesOf(key, hook.id)).length, expected, `deliveries of ${hook.url}`);
    }
    await Promise.all(['group', 'exact', 'all'].map((p) => receiver.waitFor(1, `/match-${p}`)));

    await recordEvent(svc, mindId, 'memory.created', { id: 'm' });
    await Promise.all([receiver.waitFor(1, '/match-other'), receiver.waitFor(2, '/match-all')]);
    assert.equal(receiver.at('/match-group').length, 1);
    assert.equal(receiver.at('/match-exact').length, 1);
    assert.equal(receiver.at('/match-disabled').length, 0);
    assert.equal(receiver.at('/match-foreign').length, 0);
    assert.equal(receiver.at('/match-other')[0]!.json.event, 'memory.created');
  });

  test('500, 500, then 200: exactly three requests with the same delivery id, all in the log', async () => {
    const { mindId, mindKey } = await svc.mind();
    const path = '/flaky';
    let calls = 0;
    receiver.respond((req, res) => {
      if (req.path !== path) return void res.writeHead(200).end();
      res.writeHead(++calls <= 2 ? 500 : 200).end();
    });
    const hook = await createWebhook(svc, mindKey, { url: `${receiver.url}${path}`, events: 'task.*' });
    await recordEvent(svc, mindId, 'task.updated', { id: 't' });

    const [delivery] = await settled(mindKey, hook.id);
    receiver.respond((_req, res) => res.writeHead(200).end());
    const got = receiver.at(path);
    assert.equal(got.length, 3);
    assert.equal(new Set(got.map((r) => r.headers['x-service-delivery'])).size, 1);
    assert.equal(got[0]!.headers['x-service-delivery'], delivery!.id);
    assert.equal(new Set(got.map((r) => r.raw.toString('base64'))).size, 1, 'the same body every time');
    assert.equal(delivery!.status, 'succeeded');
    assert.equal(delivery!.attempt_count, 3);
    assert.deepEqual(
      delivery!.attempts.map((a) => [a.attempt, a.status_code, a.error]),
      [
        [1, 500, 'HTTP 500 Internal Server Error'],
        [2, 500, 'HTTP 500 Internal Server Error'],
        [3, 200, null],
      ],
    );
    const webhook = (await svc.http.get(`/webhooks/${hook.id}`).set(bearer(mindKey)).expect(200)).body;
    assert.equal(webhook.last_status, 200);
    assert.equal(webhook.last_error, null);
    assert.ok(Math.abs(webhook.last_call - Date.now() / 1000) < 10);
  });

  test('retries stop when the schedule is used up; 429 and 408 are retried; other 4xx are not', async () => {
    const { mindId, mindKey } = await svc.mind();
    const answers: Record<string, number[]> = {
      '/always-503': [503, 503, 503, 503],
      '/gone-away-404': [404, 200],
      '/busy': [429, 408, 200],
    };
    receiver.respond((req, res) => res.writeHead(answers[req.path]?.shift() ?? 200).end());
    const down = await createWebhook(svc, mindKey, { url: `${receiver.url}/always-503`, events: '*' });
    const missing = await createWebhook(svc, mindKey, { url: `${receiver.url}/gone-away-404`, events: '*' });
    const busy = await createWebhook(svc, mindKey, { url: `${receiver.url}/busy`, events: '*' });
    await recordEvent(svc, mindId, 'chat.message_sent', { text: 'hi' });

    const [d503] = await settled(mindKey, down.id);
    assert.equal(d503!.status, 'failed');
    assert.deepEqual(
      d503!.attempts.map((a) => a.status_code),
      [503, 503, 503],
      'one attempt plus the two retries of the schedule',
    );
    const [d404] = await settled(mindKey, missing.id);
    assert.equal(d404!.status, 'failed');
    assert.deepEqual(
      d404!.attempts.map((a) => a.status_code),
      [404],
    );
    const [dBusy] = await settled(mindKey, busy.id);
    assert.equal(dBusy!.status, 'succeeded');
    assert.deepEqual(
      dBusy!.attempts.map((a) => a.status_code),
      [429, 408, 200],
    );
    receiver.respond((_req, res) => res.writeHead(200).end());
    assert.equal(receiver.at('/always-503').length, 3);
    assert.equal(receiver.at('/gone-away-404').length, 1);

    const hook = (await svc.http.get(`/webhooks/${down.id}`).set(bearer(mindKey)).expect(200)).body;
    assert.equal(hook.enabled, true, 'failures other than 410 leave the webhook enabled');
    assert.equal(hook.last_status, 503);
    assert.equal(hook.last_error, 'HTTP 503 Service Unavailable');
  });

  test('a 410 answer disables the webhook and keeps its url and events', async () => {
    const { mindId, mindKey } = await svc.mind();
    receiver.respond((req, res) => res.writeHead(req.path === '/gone' ? 410 : 200).end());
    const hook = await createWebhook(svc, mindKey, { url: `${receiver.url}/gone`, events: 'task.created,memory.*' });
    await recordEvent(svc, mindId, 'task.created', {});
    const [delivery] = await settled(mindKey, hook.id);
    receiver.respond((_req, res) => res.writeHead(200).end());

    assert.equal(delivery!.status, 'failed');
    assert.deepEqual(
      delivery!.attempts.map((a) => a.status_code),
      [410],
    );
    const after410 = (await svc.http.get(`/webhooks/${hook.id}`).set(bearer(mindKey)).expect(200)).body;
    assert.equal(after410.enabled, false);
    assert.equal(after410.url, hook.url);
    assert.equal(after410.events, 'task.created,memory.*');
    assert.equal(after410.last_status, 410);

    await recordEvent(svc, mindId, 'task.created', {});
    assert.equal((await deliveriesOf(mindKey, hook.id)).length, 1, 'a disabled webhook gets no new deliveries');
    const enabled = await svc.http.post(`/webhooks/${hook.id}/enable`).set(bearer(mindKey)).expect(200);
    assert.equal(enabled.body.enabled, true);
  });

  test('a redirect is not followed and not retried', async () => {
    const { mindId, mindKey } = await svc.mind();
    receiver.respond((req, res) =>
      req.path === '/moved' ? res.writeHead(302, { Location: '/moved-here' }).end() : res.writeHead(200).end(),
    );
    const hook = await createWebhook(svc, mindKey, { url: `${receiver.url}/moved`, events: '*' });
    await recordEvent(svc, mindId, 'task.deleted', {});
    const [delivery] = await settled(mindKey, hook.id);
    receiver.respond((_req, res) => res.writeHead(200).end());
    assert.equal(delivery!.status, 'failed');
    assert.match(delivery!.attempts[0]!.error!, /HTTP 302 .*redirects are not followed/);
    assert.equal(receiver.at('/moved-here').length, 0);
  });

  test('PUT with a new secret signs the next delivery with it', async () => {
    const { mindId, mindKey } = await svc.mind();
    const hook = await createWebhook(svc, mindKey, { url: `${receiver.url}/rotate`, events: 'task.*', secret: 'first-secret' });
    await recordEvent(svc, mindId, 'task.created', { n: 1 });
    const [first] = await receiver.waitFor(1, '/rotate');
    assert.equal(serviceSignatureOk('first-secret', first!), true);

    const put = await svc.http.put(`/webhooks/${hook.id}`).set(bearer(mindKey)).send({ secret: 'second-secret' }).expect(200);
    assert.equal(JSON.stringify(put.body).includes('second-secret'), false);
    assert.equal(put.body.url, hook.url);
    await recordEvent(svc, mindId, 'task.created', { n: 2 });
    const [, second] = await receiver.waitFor(2, '/rotate');
    assert.equal(serviceSignatureOk('second-secret', second!), true);
    assert.equal(standardSignatureOk('second-secret', second!), true);
    assert.equal(serviceSignatureOk('first-secret', second!), false);
  });

  test('PUT changes url, events and enabled; enable and disable answer the webhook', async () => {
    const { mindKey } = await svc.mind();
    const hook = await createWebhook(svc, mindKey, { url: `${receiver.url}/put-a`, events: 'task.*' });
    const put = await svc.http
      .put(`/webhooks/${hook.id}`)
      .set(bearer(mindKey))
      .send({ url: `${receiver.url}/put-b`, events: 'memory.update', enabled: false })
      .expect(200);
    assert.equal(put.body.url, `${receiver.url}/put-b`);
    assert.equal(put.body.events, 'memory.updated');
    assert.equal(put.body.enabled, false);
    assert.equal(put.body.created_at, hook.created_at);
    const same = await svc.http
      .put(`/webhooks/${hook.id}`)
      .set(bearer(mindKey))
      .send({ url: `${receiver.url}/put-b` })
      .expect(200);
    assert.equal(same.body.url, `${receiver.url}/put-b`, 'keeping its own url is no conflict');
    assert.equal((await svc.http.post(`/webhooks/${hook.id}/enable`).set(bearer(mindKey)).expect(200)).body.enabled, true);
    assert.equal((await svc.http.post(`/webhooks/${hook.id}/disable`).set(bearer(mindKey)).expect(200)).body.enabled, false);
  });

  test('the delivery log lists attempts; redeliver sends the same event again as a new delivery', async () => {
    const { mindId, mindKey } = await svc.mind();
    const hook = await createWebhook(svc, mindKey, { url: `${receiver.url}/again`, events: 'task.completed' });
    const event = await recordEvent(svc, mindId, 'task.completed', { id: 'done-1' });
    const [original] = await settled(mindKey, hook.id);
    assert.equal(original!.event, 'task.completed');
    assert.equal(original!.next_attempt_at, null);
    assert.equal(original!.attempts.length, 1);
    assert.ok(original!.attempts[0]!.duration_ms >= 0);

    const res = await svc.http.post(`/webhooks/${hook.id}/deliveries/${original!.id}/redeliver`).set(bearer(mindKey)).expect(202);
    assert.notEqual(res.body.id, original!.id);
    assert.equal(res.body.event_id, event.id);
    assert.equal(res.body.status, 'pending');
    assert.deepEqual(res.body.attempts, []);

    const [first, second] = await receiver.waitFor(2, '/again');
    assert.equal(second!.headers['x-service-delivery'], res.body.id);
    assert.equal(second!.headers['webhook-id'], first!.headers['webhook-id'], 'the same event id, so receivers can dedupe');
    assert.deepEqual(second!.json, first!.json);
    const log = await settled(mindKey, hook.id, 2);
    assert.deepEqual(log.map((d) => d.id).sort(), [original!.id, res.body.id].sort());
    const limited = await svc.http.get(`/webhooks/${hook.id}/deliveries?limit=1`).set(bearer(mindKey)).expect(200);
    assert.equal(limited.body.deliveries.length, 1);
  });

  test('POST /webhooks/:id/test sends a signed memory.created event at once and reports the outcome', async () => {
    const { mindId, mindKey } = await svc.mind();
    const hook = await createWebhook(svc, mindKey, { url: `${receiver.url}/test-event`, events: 'task.*', secret: 'test-event-secret' });
    const ok = await svc.http.post(`/webhooks/${hook.id}/test`).set(bearer(mindKey)).expect(200);
    assert.equal(ok.body.delivered, true);
    assert.equal(ok.body.status, 200);
    assert.equal(ok.body.error, null);
    assert.ok(Number.isInteger(ok.body.duration_ms));
    const [got] = receiver.at('/test-event');
    assert.equal(got!.json.event, 'memory.created');
    assert.equal(got!.json.mind_id, mindId);
    assert.deepEqual(Object.keys(got!.json.data).slice(0, 4), ['id', 'category', 'key', 'content']);
    assert.equal(serviceSignatureOk('test-event-secret', got!), true);
    assert.equal(standardSignatureOk('test-event-secret', got!), true);

    receiver.respond((_req, res) => res.writeHead(500).end());
    const failed = await svc.http.post(`/webhooks/${hook.id}/test`).set(bearer(mindKey)).expect(200);
    receiver.respond((_req, res) => res.writeHead(200).end());
    assert.deepEqual(
      { ...failed.body, duration_ms: 0 },
      { delivered: false, status: 500, error: 'HTTP 500 Internal Server Error', duration_ms: 0 },
    );
    const webhook = (await svc.http.get(`/webhooks/${hook.id}`).set(bearer(mindKey)).expect(200)).body;
    assert.equal(webhook.last_status, 500);
    assert.equal(webhook.last_error, 'HTTP 500 Internal Server Error');
    assert.equal((await svc.http.get(`/webhooks/${hook.id}/deliveries`).set(bearer(mindKey)).expect(200)).body.deliveries.length, 0);
  });

  test('delete answers 204 and removes the webhook with its deliveries', async () => {
    const { mindId, mindKey } = await svc.mind();
    const hook = await createWebhook(svc, mindKey, { url: `${receiver.url}/deleted`, events: '*' });
    await recordEvent(svc, mindId, 'task.created', {});
    await settled(mindKey, hook.id);
    await svc.http.delete(`/webhooks/${hook.id}`).set(bearer(mindKey)).expect(204);
    await svc.http.get(`/webhooks/${hook.id}`).set(bearer(mindKey)).expect(404);
    const left = await svc.ctx.db('webhook_deliveries').where({ webhook_id: hook.id }).count({ n: '*' }).first();
    assert.equal(Number(left?.n), 0);
  });

  test('task routes deliver their events: POST /mind/task, then complete', async () => {
    const { mindId, mindKey } = await svc.mind();
    const hook = await createWebhook(svc, mindKey, {
      url: `${receiver.url}/tasks`,
      events: 'task.created,task.completed',
      secret: 'task-secret',
    });
    const task = (await svc.http.post('/mind/task').set(bearer(mindKey)).send({ title: 'Write the report' }).expect(201)).body;
    await svc.http.get(`/mind/task/${task.id}/complete`).set(bearer(mindKey)).expect(200);
    const got = await receiver.waitFor(2, '/tasks');
    assert.deepEqual(got.map((r) => r.json.event).sort(), ['task.completed', 'task.created']);
    const created = got.find((r) => r.json.event === 'task.created')!;
    assert.equal(created.json.mind_id, mindId);
    assert.equal(created.json.data.id, task.id);
    assert.equal(created.json.data.title, 'Write the report');
    assert.ok(got.every((r) => serviceSignatureOk('task-secret', r) && standardSignatureOk('task-secret', r)));
    assert.equal((await settled(mindKey, hook.id, 2)).length, 2, 'task.updated is not subscribed');
  });

  test('a delivery whose webhook was disabled before it went out is not sent, and says why', async () => {
    const { mindId, mindKey } = await svc.mind();
    const hook = await createWebhook(svc, mindKey, { url: `${receiver.url}/disabled-late`, events: '*' });
    // The delivery is queued by the event, then the webhook is disabled, both before anything is sent.
    await svc.ctx.db.transaction(async (trx) => {
      await svc.ctx.events.record(trx, mindId, 'task.created', {});
      await trx('webhooks').where({ id: hook.id }).update({ enabled: false });
    });
    const [delivery] = await settled(mindKey, hook.id);
    assert.equal(delivery!.status, 'failed');
    assert.deepEqual(
      delivery!.attempts.map((a) => [a.status_code, a.error]),
      [[null, 'not sent: the webhook is disabled']],
    );
    assert.equal(receiver.at('/disabled-late').length, 0);
    const webhook = (await svc.http.get(`/webhooks/${hook.id}`).set(bearer(mindKey)).expect(200)).body;
    assert.equal(webhook.last_call, null, 'nothing was called');
  });
});
