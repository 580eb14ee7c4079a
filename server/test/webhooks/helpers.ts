import { createHmac } from 'node:crypto';
import type { EventName } from '@mindservice/contract';
import { bearer, type TestService } from '../harness.js';
import type { Received } from './receiver.js';

/** Milliseconds-long retries so tests of the schedule take no time. */
export const FAST_RETRIES = { MIND_WEBHOOK_RETRY_SCHEDULE: '10ms,20ms', MIND_WEBHOOK_TIMEOUT: '2s' };

export async function createWebhook(svc: TestService, mindKey: string, body: { url: string; events: string; secret?: string }) {
  const res = await svc.http
    .post('/webhooks')
    .set(bearer(mindKey))
    .send({ secret: 'test-secret-123', ...body })
    .expect(201);
  return res.body as { id: string; url: string; events: string; enabled: boolean; mind_id: string; created_at: number };
}

/** Records an event the way every area does: inside a transaction, through the one event path. */
export function recordEvent(svc: TestService, mindId: string, name: EventName, data: Record<string, unknown> = {}) {
  return svc.ctx.db.transaction((trx) => svc.ctx.events.record(trx, mindId, name, data));
}

/** What a receiver does to check `X-Service-Signature`. */
export function serviceSignatureOk(secret: string, r: Pick<Received, 'raw' | 'headers'>): boolean {
  const expected = `sha256=${createHmac('sha256', secret).update(r.raw).digest('hex')}`;
  return r.headers['x-service-signature'] === expected;
}

/** What a receiver does to check the Standard Webhooks signature (`id.timestamp.body`). */
export function standardSignatureOk(secret: string, r: Pick<Received, 'raw' | 'headers'>): boolean {
  const id = r.headers['webhook-id'];
  const ts = r.headers['webhook-timestamp'];
  const mac = createHmac('sha256', secret).update(`${id}.${ts}.`).update(r.raw).digest('base64');
  return String(r.headers['webhook-signature']).split(' ').includes(`v1,${mac}`);
}
