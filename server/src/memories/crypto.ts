import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { Config } from '../lib/config.js';
import { ApiError } from '../http/api-error.js';
import { loadOrCreateKeyFile } from '../lib/keyfile.js';

const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * AES-256-GCM for `credentials` memories. Each value gets a fresh random IV and is bound to its
 * memory (mind id + memory id as associated data), so a ciphertext copied onto another row fails
 * to decrypt instead of revealing a secret there. Stored as base64(iv + tag + ciphertext).
 */
export class ContentCipher {
  private readonly key: Buffer;

  constructor(hexKey: string) {
    this.key = Buffer.from(hexKey, 'hex');
    if (this.key.length !== 32) throw new Error('The encryption key must be 32 bytes (64 hex characters)');
  }

  /** MIND_ENCRYPTION_KEY, else a key generated once into the data directory. */
  static fromConfig(config: Config): ContentCipher {
    return new ContentCipher(config.encryptionKey ?? loadOrCreateKeyFile(config.dataDir, 'encryption-key'));
  }

  encrypt(plaintext: string, binding: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(Buffer.from(binding));
    const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return Buffer.concat([iv, cipher.getAuthTag(), ciphertext]).toString('base64');
  }

  decrypt(stored: string, binding: string): string {
    const bytes = Buffer.from(stored, 'base64');
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.key, bytes.subarray(0, IV_BYTES));
      decipher.setAAD(Buffer.from(binding));
      decipher.setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
      return Buffer.concat([decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
    } catch {
      // Only a changed MIND_ENCRYPTION_KEY (or a damaged row) gets here; say so without details.
      throw new ApiError(500, "A credentials memory cannot be decrypted: the server's encryption key has changed since it was stored.", {
        code: 'encryption_key_changed',
      });
    }
  }
}

export const cipherBinding = (mindId: string, memoryId: string) => `${mindId}:${memoryId}`;
