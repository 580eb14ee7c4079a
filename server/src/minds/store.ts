import type { CreatedMind, MindSummary } from '@mindservice/contract';
import { type Conn, type Dialect, runSql } from '../db/database.js';
import { MIND_NOT_DELETED } from './deletions.js';

interface MindRow {
  id: string;
  user_id: string;
  name: string;
  description: string | null;
  key_hash: string;
  created_at: string;
  last_activity: string | null;
  disabled_at: string | null;
  /**
   * Set soon after DELETE /minds/:id (by the request when the row is free, else by the purge), for
   * the lookups of other areas; what decides is the mind's row in `mind_deletions` (see below).
   */
  deleted_at: string | null;
}

export interface MindOwner {
  id: string;
  userId: string;
  disabled: boolean;
}

export async function insertMind(conn: Conn, mind: Omit<CreatedMind, 'mind_key'>, userId: string, keyHash: string) {
  await conn<MindRow>('minds').insert({
    id: mind.id,
    user_id: userId,
    name: mind.name,
    description: mind.description,
    key_hash: keyHash,
    created_at: mind.created_at,
    last_activity: mind.created_at,
    disabled_at: null,
    deleted_at: null,
  });
}

/** Minds the user has (a deleted mind waiting for its purge no longer counts). */
export async function countMindsOfUser(conn: Conn, userId: string): Promise<number> {
  const row = await conn<MindRow>('minds')
    .where({ user_id: userId })
    .whereRaw(MIND_NOT_DELETED)
    .count<{ n: number | string }>({ n: '*' })
    .first();
  return Number(row?.n ?? 0);
}

/** Serialises mind creation per user (the cap is counted, then a row inserted). */
export async function lockUser(conn: Conn, dialect: Dialect, userId: string): Promise<void> {
  await dialect.lockRows(conn('users').where({ id: userId }).first('id'));
}

/** Who a Mind Key names: its mind, and the key's own rules (scope, expiry, revocation) the authenticator applies. */
export interface KeyHolder extends MindOwner {
  keyId: string;
  scope: 'full' | 'read';
  expiresAt: string | null;
  revokedAt: string | null;
  lastUsedAt: string | null;
}

type KeyHolderRow = Pick<MindRow, 'id' | 'user_id' | 'disabled_at'> & {
  key_id: string;
  key_hash: string;
  scope: 'full' | 'read';
  expires_at: string | null;
  revoked_at: string | null;
  last_used_at: string | null;
};

const holderOf = (row: KeyHolderRow): KeyHolder => ({
  id: row.id,
  userId: row.user_id,
  disabled: row.disabled_at !== null,
  keyId: row.key_id,
  scope: row.scope,
  expiresAt: row.expires_at,
  revokedAt: row.revoked_at,
  lastUsedAt: row.last_used_at,
});

/** The key's row and its mind's in one statement (the key by its unique hash, the mind by its primary key). */
const KEY_HOLDER_SELECT = `SELECT k.id AS key_id, k.key_hash, k.scope, k.expires_at, k.revoked_at, k.last_used_at,
  minds.id, minds.user_id, minds.disabled_at FROM mind_keys k JOIN minds ON minds.id = k.mind_id`;

export async function findKeyHolder(conn: Conn, keyHash: string): Promise<KeyHolder | undefined> {
  // Every request with a Mind Key asks: a prepared statement, not knex's query builder.
  const [row] = await runSql<KeyHolderRow>(conn, `${KEY_HOLDER_SELECT} WHERE k.key_hash = ? AND ${MIND_NOT_DELETED}`, [keyHash]);
  return row && holderOf(row);
}

/**
 * The lookup's statement for each list length: a fixed `IN (?, ...)` list, padded with NULLs (which
 * match nothing). PostgreSQL plans such a statement once per connection (its generic plan costs what
 * a custom one does); `key_hash = ANY(array)` kept getting custom plans, and planning took ten times
 * the execution (0.17 against 0.016 ms), on every request's key.
 */
const KEY_LOOKUP_SIZES = [1, 2, 4, 8, 16, 32, 64];
const KEY_LOOKUPS = new Map(
  KEY_LOOKUP_SIZES.map((n) => [n, `${KEY_HOLDER_SELECT} WHERE k.key_hash IN (${Array(n).fill('?').join(', ')}) AND ${MIND_NOT_DELETED}`]),
);

/**
 * The holders of several keys in one statement (PostgreSQL: the key lookups of concurrent requests,
 * batched in app.ts; more than 64 keys take one statement per 64). Keyed by hash; a key of no mind is
 * left out.
 */
export async function findKeyHoldersPostgres(conn: Conn, keyHashes: string[]): Promise<Map<string, KeyHolder>> {
  const found = new Map<string, KeyHolder>();
  const most = KEY_LOOKUP_SIZES.at(-1)!;
  for (let i = 0; i < keyHashes.length; i += most) {
    const keys = keyHashes.slice(i, i + most);
    const size = KEY_LOOKUP_SIZES.find((n) => n >= keys.length)!;
    const padded = [...keys, ...Array<null>(size - keys.length).fill(null)];
    const rows = await runSql<KeyHolderRow>(conn, KEY_LOOKUPS.get(size)!, padded);
    for (const row of rows) found.set(row.key_hash, holderOf(row));
  }
  return found;
}

/** The mind unless it was deleted. */
export async function findMind(conn: Conn, id: string): Promise<MindOwner | undefined> {
  const row = await conn<MindRow>('minds').where({ id }).whereRaw(MIND_NOT_DELETED).first('id', 'user_id', 'disabled_at');
  return row && { id: row.id, userId: row.user_id, disabled: row.disabled_at !== null };
}

