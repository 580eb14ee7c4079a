// Webhooks through the SDK against a live service, and real deliveries checked with the SDK's verifiers.
import assert from 'node:assert/strict';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { ConflictError, NotFoundError, verifyStandardWebhook, verifyWebhookSignature } from '../src/index.js';
import { startLiveServer, type LiveServer } from './live-server.js';

interface Received {
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** A receiver on localhost that records every delivery and answers 204. */
async function receiver() {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks) });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  return { url, received, stop: () => new Promise<void>((r) => server.close(() => r())) };
}

describe('webhooks', () => {
  let live: LiveServer;
  let hook: Awaited<ReturnType<typeof receiver>>;
  before(async () => {
    live = await startLiveServer();
    hook = await receiver();
  });
  after(async () => {
    await hook.stop();
    await live.stop();
  });

  it('create, list, get, update, disable, enable, delete; the secret is never answered', async () => {
    const { client, mindId } = await live.account();
    const created = await client.webhooks.create({ url: hook.url, events: 'task.*', secret: 'a-long-secret' });
    assert.equal(created.mind_id, mindId);
    assert.equal(created.enabled, true);
    assert.equal('secret' in created, false);
    await assert.rejects(client.webhooks.create({ url: hook.url, events: '*', secret: 'a-long-secret' }), ConflictError);

    const webhooks = await client.webhooks.list();
    assert.equal(webhooks.hasNextPage(), false);
    const [listed] = webhooks.data;
    assert.equal(listed?.id, created.id);
    assert.equal(listed.last_call, null);
    const updated = await client.webhooks.update(created.id, { events: 'memory.*' });
    assert.equal(updated.events, 'memory.*');
    assert.equal((await client.webhooks.disable(created.id)).enabled, false);
    await assert.rejects(client.webhooks.test(created.id), ConflictError);
    assert.equal((await client.webhooks.enable(created.id)).enabled, true);
    assert.equal((await client.webhooks.get(created.id)).events, 'memory.*');
    assert.equal(await client.webhooks.delete(created.id), undefined, 'a 204: nothing to answer');
    await assert.rejects(client.webhooks.get(created.id), NotFoundError);
  });

  it('test() delivers a signed memory.created event that both SDK verifiers accept', async () => {
    const { client } = await live.account();
    const secret = 'whsec_but-really-any-text';
    const webhook = await client.webhooks.create({ url: hook.url, events: '*', secret });
    const before = hook.received.length;
    const outcome = await client.webhooks.test(webhook.id);
    assert.equal(outcome.delivered, true, JSON.stringify(outcome));
    assert.equal(outcome.status, 204);
    const delivery = hook.received[before];
    assert.ok(delivery, 'the receiver got the delivery');

    assert.equal(verifyWebhookSignature(delivery.body, delivery.headers['x-service-signature'] as string, secret), true);
    assert.equal(verifyWebhookSignature(delivery.body, delivery.headers['x-service-signature'] as string, 'another-secret'), false);
    const event = verifyStandardWebhook(delivery.body, delivery.headers, secret);
    assert.equal(event.event, 'memory.created');
    // A re-serialised body is not the signed bytes.
    const reserialised = JSON.stringify(JSON.parse(delivery.body.toString()), null, 2);
    assert.equal(verifyWebhookSignature(reserialised, delivery.headers['x-service-signature'] as string, secret), false);
  });

  it('deliveries lists the attempts; redeliver queues the event again', async () => {
    const { client } = await live.account();
    const webhook = await client.webhooks.create({ url: hook.url, events: 'task.created', secret: 'a-long-secret' });
    await client.tasks.create({ title: 'fires task.created' });
    let deliveries = (await client.webhooks.deliveries(webhook.id)).data;
    for (let i = 0; i < 50 && deliveries[0]?.status !== 'succeeded'; i++) {
      await new Promise((r) => setTimeout(r, 100));
      deliveries = (await client.webhooks.deliveries(webhook.id, { limit: 10 })).data;
    }
    assert.equal(deliveries.length, 1);
    assert.equal(deliveries[0].event, 'task.created');
    assert.equal(deliveries[0].status, 'succeeded');
    const again = await client.webhooks.redeliver(webhook.id, deliveries[0].id);
    assert.equal(again.event_id, deliveries[0].event_id);
    assert.notEqual(again.id, deliveries[0].id);
  });
});
