import { createHash, randomBytes, randomUUID } from 'node:crypto';

export const newId = () => randomUUID();

/** A credential with a recognisable prefix and 32 random bytes; only its hash is ever stored. */
export const newToken = (prefix: 'mk_' | 'ct_') => `${prefix}${randomBytes(32).toString('base64url')}`;

export const sha256Hex = (value: string) => createHash('sha256').update(value).digest('hex');
