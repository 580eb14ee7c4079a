import type { MindKeySummary } from '@mindservice/contract';
import { type Conn, runSql } from '../db/database.js';

export interface KeyRow {
  id: string;
  mind_id: string;
  key_hash: string;
  label: string;
  scope: 'full' | 'read';
  prefix: string | null;
  source: 'api' | 'console' | 'oauth';
  client_name: string | null;
  created_at: string;
  expires_at: string | null;
  last_used_at: string | null;
  revoked_at: string | null;
}

export type NewKey = Omit<KeyRow, 'last_used_at' | 'revoked_at'>;

export async function insertKey(conn: Conn, key: NewKey): Promise<void> {
  await conn<KeyRow>('mind_keys').insert({ ...key, last_used_at: null, revoked_at: null });
}

/** Keys of the mind that still count against its cap: not revoked. */
export async function countLiveKeys(conn: Conn, mindId: string): Promise<number> {
  const row = await conn<KeyRow>('mind_keys')
    .where({ mind_id: mindId })
    .whereNull('revoked_at')
    .count<{ n: number | string }>({ n: '*' })
    .first();
  return Number(row?.n ?? 0);
}

/** The mind's keys that are not revoked, oldest first; never the hash. */
export async function listKeys(conn: Conn, mindId: string): Promise<MindKeySummary[]> {
  const rows = await conn<KeyRow>('mind_keys')
    .where({ mind_id: mindId })
    .whereNull('revoked_at')
    .orderBy([{ column: 'created_at' }, { column: 'id' }])
    .select('id', 'label', 'scope', 'prefix', 'source', 'client_name', 'created_at', 'expires_at', 'last_used_at');
  return rows.map((r) => ({
    id: r.id,
    label: r.label,
    scope: r.scope,
    prefix: r.prefix,
    source: r.source,
    client_name: r.client_name,
    created_at: r.created_at,
    expires_at: r.expires_at,
    last_used_at: r.last_used_at,
  }));
}

/**
 * Marks the key revoked; the row stays, so the key answers `mind_key_revoked` rather than an unknown
 * key's 401. False when the mind has no such key that is not revoked already.
 */
export async function revokeKey(conn: Conn, mindId: string, keyId: string, now: string): Promise<boolean> {
  return (await conn<KeyRow>('mind_keys').where({ id: keyId, mind_id: mindId }).whereNull('revoked_at').update({ revoked_at: now })) > 0;
}

/**
 * Records that the key was used at `now`, unless a use since `since` is recorded already: the
 * condition lets one statement a minute through whatever the number of requests or instances.
 */
export async function touchKey(conn: Conn, keyId: string, now: string, since: string): Promise<void> {
  await runSql(conn, 'UPDATE mind_keys SET last_used_at = ? WHERE id = ? AND (last_used_at IS NULL OR last_used_at < ?)', [
    now,
    keyId,
    since,
  ]);
}

/** Deletes up to `limit` keys of source `console` whose expiry has passed; answers how many went. */
export async function deleteExpiredConsoleKeys(conn: Conn, now: string, limit: number): Promise<number> {
  const expired = conn<KeyRow>('mind_keys').where({ source: 'console' }).where('expires_at', '<=', now).select('id').limit(limit);
  return conn<KeyRow>('mind_keys').whereIn('id', expired).delete();
}
