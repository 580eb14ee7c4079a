// Webhook targets (DESIGN section 13): never the service itself; http://localhost only for development.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { loadConfig, withListeningPort } from '../src/lib/config.js';
import { WebhookSender } from '../src/webhooks/sender.js';
import { signDelivery } from '../src/webhooks/signing.js';
import { WebhookTargets } from '../src/webhooks/ssrf.js';
import { bearer, startService, type TestService } from './harness.js';
import { createWebhook } from './webhooks/helpers.js';
import { type Receiver, startReceiver } from './webhooks/receiver.js';
import { startServerProcess } from './server-process.js';

// A port nothing listens on: the rules compare with the configured port, they never connect.
const PORT = '45123';

async function post(svc: TestService, mindKey: string, url: string) {
  return svc.http.post('/webhooks').set(bearer(mindKey)).send({ url, events: '*', secret: 'test-secret-123' });
}

describe('webhook targets: never the service itself', () => {
  let svc: TestService;
  before(async () => {
    svc = await startService({ HOST: '127.0.0.1', PORT, MIND_PUBLIC_URL: 'https://mind.example.com/' });
  });
  after(() => svc.stop());

  test('create: the origin of MIND_PUBLIC_URL and HOST:PORT are 400 saying why', async () => {
    const { mindKey } = await svc.mind();
    for (const url of [
      'https://mind.example.com/webhooks/x/deliveries/y/redeliver',
      'https://MIND.example.com.:443/hooks',
      `http://127.0.0.1:${PORT}/webhooks`,
      `http://localhost:${PORT}/`,
    ]) {
      const res = await post(svc, mindKey, url);
      assert.equal(res.status, 400, url);
      assert.match(res.body.message, /^body\.url: points at this Mind Service itself/, url);
      assert.deepEqual(
        res.body.details.map((d: { path: string }) => d.path),
        ['body.url'],
      );
    }
    assert.deepEqual((await svc.http.get('/webhooks').set(bearer(mindKey)).expect(200)).body, []);
  });

  test('another port or host of the same names is not the service', async () => {
    const { mindKey } = await svc.mind();
    for (const url of ['https://mind.example.com:8443/hooks', 'https://hooks.example.com/', `http://127.0.0.1:${Number(PORT) + 1}/`]) {
      assert.equal((await post(svc, mindKey, url)).status, 201, url);
    }
  });

  test('update: a url pointing at the service is 400 and leaves the webhook as it was', async () => {
    const { mindKey } = await svc.mind();
    const hook = await createWebhook(svc, mindKey, { url: 'https://hooks.example.com/a', events: '*' });
    const res = await svc.http
      .put(`/webhooks/${hook.id}`)
      .set(bearer(mindKey))
      .send({ url: `https://mind.example.com/webhooks/${hook.id}/test` });
    assert.equal(res.status, 400);
    assert.match(res.body.message, /itself/);
    assert.equal((await svc.http.get(`/webhooks/${hook.id}`).set(bearer(mindKey)).expect(200)).body.url, 'https://hooks.example.com/a');
  });
});

describe('webhook targets: http://localhost is for development', () => {
  let receiver: Receiver;
  before(async () => {
    receiver = await startReceiver();
  });
  after(() => receiver.close());

  test('listening on 0.0.0.0 without the setting: 400 naming MIND_WEBHOOK_ALLOW_LOCALHOST on create and update', async () => {
    const svc = await startService({ HOST: '0.0.0.0', PORT });
    try {
      const { mindKey } = await svc.mind();
      for (const url of [`${receiver.url}/hook`, receiver.url.replace('127.0.0.1', 'localhost')]) {
        const res = await post(svc, mindKey, url);
        assert.equal(res.status, 400, url);
        assert.match(res.body.message, /MIND_WEBHOOK_ALLOW_LOCALHOST=1/);
      }
      const hook = await createWebhook(svc, mindKey, { url: 'https://hooks.example.com/a', events: '*' });
      const res = await svc.http
        .put(`/webhooks/${hook.id}`)
        .set(bearer(mindKey))
        .send({ url: `${receiver.url}/hook` });
      assert.equal(res.status, 400);
      assert.match(res.body.message, /MIND_WEBHOOK_ALLOW_LOCALHOST/);
    } finally {
      await svc.stop();
    }
  });

  test("listening on 0.0.0.0 with MIND_WEBHOOK_ALLOW_LOCALHOST=1: 201, the test event arrives; the service's own port stays 400", async () => {
    const svc = await startService({ HOST: '0.0.0.0', PORT, MIND_WEBHOOK_ALLOW_LOCALHOST: '1' });
    try {
      const { mindKey } = await svc.mind();
      const hook = await createWebhook(svc, mindKey, { url: `${receiver.url}/allowed`, events: '*' });
      const sent = await svc.http.post(`/webhooks/${hook.id}/test`).set(bearer(mindKey)).expect(200);
      assert.equal(sent.body.delivered, true);
      assert.equal(receiver.at('/allowed').length, 1);
      for (const url of [`http://localhost:${PORT}/`, `http://127.0.0.1:${PORT}/`, `https://0.0.0.0:${PORT}/`]) {
        const res = await post(svc, mindKey, url);
        assert.equal(res.status, 400, url);
        assert.match(res.body.message, /itself/, url);
      }
    } finally {
      await svc.stop();
    }
  });

  test('listening on loopback: 201 as before; MIND_WEBHOOK_ALLOW_LOCALHOST=0 turns it off there too', async () => {
    for (const host of ['127.0.0.1', 'localhost', '::1']) {
      const svc = await startService({ HOST: host, PORT });
      try {
        const { mindKey } = await svc.mind();
        assert.equal((await post(svc, mindKey, `${receiver.url}/loopback`)).status, 201, host);
      } finally {
        await svc.stop();
      }
    }
    const off = await startService({ HOST: '127.0.0.1', PORT, MIND_WEBHOOK_ALLOW_LOCALHOST: '0' });
    try {
      const { mindKey } = await off.mind();
      const res = await post(off, mindKey, `${receiver.url}/off`);
      assert.equal(res.status, 400);
      assert.match(res.body.message, /MIND_WEBHOOK_ALLOW_LOCALHOST/);
    } finally {
      await off.stop();
    }
  });

  test('a stored localhost webhook is refused at send time once the setting is off, without connecting', async () => {
    const before = receiver.connections();
    const targets = WebhookTargets.fromConfig(loadConfig({ HOST: '0.0.0.0', PORT }));
    const sender = new WebhookSender({ timeoutMs: 2000, allowPrivate: false, targets });
    try {
      const payload = { id: 'evt', event: 'memory.created', timestamp: new Date().toISOString(), mind_id: 'm', data: {} };
      const result = await sender.send(`${receiver.url}/late`, signDelivery('test-secret-123', payload, 'd1', new Date()));
      assert.equal(result.status, null);
      assert.equal(result.refused, true);
      assert.match(result.error ?? '', /MIND_WEBHOOK_ALLOW_LOCALHOST/);
      assert.equal(receiver.connections(), before);
    } finally {
      sender.close();
    }
  });
});