/** Memory counts per mind for GET /minds (every category, credentials included); read here, as memories/ imports minds/. */
async function countMemoriesByMind(conn: Conn, mindIds: string[]): Promise<Map<string, number>> {
  if (mindIds.length === 0) return new Map();
  const rows = (await conn('memories').whereIn('mind_id', mindIds).groupBy('mind_id').select('mind_id').count({ n: '*' })) as Array<{
    mind_id: string;
    n: number | string;
  }>;
  return new Map(rows.map((r) => [r.mind_id, Number(r.n)]));
}

/** One page of the user's minds in creation order after `after`; `limit + 1` are read to learn whether more follow. */
export async function listMindsOfUser(
  conn: Conn,
  userId: string,
  page: { limit: number; after?: { createdAt: string; id: string } },
): Promise<{ minds: MindSummary[]; more: boolean }> {
  const query = conn<MindRow>('minds').where({ user_id: userId }).whereRaw(MIND_NOT_DELETED);
  const at = page.after;
  if (at)
    query.where((w) =>
      w.where('created_at', '>', at.createdAt).orWhere((x) => x.where('created_at', at.createdAt).where('id', '>', at.id)),
    );
  const rows = await query
    .orderBy([{ column: 'created_at' }, { column: 'id' }])
    .limit(page.limit + 1)
    .select('id', 'name', 'description', 'created_at', 'last_activity', 'disabled_at');
  const shown = rows.slice(0, page.limit);
  const counts = await countMemoriesByMind(
    conn,
    shown.map((r) => r.id),
  );
  const minds = shown.map((row) => ({
    id: row.id,
    name: row.name,
    description: row.description,
    created_at: row.created_at,
    memory_count: counts.get(row.id) ?? 0,
    last_activity: row.last_activity,
    disabled: row.disabled_at !== null,
  }));
  return { minds, more: rows.length > page.limit };
}

/**
 * Deletes the mind for the API at once, in one statement that waits for no writer of the mind: its
 * row in `mind_deletions`. False when it was deleted already (a concurrent DELETE).
 */
export async function insertMindDeletion(conn: Conn, id: string, now: string): Promise<boolean> {
  const rows = await runSql(
    conn,
    'INSERT INTO mind_deletions (mind_id, deleted_at) VALUES (?, ?) ON CONFLICT (mind_id) DO NOTHING RETURNING mind_id',
    [id, now],
  );
  return rows.length > 0;
}

/**
 * Marks a deleted mind's own row for the lookups of other areas (which read `minds.deleted_at` and
 * `disabled_at`): disabled and marked, its webhooks (at most 20) disabled so the delivery worker
 * sends nothing more, its computers (capped per mind) disabled so their tokens are refused. The key
 * hash stays: changing a unique column would lock the row against every foreign key check of the
 * mind's writers; the key lookup reads `mind_deletions` instead. Waits for the writers holding the
 * row: the request tries it briefly, the purge for as long as it takes.
 */
export async function markMindRowDeleted(conn: Conn, id: string, deletedAt: string): Promise<void> {
  const changed = await conn('minds')
    .where({ id })
    .whereNull('deleted_at')
    .update({ deleted_at: deletedAt, disabled_at: conn.raw('COALESCE(disabled_at, ?)', [deletedAt]) });
  if (changed > 0) {
    await conn('webhooks').where({ mind_id: id }).update({ enabled: false });
    await conn('computers').where({ mind_id: id, status: 'active' }).update({ status: 'disabled', disabled_at: deletedAt });
  }
}

/** What DELETE /minds/:id commits, all of it, waiting as long as needed (tests, and the purge's start). */
export async function markMindDeleted(conn: Conn, id: string, now: string): Promise<boolean> {
  return conn.transaction(async (trx) => {
    const inserted = await insertMindDeletion(trx, id, now);
    if (inserted) await markMindRowDeleted(trx, id, now);
    return inserted;
  });
}

/** Deleted minds whose rows are still being removed, oldest deletion first. */
export async function mindsToPurge(conn: Conn, limit: number): Promise<Array<{ id: string; deletedAt: string }>> {
  const rows = await conn('mind_deletions').orderBy('deleted_at').limit(limit).select('mind_id', 'deleted_at');
  return rows.map((r: { mind_id: string; deleted_at: string }) => ({ id: r.mind_id, deletedAt: r.deleted_at }));
}

/**
 * Removes the last row of a purged mind and its deletion mark together. ON DELETE CASCADE still takes
 * whatever the chunks did not (rows written by a request that was running when the mind was
 * deleted, tables added later).
 */
export async function deleteMindRow(conn: Conn, id: string): Promise<void> {
  await conn.transaction(async (trx) => {
    await trx('minds').where({ id }).delete();
    await trx('mind_deletions').where({ mind_id: id }).delete();
  });
}

export async function setMindDisabled(conn: Conn, id: string, disabledAt: string | null): Promise<boolean> {
  return (await conn('minds').where({ id }).whereRaw(MIND_NOT_DELETED).update({ disabled_at: disabledAt })) > 0;
}

/**
 * Serialises writers that must see the whole mind as it is (an import, the webhook count) by locking
 * the mind's row until the transaction ends (SQLite: its one writer connection already serialises
 * transactions).
 */
export async function lockMind(conn: Conn, dialect: Dialect, mindId: string): Promise<void> {
  await dialect.lockRows(conn('minds').where({ id: mindId }).first('id'));
}
