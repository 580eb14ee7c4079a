import { createHmac } from 'node:crypto';

/** What a delivery POST carries: the exact body bytes and the headers signed over them. */
export interface SignedRequest {
  body: Buffer;
  headers: Record<string, string>;
}

export interface DeliveryPayload {
  /** The event id: the same on every retry and redelivery of this event. */
  id: string;
  event: string;
  /** When the event happened (ISO 8601). */
  timestamp: string;
  mind_id: string;
  data: Record<string, unknown>;
}

/** `sha256=<hex>`: HMAC-SHA256 of the raw body bytes, keyed with the secret's UTF-8 bytes. */
export function serviceSignature(secret: string, body: Buffer): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}

/** Standard Webhooks `v1,<base64>`: HMAC-SHA256 of `id.timestamp.body`, keyed with the secret's UTF-8 bytes. */
export function standardSignature(secret: string, messageId: string, unixSeconds: number, body: Buffer): string {
  const mac = createHmac('sha256', secret).update(`${messageId}.${unixSeconds}.`).update(body).digest('base64');
  return `v1,${mac}`;
}

/**
 * Builds the body once and signs exactly those bytes. `webhook-id` is the event id (stable across
 * retries, so receivers can drop duplicates); `X-Service-Delivery` names this delivery.
 */
export function signDelivery(secret: string, payload: DeliveryPayload, deliveryId: string, now: Date): SignedRequest {
  const body = Buffer.from(JSON.stringify(payload), 'utf8');
  const unixSeconds = Math.floor(now.getTime() / 1000);
  return {
    body,
    headers: {
      'Content-Type': 'application/json',
      'Content-Length': String(body.length),
      'User-Agent': 'MindService-Webhooks/1',
      'X-Service-Signature': serviceSignature(secret, body),
      'X-Service-Event': payload.event,
      'X-Service-Delivery': deliveryId,
      'webhook-id': payload.id,
      'webhook-timestamp': String(unixSeconds),
      'webhook-signature': standardSignature(secret, payload.id, unixSeconds, body),
    },
  };
}
