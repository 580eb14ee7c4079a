import { createHash } from 'node:crypto';
import bcrypt from 'bcryptjs';

// bcrypt reads only the first 72 bytes; hashing first makes every byte of a long password count.
const preHash = (password: string) => createHash('sha256').update(password, 'utf8').digest('base64');

export const hashPassword = (password: string, cost: number) => bcrypt.hash(preHash(password), cost);
export const checkPassword = (password: string, hash: string) => bcrypt.compare(preHash(password), hash);

/** Compared against when the email is unknown, so both failures take the same time. */
let dummyHash: Promise<string> | undefined;
export const dummyPasswordHash = (cost: number) => (dummyHash ??= hashPassword('not-a-real-password', cost));
