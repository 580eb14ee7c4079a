import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { Config } from '../lib/config.js';
import { loadOrCreateKeyFile } from '../lib/keyfile.js';

const VERSION = 'v1';

/**
 * Encrypts webhook secrets at rest (AES-256-GCM). A webhook secret is the one secret the service
 * must read back in clear (to sign deliveries), so it is encrypted rather than hashed. The key is
 * MIND_ENCRYPTION_KEY, or the generated `encryption-key` file in the data directory (the same file
 * and format the memories area uses).
 */
export class SecretBox {
  private readonly key: Buffer;

  constructor(hexKey: string) {
    this.key = Buffer.from(hexKey, 'hex');
    if (this.key.length !== 32) throw new Error('The encryption key must be 64 hex characters (32 bytes)');
  }

  static fromConfig(config: Config) {
    return new SecretBox(config.encryptionKey ?? loadOrCreateKeyFile(config.dataDir, 'encryption-key'));
  }

  seal(plain: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return [VERSION, iv.toString('base64'), cipher.getAuthTag().toString('base64'), data.toString('base64')].join(':');
  }

  open(sealed: string): string {
    const [version, iv, tag, data] = sealed.split(':');
    if (version !== VERSION || !iv || !tag || data === undefined) throw new Error('Unrecognised encrypted secret');
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64'));
    decipher.setAuthTag(Buffer.from(tag, 'base64'));
    return Buffer.concat([decipher.update(Buffer.from(data, 'base64')), decipher.final()]).toString('utf8');
  }
}
