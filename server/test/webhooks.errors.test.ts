import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { VALID_EVENT_PATTERNS } from '@mindservice/contract';
import { judge, retryDelay } from '../src/webhooks/delivery.js';
import { bearer, useService } from './harness.js';
import { createWebhook, recordEvent } from './webhooks/helpers.js';
import { eventually, startReceiver } from './webhooks/receiver.js';

describe('webhooks: bad input and conflicts', () => {
  const svc = useService({ MIND_WEBHOOK_RETRY_SCHEDULE: '10ms', MIND_WEBHOOK_TIMEOUT: '300ms' });
  let mindKey: string;
  before(async () => {
    ({ mindKey } = await svc.mind());
  });

  const create = (body: Record<string, unknown>, key = mindKey) => svc.http.post('/webhooks').set(bearer(key)).send(body);
  const expectError = (res: { status: number; body: Record<string, unknown> }, status: number, message: RegExp) => {
    assert.equal(res.status, status, JSON.stringify(res.body));
    assert.equal(res.body.statusCode, status);
    assert.equal(typeof res.body.error, 'string');
    assert.match(String(res.body.message), message);
  };
  const valid = { url: 'https://example.com/hook', events: 'task.*', secret: 'long-enough' };

  test('missing fields are 400 naming each field', async () => {
    const res = await create({});
    expectError(res, 400, /body\.url: is required/);
    assert.match(res.body.message, /body\.events: is required/);
    assert.match(res.body.message, /body\.secret: is required/);
  });

  test('url must be https, or http for localhost / 127.0.0.1', async () => {
    for (const url of [
      'http://example.com/hook',
      'http://10.0.0.1/',
      'http://[::1]:3000/',
      'ftp://example.com/',
      'not a url',
      'file:///etc/passwd',
    ]) {
      expectError(await create({ ...valid, url }), 400, /^body\.url: /);
    }
    expectError(
      await create({ ...valid, url: 'http://example.com/hook' }),
      400,
      /http:\/\/ is allowed only for localhost and 127\.0\.0\.1/,
    );
    for (const url of ['http://localhost/a', 'http://localhost:8080/b', 'http://127.0.0.1:9/c', 'https://hooks.example.org/d']) {
      await create({ ...valid, url }).expect(201);
    }
  });

  test('unknown events are 400 listing the valid names; an empty list is 400', async () => {
    const res = await create({ ...valid, events: 'task.created,task.exploded,memory.*' });
    expectError(res, 400, /^body\.events: unknown event "task\.exploded"; valid: /);
    for (const name of VALID_EVENT_PATTERNS) assert.ok(res.body.message.includes(name), `lists ${name}`);
    expectError(await create({ ...valid, events: 'Task.Created' }), 400, /unknown event "Task\.Created"/);
    expectError(await create({ ...valid, events: ' , ,' }), 400, /^body\.events: must name at least one event/);
    expectError(await create({ ...valid, events: '' }), 400, /^body\.events: /);
  });

  test('a secret shorter than 8 characters is 400', async () => {
    expectError(await create({ ...valid, secret: 'short' }), 400, /body\.secret: must be at least 8 characters/);
    expectError(await create({ ...valid, secret: 12345678 }), 400, /body\.secret: /);
  });

  test('the 21st webhook of a mind is 409 and leaves 20', async () => {
    const { mindKey: key } = await svc.mind();
    for (let i = 1; i <= 20; i++) await create({ ...valid, url: `https://example.com/hook/${i}` }, key).expect(201);
    expectError(await create({ ...valid, url: 'https://example.com/hook/21' }, key), 409, /at most 20 webhooks/);
    assert.equal((await svc.http.get('/webhooks').set(bearer(key)).expect(200)).body.length, 20);
    // Another mind is not affected by this one's limit.
    const other = await svc.mind();
    await create({ ...valid, url: 'https://example.com/hook/21' }, other.mindKey).expect(201);
  });

  test('the same url twice in a mind is 409, on create and on PUT', async () => {
    const { mindKey: key } = await svc.mind();
    const a = await create({ ...valid, url: 'https://example.com/same' }, key).expect(201);
    expectError(await create({ ...valid, url: 'https://EXAMPLE.com/same' }, key), 409, /already exists/);
    const b = await create({ ...valid, url: 'https://example.com/other' }, key).expect(201);
    expectError(
      await svc.http.put(`/webhooks/${b.body.id}`).set(bearer(key)).send({ url: 'https://example.com/same' }),
      409,
      /already exists/,
    );
    const unchanged = await svc.http.get(`/webhooks/${b.body.id}`).set(bearer(key)).expect(200);
    assert.equal(unchanged.body.url, 'https://example.com/other');
    // The same url in another mind is fine.
    const other = await svc.mind();
    await create({ ...valid, url: 'https://example.com/same' }, other.mindKey).expect(201);
    assert.ok(a.body.id);
  });

  test('PUT validates like create and changes nothing when one field is bad', async () => {
    const { mindKey: key } = await svc.mind();
    const hook = await create({ ...valid, url: 'https://example.com/put' }, key).expect(201);
    expectError(
      await svc.http.put(`/webhooks/${hook.body.id}`).set(bearer(key)).send({ url: 'https://example.com/new', events: 'nope' }),
      400,
      /body\.events: unknown event "nope"/,
    );
    expectError(await svc.http.put(`/webhooks/${hook.body.id}`).set(bearer(key)).send({ secret: 'short' }), 400, /body\.secret/);
    expectError(await svc.http.put(`/webhooks/${hook.body.id}`).set(bearer(key)).send({ enabled: 'yes' }), 400, /body\.enabled/);
    const after = await svc.http.get(`/webhooks/${hook.body.id}`).set(bearer(key)).expect(200);
    assert.equal(after.body.url, 'https://example.com/put');
    assert.equal(after.body.events, 'task.*');
  });

  test('unknown ids are 404 on every by-id route', async () => {
    const id = '00000000-0000-4000-8000-000000000000';
    const routes = [
      svc.http.get(`/webhooks/${id}`),
      svc.http.put(`/webhooks/${id}`).send({ events: '*' }),
      svc.http.post(`/webhooks/${id}/enable`),
      svc.http.post(`/webhooks/${id}/disable`),
      svc.http.post(`/webhooks/${id}/test`),
      svc.http.delete(`/webhooks/${id}`),
      svc.http.get(`/webhooks/${id}/deliveries`),
      svc.http.post(`/webhooks/${id}/deliveries/${id}/redeliver`),
      svc.http.get('/webhooks/not-a-uuid'),
    ];
    for (const req of routes) expectError(await req.set(bearer(mindKey)), 404, /^Webhook not found$/);
    const hook = await create({ ...valid, url: 'https://example.com/404' }).expect(201);
    expectError(
      await svc.http.post(`/webhooks/${hook.body.id}/deliveries/${id}/redeliver`).set(bearer(mindKey)),
      404,
      /^Delivery not found$/,
    );
  });

  test('deliveries limit must be 1..100', async () => {
    const hook = await create({ ...valid, url: 'https://example.com/limit' }).expect(201);
    for (const limit of ['0', '101', 'ten']) {
      expectError(await svc.http.get(`/webhooks/${hook.body.id}/deliveries?limit=${limit}`).set(bearer(mindKey)), 400, /^query\.limit: /);
    }
  });

  test('test and redeliver on a disabled webhook are 409', async () => {
    const receiver = await startReceiver();
    try {
      const { mindId, mindKey: key } = await svc.mind();
      const hook = await createWebhook(svc, key, { url: `${receiver.url}/disabled`, events: '*' });
      await recordEvent(svc, mindId, 'task.created', {});
      const delivery = await eventually(async () => {
        const list = (await svc.http.get(`/webhooks/${hook.id}/deliveries`).set(bearer(key))).body.deliveries;
        return list[0]?.status === 'succeeded' && list[0];
      });
      await svc.http.post(`/webhooks/${hook.id}/disable`).set(bearer(key)).expect(200);
      expectError(await svc.http.post(`/webhooks/${hook.id}/test`).set(bearer(key)), 409, /disabled/);
      expectError(await svc.http.post(`/webhooks/${hook.id}/deliveries/${delivery.id}/redeliver`).set(bearer(key)), 409, /disabled/);
      assert.equal(receiver.received.length, 1);
    } finally {
      await receiver.close();
    }
  });

  test('a receiver that never answers times out; a closed port is a network error; both are retried', async () => {
    const receiver = await startReceiver();
    try {
      receiver.respond(() => undefined); // never answers
      const { mindId, mindKey: key } = await svc.mind();
      const slow = await createWebhook(svc, key, { url: `${receiver.url}/slow`, events: '*' });
      const closed = await createWebhook(svc, key, { url: 'http://127.0.0.1:1/closed', events: '*' });
      await recordEvent(svc, mindId, 'task.created', {});
      const settledOf = (id: string) =>
        eventually(async () => {
          const list = (await svc.http.get(`/webhooks/${id}/deliveries`).set(bearer(key))).body.deliveries;
          return list[0]?.status === 'failed' && list[0];
        });
      const timedOut = await settledOf(slow.id);
      assert.deepEqual(
        timedOut.attempts.map((a: { status_code: null; error: string }) => [a.status_code, a.error]),
        [
          [null, 'timed out after 300 ms'],
          [null, 'timed out after 300 ms'],
        ],
      );
      const refused = await settledOf(closed.id);
      assert.equal(refused.attempts.length, 2);
      assert.match(refused.attempts[0].error, /ECONNREFUSED/);
      const hook = (await svc.http.get(`/webhooks/${closed.id}`).set(bearer(key)).expect(200)).body;
      assert.equal(hook.last_status, null);
      assert.match(hook.last_error, /ECONNREFUSED/);
    } finally {
      await receiver.close();
    }
  });
});

