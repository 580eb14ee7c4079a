// The service's one cipher: credentials memories and webhook secrets both go through it, and webhook
// secrets stored in the first form (`v1:iv:tag:data`, before the cipher was shared) still open.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Cipher, UnreadableCiphertext } from '../src/lib/cipher.js';
import { SecretBox } from '../src/webhooks/secret-box.js';

const KEY = '11'.repeat(32);

describe('cipher', () => {
  test('a value decrypts with its key and binding only', () => {
    const cipher = new Cipher(KEY);
    const stored = cipher.encrypt('pass word é😀', 'mind:memory');
    assert.doesNotMatch(Buffer.from(stored, 'base64').toString('latin1'), /pass word/);
    assert.notEqual(cipher.encrypt('pass word é😀', 'mind:memory'), stored, 'a fresh IV each time');
    assert.equal(cipher.decrypt(stored, 'mind:memory'), 'pass word é😀');
    assert.throws(() => cipher.decrypt(stored, 'mind:other'), UnreadableCiphertext);
    assert.throws(() => new Cipher('22'.repeat(32)).decrypt(stored, 'mind:memory'), UnreadableCiphertext);
    assert.throws(() => cipher.decrypt('not a value', 'mind:memory'), UnreadableCiphertext);
    assert.throws(() => new Cipher('11'), /32 bytes/);
  });

  test('webhook secrets: sealed with the cipher under their own binding; the first `v1:` form still opens', () => {
    const cipher = new Cipher(KEY);
    const box = new SecretBox(cipher);
    const sealed = box.seal('whsec_new');
    assert.ok(!sealed.startsWith('v1:') && !sealed.includes('whsec_new'));
    assert.equal(box.open(sealed), 'whsec_new');
    assert.throws(() => cipher.decrypt(sealed, ''), UnreadableCiphertext, 'bound to webhook secrets');
    // Written by the SecretBox of before, with the same key.
    assert.equal(box.open('v1:hbSHrNYRBzuQQEnj:S8eV20oty1ywVGHkGdBTvg==:PpsJatuWf6fvDtVGuseHCM8BcQ=='), 'whsec_legacy_secret');
    assert.throws(() => box.open('v1:hbSHrNYRBzuQQEnj:AAAAAAAAAAAAAAAAAAAAAA==:PpsJatuWf6fvDtVGuseHCM8BcQ=='), UnreadableCiphertext);
  });
});
