import type { Cipher } from '../lib/cipher.js';

/** Webhook secrets are encrypted under this binding (rows written before it carry the `v1:` form). */
const BINDING = 'webhook-secret';

/**
 * Webhook secrets at rest. A webhook secret is the one secret the service must read back in clear (to
 * sign deliveries), so it is encrypted with the service's cipher rather than hashed.
 */
export class SecretBox {
  constructor(private readonly cipher: Cipher) {}

  seal(plain: string): string {
    return this.cipher.encrypt(plain, BINDING);
  }

  open(sealed: string): string {
    if (!sealed.startsWith('v1:')) return this.cipher.decrypt(sealed, BINDING);
    // The first form, `v1:iv:tag:data` in base64 parts without a binding (GCM without associated data).
    const [, iv, tag, data] = sealed.split(':');
    if (!iv || !tag || data === undefined) throw new Error('Unrecognised encrypted secret');
    return this.cipher.decrypt(Buffer.concat([iv, tag, data].map((part) => Buffer.from(part, 'base64'))).toString('base64'), '');
  }
}
