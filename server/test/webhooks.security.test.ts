// No credential, the wrong kind, another mind's key on every webhook route: security.routes.test.ts.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { isPublicAddress } from '../src/webhooks/ssrf.js';
import { bearer, startService, useService } from './harness.js';
import { createWebhook, recordEvent } from './webhooks/helpers.js';
import { eventually, type Receiver, startReceiver } from './webhooks/receiver.js';
import { Cipher } from '../src/lib/cipher.js';
import { SecretBox } from '../src/webhooks/secret-box.js';

describe('webhooks: scoping and secrets', () => {
  const svc = useService({ MIND_WEBHOOK_RETRY_SCHEDULE: '10ms' });
  let receiver: Receiver;
  before(async () => {
    receiver = await startReceiver();
  });
  after(() => receiver.close());

  test('a delivery id of another webhook of the same mind is 404 on redeliver', async () => {
    const { mindId, mindKey } = await svc.mind();
    const a = await createWebhook(svc, mindKey, { url: `${receiver.url}/a`, events: '*' });
    const b = await createWebhook(svc, mindKey, { url: `${receiver.url}/b`, events: 'memory.*' });
    await recordEvent(svc, mindId, 'task.created', {});
    const [delivery] = (await svc.http.get(`/webhooks/${a.id}/deliveries`).set(bearer(mindKey)).expect(200)).body.deliveries;
    const res = await svc.http.post(`/webhooks/${b.id}/deliveries/${delivery.id}/redeliver`).set(bearer(mindKey));
    assert.equal(res.status, 404);
    assert.equal(res.body.message, 'Delivery not found');
  });

  test('the secret is never answered and never stored in clear', async () => {
    const { mindKey } = await svc.mind();
    const secret = 'clear-text-must-not-leak-7f3a';
    const created = await svc.http
      .post('/webhooks')
      .set(bearer(mindKey))
      .send({ url: `${receiver.url}/secret`, events: '*', secret })
      .expect(201);
    await svc.http
      .put(`/webhooks/${created.body.id}`)
      .set(bearer(mindKey))
      .send({ secret: `${secret}-2` })
      .expect(200);
    const answers = [
      created.body,
      (await svc.http.get('/webhooks').set(bearer(mindKey))).body,
      (await svc.http.get(`/webhooks/${created.body.id}`).set(bearer(mindKey))).body,
    ];
    assert.equal(JSON.stringify(answers).includes(secret), false);
    const row = await svc.ctx.db('webhooks').where({ id: created.body.id }).first();
    assert.equal(JSON.stringify(row).includes(secret), false);
    assert.equal(
      new SecretBox(Cipher.fromConfig(svc.ctx.config)).open(row.secret_encrypted),
      `${secret}-2`,
      'encrypted, and readable back',
    );
    for (const file of readdirSync(svc.dataDir).filter((f) => f.startsWith('mind.sqlite'))) {
      assert.equal(readFileSync(join(svc.dataDir, file)).includes(secret), false, `${file} holds the secret in clear`);
    }
  });

  test('deleting the mind deletes its webhooks, deliveries and attempts', async () => {
    const { jwt, mindId, mindKey } = await svc.mind();
    const hook = await createWebhook(svc, mindKey, { url: `${receiver.url}/cascade`, events: '*' });
    await recordEvent(svc, mindId, 'task.created', {});
    await eventually(async () => (await svc.ctx.db('webhook_attempts').where({ mind_id: mindId })).length === 1);
    await svc.http.delete(`/minds/${mindId}`).set(bearer(jwt)).expect(204);
    // The rows go in the background (minds/purge.ts); the mind's own row goes last.
    for (let i = 0; i < 500 && (await svc.ctx.db('minds').where({ id: mindId }).first('id')); i++)
      await new Promise((r) => setTimeout(r, 10));
    for (const table of ['webhooks', 'webhook_deliveries', 'webhook_attempts']) {
      assert.equal((await svc.ctx.db(table).where({ mind_id: mindId })).length, 0, table);
    }
    assert.equal((await svc.ctx.db('webhooks').where({ id: hook.id })).length, 0);
  });
});

