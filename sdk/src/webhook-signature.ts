// Verifying webhook deliveries. Always verify the raw body bytes as received, never re-serialised JSON.
import { createHmac, timingSafeEqual } from 'node:crypto';

/** The JSON body of every delivery. */
export interface WebhookEvent<T = Record<string, unknown>> {
  /** The event id; the same across retries of one delivery. */
  id: string;
  event: string;
  timestamp: string;
  mind_id: string;
  data: T;
}

export class WebhookVerificationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WebhookVerificationError';
  }
}

type Bytes = string | Uint8Array;

const toBuffer = (value: Bytes) => (typeof value === 'string' ? Buffer.from(value, 'utf8') : Buffer.from(value));

/**
 * Mind Service keys the HMAC with the secret's UTF-8 bytes. Other Standard Webhooks senders treat a
 * `whsec_<base64>` secret as base64 key bytes, so for such a secret that key is accepted too.
 */
function secretKeys(secret: string): Buffer[] {
  if (typeof secret !== 'string' || secret.length === 0) throw new TypeError('secret must be a non-empty string');
  const keys = [Buffer.from(secret, 'utf8')];
  if (secret.startsWith('whsec_')) keys.push(Buffer.from(secret.slice(6), 'base64'));
  return keys;
}

/** Compares in time that depends only on the lengths, which are not secret. */
function safeEqual(a: Buffer, b: Buffer): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * Checks `X-Service-Signature: sha256=<hex>`, the HMAC-SHA256 of the raw body keyed with the webhook's
 * secret, in constant time. False for a missing, malformed or wrong signature.
 */
export function verifyWebhookSignature(rawBody: Bytes, signatureHeader: string | null | undefined, secret: string): boolean {
  if (typeof signatureHeader !== 'string') return false;
  const match = /^sha256=([0-9a-fA-F]{64})$/.exec(signatureHeader.trim());
  if (!match) return false;
  if (typeof secret !== 'string' || secret.length === 0) throw new TypeError('secret must be a non-empty string');
  const expected = createHmac('sha256', Buffer.from(secret, 'utf8')).update(toBuffer(rawBody)).digest();
  return safeEqual(expected, Buffer.from(match[1], 'hex'));
}

/** The headers of a delivery: a fetch `Headers`, or Node's `req.headers`. */
export type StandardWebhookHeaders = Headers | Record<string, string | string[] | undefined>;

export interface VerifyStandardWebhookOptions {
  /** How far `webhook-timestamp` may be from now, in seconds (default 300). Bounds replays. */
  toleranceSeconds?: number | undefined;
  /** The current time (default: now); for tests. */
  now?: Date | undefined;
}

function header(headers: StandardWebhookHeaders, name: string): string | undefined {
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name) ?? undefined;
  const record = headers as Record<string, string | string[] | undefined>;
  const value = record[name] ?? record[Object.keys(record).find((k) => k.toLowerCase() === name) ?? ''];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * Verifies the Standard Webhooks headers (`webhook-id`, `webhook-timestamp`, `webhook-signature`: an HMAC
 * over `id.timestamp.body`) and the timestamp tolerance, then answers the parsed body. Throws
 * WebhookVerificationError saying what was wrong. Remember `webhook-id`s you have processed to drop replays
 * within the tolerance.
 */
export function verifyStandardWebhook<T = Record<string, unknown>>(
  rawBody: Bytes,
  headers: StandardWebhookHeaders,
  secret: string,
  options: VerifyStandardWebhookOptions = {},
): WebhookEvent<T> {
  const id = header(headers, 'webhook-id');
  const timestamp = header(headers, 'webhook-timestamp');
  const signatures = header(headers, 'webhook-signature');
  if (!id || !timestamp || !signatures) throw new WebhookVerificationError('missing webhook-id, webhook-timestamp or webhook-signature');
  if (!/^\d+$/.test(timestamp)) throw new WebhookVerificationError('webhook-timestamp is not Unix seconds');
  const tolerance = options.toleranceSeconds ?? 300;
  const now = Math.floor((options.now ?? new Date()).getTime() / 1000);
  const sent = Number(timestamp);
  if (sent < now - tolerance) throw new WebhookVerificationError('webhook-timestamp is too old');
  if (sent > now + tolerance) throw new WebhookVerificationError('webhook-timestamp is too far in the future');

  const body = toBuffer(rawBody);
  const signed = Buffer.concat([Buffer.from(`${id}.${timestamp}.`, 'utf8'), body]);
  const expected = secretKeys(secret).map((key) => createHmac('sha256', key).update(signed).digest());
  // Several space-separated `v1,<base64>` entries may be present (during a secret rotation).
  const valid = signatures.split(' ').some((entry) => {
    const [version, value] = entry.split(',', 2);
    if (version !== 'v1' || value === undefined) return false;
    const given = Buffer.from(value, 'base64');
    return expected.some((mac) => safeEqual(mac, given));
  });
  if (!valid) throw new WebhookVerificationError('no matching signature in webhook-signature');
  try {
    return JSON.parse(body.toString('utf8')) as WebhookEvent<T>;
  } catch {
    throw new WebhookVerificationError('the body is not JSON');
  }
}