describe('webhook targets: the rules', () => {
  test("listening on every interface, this machine's own addresses with PORT are the service", () => {
    const targets = WebhookTargets.fromConfig(loadConfig({ HOST: '0.0.0.0', PORT, MIND_WEBHOOK_ALLOW_LOCALHOST: '1' }));
    const own = Object.values(networkInterfaces())
      .flatMap((list) => list ?? [])
      .map((a) => a.address);
    for (const address of own) {
      const host = address.includes(':') ? `[${address.replace(/%.*$/, '')}]` : address;
      if (address.includes('%')) continue; // scoped link-local addresses are not valid in a URL
      assert.equal(targets.isService(new URL(`https://${host}:${PORT}/`)), true, address);
      assert.equal(targets.isService(new URL(`https://${host}:${Number(PORT) + 1}/`)), false, address);
    }
    // Listening on one address, another one of this machine is not the service.
    const one = WebhookTargets.fromConfig(loadConfig({ HOST: '10.1.2.3', PORT }));
    assert.equal(one.isService(new URL(`https://10.1.2.3:${PORT}/`)), true);
    assert.equal(one.isService(new URL(`http://localhost:${PORT}/`)), false);
  });

  test('PORT=0: the listening port replaces it, and the default public URL with it', () => {
    const config = loadConfig({ PORT: '0' });
    const listening = withListeningPort(config, 41234);
    assert.equal(listening.port, 41234);
    assert.equal(listening.publicUrl, 'http://127.0.0.1:41234');
    const explicit = withListeningPort(loadConfig({ PORT: '0', MIND_PUBLIC_URL: 'https://mind.example.com' }), 41234);
    assert.equal(explicit.publicUrl, 'https://mind.example.com');
    assert.equal(withListeningPort(loadConfig({ PORT: '3000' }), 41234).port, 3000);
    assert.equal(loadConfig({ HOST: '::1', PORT: '3000' }).publicUrl, 'http://[::1]:3000');
  });

  test('a server started with PORT=0 refuses a webhook to the port it listens on', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'mind-targets-'));
    const server = await startServerProcess({ MIND_DATA_DIR: dataDir });
    try {
      const call = async (path: string, token: string | null, body: unknown) => {
        const res = await fetch(`${server.url}${path}`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
          body: JSON.stringify(body),
        });
        return { status: res.status, body: (await res.json()) as Record<string, unknown> };
      };
      const { body: user } = await call('/register', null, { email: `targets-${Date.now()}@example.com`, password: 'correct horse' });
      const { body: mind } = await call('/minds', user.jwt as string, { name: 'targets' });
      const own = await call('/webhooks', mind.mind_key as string, {
        url: `${server.url}/webhooks`,
        events: '*',
        secret: 'test-secret-123',
      });
      assert.equal(own.status, 400);
      assert.match(String(own.body.message), /itself/);
      const port = Number(new URL(server.url).port);
      const other = await call('/webhooks', mind.mind_key as string, {
        url: `http://127.0.0.1:${port + 1}/`,
        events: '*',
        secret: 'test-secret-123',
      });
      assert.equal(other.status, 201);
    } finally {
      await server.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