describe('webhooks: SSRF guard', () => {
  const svc = useService({ MIND_WEBHOOK_RETRY_SCHEDULE: '10ms', MIND_WEBHOOK_TIMEOUT: '2s' });
  let receiver: Receiver;
  before(async () => {
    receiver = await startReceiver();
  });
  after(() => receiver.close());

  test('https targets resolving to loopback, private, link-local or metadata addresses are refused without connecting', async () => {
    const { mindId, mindKey } = await svc.mind();
    const port = new URL(receiver.url).port;
    const targets = [
      [`https://localhost:${port}/`, /localhost resolves to (127\.0\.0\.1|::1), which is not a public address/],
      [`https://127.0.0.1:${port}/`, /127\.0\.0\.1 is not a public address/],
      ['https://localhost:1/', /not a public address/],
      ['https://10.0.0.1/', /10\.0\.0\.1 is not a public address/],
      ['https://169.254.169.254/latest/meta-data/', /169\.254\.169\.254 is not a public address/],
      ['https://[::1]/', /::1 is not a public address/],
      ['https://[::ffff:10.0.0.1]/', /not a public address/],
      ['https://[fd00:ec2::254]/', /not a public address/],
    ] as const;
    const hooks: Array<{ id: string }> = [];
    for (const [url] of targets) hooks.push(await createWebhook(svc, mindKey, { url, events: '*' }));
    await recordEvent(svc, mindId, 'task.created', {});

    for (const [i, [url, message]] of targets.entries()) {
      const delivery = await eventually(async () => {
        const [d] = (await svc.http.get(`/webhooks/${hooks[i]!.id}/deliveries`).set(bearer(mindKey))).body.deliveries;
        return d?.status === 'failed' && d;
      });
      assert.equal(delivery.attempts.length, 1, `${url}: a refused target is not retried`);
      assert.equal(delivery.attempts[0].status_code, null);
      assert.match(delivery.attempts[0].error, message, url);
      const hook = (await svc.http.get(`/webhooks/${hooks[i]!.id}`).set(bearer(mindKey))).body;
      assert.match(hook.last_error, /not a public address/);
    }
    const test = await svc.http.post(`/webhooks/${hooks[3]!.id}/test`).set(bearer(mindKey)).expect(200);
    assert.equal(test.body.delivered, false);
    assert.match(test.body.error, /10\.0\.0\.1 is not a public address/);
    assert.equal(receiver.connections(), 0, 'nothing connected to the local receiver');
  });

  test('the address rules', () => {
    for (const address of [
      '127.0.0.1',
      '127.1.2.3',
      '10.0.0.1',
      '172.16.0.1',
      '172.31.255.255',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '::1',
      '::',
      'fe80::1',
      'fc00::1',
      'fd00:ec2::254',
      '::ffff:127.0.0.1',
      '::ffff:10.0.0.1',
      '::ffff:169.254.169.254',
      '224.0.0.1',
      'not-an-ip',
    ]) {
      assert.equal(isPublicAddress(address), false, address);
    }
    for (const address of ['8.8.8.8', '1.1.1.1', '172.32.0.1', '100.128.0.1', '93.184.216.34', '2606:4700:4700::1111', '::ffff:8.8.8.8']) {
      assert.equal(isPublicAddress(address), true, address);
    }
  });
});

describe('webhooks: MIND_WEBHOOK_ALLOW_PRIVATE', () => {
  test('lets https deliveries connect to private addresses', async () => {
    const svc = await startService({ MIND_WEBHOOK_ALLOW_PRIVATE: 'true', MIND_WEBHOOK_RETRY_SCHEDULE: '10ms' });
    const receiver = await startReceiver();
    try {
      const { mindKey } = await svc.mind();
      const hook = await createWebhook(svc, mindKey, { url: `https://127.0.0.1:${new URL(receiver.url).port}/`, events: '*' });
      const res = await svc.http.post(`/webhooks/${hook.id}/test`).set(bearer(mindKey)).expect(200);
      assert.equal(res.body.delivered, false);
      assert.doesNotMatch(res.body.error, /not a public address/);
      assert.equal(receiver.connections(), 1, 'it connected (the plain-http receiver then fails the TLS handshake)');
    } finally {
      await svc.stop();
      await receiver.close();
    }
  });
});
