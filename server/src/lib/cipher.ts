import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { Config } from './config.js';
import { loadOrCreateKeyFile } from './keyfile.js';

const IV_BYTES = 12;
const TAG_BYTES = 16;

/** A stored value that does not decrypt: another key (MIND_ENCRYPTION_KEY changed), another binding, or damage. */
export class UnreadableCiphertext extends Error {
  constructor() {
    super('the value does not decrypt with this key and binding');
  }
}

/**
 * The service's one cipher for what it must read back in clear (credentials memories, webhook
 * secrets): AES-256-GCM, a fresh random IV per value, and a binding (associated data, such as the
 * row's ids) so a value copied onto another row fails to decrypt instead of revealing a secret
 * there. Stored as base64(iv + tag + ciphertext).
 */
export class Cipher {
  private readonly key: Buffer;

  constructor(hexKey: string) {
    this.key = Buffer.from(hexKey, 'hex');
    if (this.key.length !== 32) throw new Error('The encryption key must be 32 bytes (64 hex characters)');
  }

  /** MIND_ENCRYPTION_KEY, else a key generated once into the data directory. */
  static fromConfig(config: Pick<Config, 'encryptionKey' | 'dataDir'>): Cipher {
    return new Cipher(config.encryptionKey ?? loadOrCreateKeyFile(config.dataDir, 'encryption-key'));
  }

  encrypt(plaintext: string, binding: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(Buffer.from(binding));
    const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return Buffer.concat([iv, cipher.getAuthTag(), ciphertext]).toString('base64');
  }

  /** The plaintext; UnreadableCiphertext when the key, the binding or the bytes are not those it was stored with. */
  decrypt(stored: string, binding: string): string {
    const bytes = Buffer.from(stored, 'base64');
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.key, bytes.subarray(0, IV_BYTES));
      decipher.setAAD(Buffer.from(binding));
      decipher.setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
      return Buffer.concat([decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
    } catch {
      throw new UnreadableCiphertext();
    }
  }
}