describe('webhooks: outcome and retry rules', () => {
  const answer = (status: number | null, refused = false) => ({ status, error: null, durationMs: 0, retryAfterMs: null, refused });

  test('2xx succeeds, 410 is gone, 408/429/5xx and network errors retry, other answers fail', () => {
    assert.equal(judge(answer(200)), 'succeeded');
    assert.equal(judge(answer(204)), 'succeeded');
    assert.equal(judge(answer(410)), 'gone');
    for (const status of [408, 429, 500, 502, 503, 504]) assert.equal(judge(answer(status)), 'retry', String(status));
    for (const status of [301, 302, 400, 401, 403, 404, 422]) assert.equal(judge(answer(status)), 'failed', String(status));
    assert.equal(judge(answer(null)), 'retry');
    assert.equal(judge(answer(null, true)), 'failed', 'a refused target is not retried');
  });

  test('the delay follows the schedule with up to 20% jitter, honours Retry-After up to the longest step, and ends', () => {
    const schedule = [30_000, 120_000, 600_000];
    assert.equal(
      retryDelay(schedule, 1, null, () => 0),
      30_000,
    );
    assert.equal(
      retryDelay(schedule, 1, null, () => 0.999999),
      36_000,
    );
    assert.equal(
      retryDelay(schedule, 3, null, () => 0),
      600_000,
    );
    assert.equal(retryDelay(schedule, 4, null), null, 'no retry after the schedule is used up');
    assert.equal(
      retryDelay(schedule, 1, 90_000, () => 0),
      90_000,
    );
    assert.equal(
      retryDelay(schedule, 1, 86_400_000, () => 0),
      600_000,
    );
    assert.equal(
      retryDelay(schedule, 2, 1_000, () => 0),
      120_000,
    );
  });
});
