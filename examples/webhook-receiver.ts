// A webhook receiver that verifies every delivery with the SDK before trusting it.
//
//   pnpm --filter @mindservice/examples webhook-receiver   (MIND_URL, default http://127.0.0.1:3000)
//
// By itself it demonstrates the round trip and exits: it listens on a free local port, subscribes a new
// mind (or the one in MIND_KEY) to `*`, asks the service for a test delivery, creates a task (a
// `task.created` event), checks both arrived with valid signatures, shows that a forged delivery is
// refused, and removes the webhook. With SERVE=1 and WEBHOOK_SECRET it only listens (PORT, default 8787),
// for a webhook you created yourself.
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { verifyStandardWebhook, verifyWebhookSignature, WebhookVerificationError, type WebhookEvent } from '@mindservice/sdk';
import { mindClient } from './shared.js';

const serveOnly = process.env.SERVE === '1';
const secret = process.env.WEBHOOK_SECRET ?? randomBytes(24).toString('base64url');
const received: WebhookEvent[] = [];
/** webhook-ids already handled: a retry or a replay of the same event is acknowledged and ignored. */
const seen = new Set<string>();

async function handle(req: IncomingMessage, res: ServerResponse) {
  if (req.method !== 'POST' || req.url !== '/webhook') return void res.writeHead(404).end();
  // Verify the raw bytes as received: re-serialised JSON would not match the signature.
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const raw = Buffer.concat(chunks);
  if (!verifyWebhookSignature(raw, req.headers['x-service-signature'] as string | undefined, secret)) {
    console.log('refused a delivery: bad X-Service-Signature');
    return void res.writeHead(401).end();
  }
  let event: WebhookEvent;
  try {
    // Standard Webhooks headers add replay protection: the timestamp must be within 5 minutes.
    event = verifyStandardWebhook(raw, req.headers, secret);
  } catch (err) {
    if (!(err instanceof WebhookVerificationError)) throw err;
    console.log(`refused a delivery: ${err.message}`);
    return void res.writeHead(401).end();
  }
  const id = req.headers['webhook-id'] as string;
  if (!seen.has(id)) {
    seen.add(id);
    received.push(event);
    console.log(`verified ${event.event} (${id}) for mind ${event.mind_id}`);
  }
  res.writeHead(204).end();
}

const server = createServer((req, res) => {
  handle(req, res).catch((err) => {
    console.error(err);
    res.writeHead(500).end();
  });
});
await new Promise<void>((resolve) => server.listen(serveOnly ? Number(process.env.PORT ?? 8787) : 0, '127.0.0.1', resolve));
const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhook`;
console.log(`listening on ${url}`);

if (!serveOnly) {
  try {
    await demonstrate();
  } finally {
    server.close();
  }
}

async function demonstrate() {
  const { client } = await mindClient('webhook-receiver');
  const webhook = await client.webhooks.create({ url, events: '*', secret });
  try {
    const test = await client.webhooks.test(webhook.id);
    console.log(`test delivery: delivered=${test.delivered}, status ${test.status}, ${test.duration_ms} ms`);
    await client.tasks.create({ title: 'Say hello to the webhook' });
    await waitFor(() => received.some((e) => e.event === 'task.created'), 15_000);

    const forged = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-service-signature': `sha256=${'0'.repeat(64)}` },
      body: JSON.stringify({ event: 'task.created', data: { title: 'forged' } }),
    });
    console.log(`a forged delivery was answered ${forged.status}`);
    if (forged.status !== 401) throw new Error('the forged delivery was accepted');
    if (!received.some((e) => e.event === 'memory.created')) throw new Error('the test delivery did not arrive');
    console.log(`received and verified: ${received.map((e) => e.event).join(', ')}`);
    console.log('webhook receiver finished');
  } finally {
    await client.webhooks.delete(webhook.id);
  }
}

async function waitFor(condition: () => boolean, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`no task.created delivery within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
