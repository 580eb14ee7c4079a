// The verifiers on their own: known vectors, tampering, malformed headers and the timestamp tolerance.
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { describe, it } from 'node:test';
import { verifyStandardWebhook, verifyWebhookSignature, WebhookVerificationError } from '../src/index.js';

const body = '{"id":"e1","event":"task.created","timestamp":"2026-11-22T01:29:42.123Z","mind_id":"m1","data":{}}';
const secret = 'a-long-secret';
const hex = createHmac('sha256', secret).update(body).digest('hex');

describe('verifyWebhookSignature (X-Service-Signature)', () => {
  it('accepts the HMAC of the exact bytes, as a string or as bytes, hex in either case', () => {
    assert.equal(verifyWebhookSignature(body, `sha256=${hex}`, secret), true);
    assert.equal(verifyWebhookSignature(Buffer.from(body), `sha256=${hex.toUpperCase()}`, secret), true);
  });

  it('rejects a changed body, a wrong secret, and missing or malformed headers', () => {
    assert.equal(verifyWebhookSignature(`${body} `, `sha256=${hex}`, secret), false);
    assert.equal(verifyWebhookSignature(body, `sha256=${hex}`, 'wrong-secret'), false);
    assert.equal(verifyWebhookSignature(body, undefined, secret), false);
    assert.equal(verifyWebhookSignature(body, hex, secret), false);
    assert.equal(verifyWebhookSignature(body, `sha256=${hex.slice(2)}`, secret), false);
    assert.equal(verifyWebhookSignature(body, `sha256=${'z'.repeat(64)}`, secret), false);
  });

  it('an empty secret is a programming error', () => {
    assert.throws(() => verifyWebhookSignature(body, `sha256=${hex}`, ''), TypeError);
  });
});

describe('verifyStandardWebhook', () => {
  const now = new Date('2026-11-22T01:30:00Z');
  const ts = String(Math.floor(now.getTime() / 1000));
  const sign = (id: string, t: string, key: string | Buffer = secret) =>
    `v1,${createHmac('sha256', key).update(`${id}.${t}.${body}`).digest('base64')}`;
  const headers = (sig = sign('e1', ts), t = ts) => ({ 'webhook-id': 'e1', 'webhook-timestamp': t, 'webhook-signature': sig });

  it('accepts a valid signature (plain object or Headers) and answers the parsed event', () => {
    const event = verifyStandardWebhook(body, headers(), secret, { now });
    assert.equal(event.event, 'task.created');
    assert.equal(verifyStandardWebhook(body, new Headers(headers()), secret, { now }).id, 'e1');
  });

  it('accepts when any of several signatures matches (secret rotation)', () => {
    const sig = `v1,${Buffer.alloc(32).toString('base64')} ${sign('e1', ts)}`;
    assert.equal(verifyStandardWebhook(body, headers(sig), secret, { now }).id, 'e1');
  });

  it('matches the Standard Webhooks reference vector for a whsec_ secret', () => {
    const vector = {
      secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
      id: 'msg_p5jXN8AQM9LWM0D4loKWxJek',
      timestamp: '1614265330',
      body: '{"test": 2432232314}',
      signature: 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
    };
    const event = verifyStandardWebhook(
      vector.body,
      { 'webhook-id': vector.id, 'webhook-timestamp': vector.timestamp, 'webhook-signature': vector.signature },
      vector.secret,
      { now: new Date(1614265330 * 1000) },
    );
    assert.deepEqual(event, { test: 2432232314 });
  });

  it('rejects a signature over another id or timestamp, a tampered body, a wrong secret', () => {
    assert.throws(() => verifyStandardWebhook(body, headers(sign('e2', ts)), secret, { now }), WebhookVerificationError);
    assert.throws(() => verifyStandardWebhook(`${body} `, headers(), secret, { now }), /no matching signature/);
    assert.throws(() => verifyStandardWebhook(body, headers(), 'other-secret', { now }), /no matching signature/);
    assert.throws(() => verifyStandardWebhook(body, headers(sign('e1', ts).replace('v1,', 'v2,')), secret, { now }), /no matching/);
  });

  it('enforces the timestamp tolerance both ways (default 5 minutes, configurable)', () => {
    const old = String(Number(ts) - 301);
    assert.throws(() => verifyStandardWebhook(body, headers(sign('e1', old), old), secret, { now }), /too old/);
    const future = String(Number(ts) + 301);
    assert.throws(() => verifyStandardWebhook(body, headers(sign('e1', future), future), secret, { now }), /future/);
    const edge = String(Number(ts) - 300);
    assert.equal(verifyStandardWebhook(body, headers(sign('e1', edge), edge), secret, { now }).id, 'e1');
    assert.equal(verifyStandardWebhook(body, headers(sign('e1', old), old), secret, { now, toleranceSeconds: 600 }).id, 'e1');
  });

  it('rejects missing headers and a timestamp that is not Unix seconds', () => {
    assert.throws(() => verifyStandardWebhook(body, {}, secret, { now }), /missing/);
    assert.throws(() => verifyStandardWebhook(body, headers(sign('e1', 'soon'), 'soon'), secret, { now }), /Unix seconds/);
  });
});
