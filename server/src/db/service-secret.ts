import { randomBytes } from 'node:crypto';
import type { Db } from './database.js';

/**
 * A generated secret kept in the database, for PostgreSQL deployments where several instances
 * (each with its own data directory) must share it. The first instance to start creates it.
 */
export async function loadOrCreateServiceSecret(db: Db, name: string, bytes = 32): Promise<string> {
  const candidate = randomBytes(bytes).toString('hex');
  await db('service_secrets').insert({ name, value: candidate }).onConflict('name').ignore();
  const row = await db('service_secrets').where({ name }).first('value');
  return row.value as string;
}
