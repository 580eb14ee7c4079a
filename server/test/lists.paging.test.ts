import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ConfigError, loadConfig } from '../src/lib/config.js';
import { bearer, startService, type TestService } from './harness.js';

describe('lists: every list is bounded', () => {
  let svc: TestService;
  before(async () => {
    svc = await startService();
  });
  after(() => svc.stop());

  test('GET /mind/scripts pages by name: limit 1..100 (default 100), next_cursor null on the last page', async () => {
    const { mindKey } = await svc.mind();
    const auth = bearer(mindKey);
    const names = Array.from({ length: 105 }, (_, i) => `script-${String(i).padStart(3, '0')}`);
    for (let i = 0; i < names.length; i += 15) {
      await Promise.all(
        names.slice(i, i + 15).map((name) =>
          svc.http
            .post('/mind/scripts')
            .set(auth)
            .send({ name, content: `echo ${name}` })
            .expect(201),
        ),
      );
    }
    const first = await svc.http.get('/mind/scripts').set(auth).expect(200);
    assert.equal(first.body.scripts.length, 100);
    assert.equal(typeof first.body.next_cursor, 'string');
    const rest = await svc.http.get('/mind/scripts').query({ cursor: first.body.next_cursor }).set(auth).expect(200);
    assert.equal(rest.body.next_cursor, null);
    assert.deepEqual(
      [...first.body.scripts, ...rest.body.scripts].map((s: { name: string }) => s.name),
      names,
    );

    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { body: { scripts: Array<{ name: string }>; next_cursor: string | null } } = await svc.http
        .get('/mind/scripts')
        .query({ limit: '7', ...(cursor ? { cursor } : {}) })
        .set(auth)
        .expect(200);
      assert.ok(page.body.scripts.length <= 7);
      seen.push(...page.body.scripts.map((s) => s.name));
      cursor = page.body.next_cursor;
    } while (cursor);
    assert.deepEqual(seen, names);

    for (const limit of ['0', '101', '1e1', '-3']) await svc.http.get('/mind/scripts').query({ limit }).set(auth).expect(400);
    const bad = await svc.http.get('/mind/scripts').query({ cursor: 'not-a-cursor' }).set(auth).expect(400);
    assert.match(bad.body.message, /cursor/);
  });

  test('GET /mind/chat takes at most 100 messages a page', async () => {
    const { mindKey } = await svc.mind();
    const auth = bearer(mindKey);
    await svc.http.get('/mind/chat').query({ limit: '100' }).set(auth).expect(200);
    for (const limit of ['101', '500', '0', '2.5']) await svc.http.get('/mind/chat').query({ limit }).set(auth).expect(400);
  });

  test('GET /webhooks/:id/deliveries takes at most 100 a page', async () => {
    const { mindKey } = await svc.mind();
    const auth = bearer(mindKey);
    const hook = await svc.http
      .post('/webhooks')
      .set(auth)
      .send({ url: 'https://example.com/hook', events: '*', secret: 'long-enough-secret' })
      .expect(201);
    await svc.http.get(`/webhooks/${hook.body.id}/deliveries`).query({ limit: '100' }).set(auth).expect(200);
    await svc.http.get(`/webhooks/${hook.body.id}/deliveries`).query({ limit: '101' }).set(auth).expect(400);
  });

  test('the growth caps have documented defaults and refuse bad values', () => {
    const config = loadConfig({});
    assert.equal(config.maxMindsPerUser, 100);
    assert.equal(config.maxPendingDeliveriesPerWebhook, 1000);
    assert.equal(config.mindDeleteChunkSize, 500);
    for (const name of ['MIND_MAX_MINDS_PER_USER', 'MIND_MAX_PENDING_DELIVERIES_PER_WEBHOOK', 'MIND_DELETE_CHUNK_SIZE']) {
      assert.throws(
        () => loadConfig({ [name]: '0' }),
        (err: Error) => err instanceof ConfigError && err.message.includes(name),
      );
    }
  });
});
