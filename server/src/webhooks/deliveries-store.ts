import type { Conn, Dialect } from '../db/database.js';
import { newId } from '../lib/secrets.js';
import { recordWebhookOutcome } from './store.js';

// Deliveries (one row per event and webhook) and their attempts: what the worker claims, sends and settles.

export type DeliveryStatus = 'pending' | 'succeeded' | 'failed';

export interface DeliveryRow {
  id: string;
  mind_id: string;
  webhook_id: string;
  event_id: string;
  event: string;
  status: DeliveryStatus;
  attempt_count: number;
  next_attempt_at: string | null;
  locked_until: string | null;
  lock_token: string | null;
  created_at: string;
}

export interface AttemptRow {
  id: string;
  mind_id: string;
  delivery_id: string;
  attempt: number;
  at: string;
  status_code: number | null;
  error: string | null;
  duration_ms: number;
}

/** A claimed delivery with everything needed to send it. */
export interface ClaimedDelivery {
  id: string;
  mind_id: string;
  webhook_id: string;
  event_id: string;
  event: string;
  attempt_count: number;
  url: string;
  secret_encrypted: string;
  enabled: boolean;
  event_data: string;
  event_created_at: string;
}

const DELIVERY_COLUMNS = [
  'id',
  'mind_id',
  'webhook_id',
  'event_id',
  'event',
  'status',
  'attempt_count',
  'next_attempt_at',
  'locked_until',
  'lock_token',
  'created_at',
];

export async function insertDeliveries(conn: Conn, rows: DeliveryRow[]): Promise<void> {
  if (rows.length) await conn<DeliveryRow>('webhook_deliveries').insert(rows);
}

const claimable = (now: string) => (q: import('knex').Knex.QueryBuilder) =>
  q
    .where('status', 'pending')
    .where('next_attempt_at', '<=', now)
    .where((w) => w.whereNull('locked_until').orWhere('locked_until', '<', now));

/**
 * Claims up to `limit` due deliveries with a lease, then reads back what this token holds. One
 * UPDATE over the due rows; where several instances share the database they are taken `FOR UPDATE
 * SKIP LOCKED`, so each delivery is claimed by one instance and rows another instance is claiming
 * right now are skipped, not waited for.
 */
export async function claimDueDeliveries(
  conn: Conn,
  dialect: Dialect,
  claim: { now: string; leaseUntil: string; token: string; limit: number },
): Promise<ClaimedDelivery[]> {
  const due = conn('webhook_deliveries').modify(claimable(claim.now)).orderBy('next_attempt_at').limit(claim.limit).select('id');
  const claimed = await conn('webhook_deliveries')
    .whereIn('id', dialect.forUpdateSkipLocked(due))
    .update({ locked_until: claim.leaseUntil, lock_token: claim.token });
  if (claimed === 0) return [];
  const rows = await conn('webhook_deliveries as d')
    .join('webhooks as w', 'w.id', 'd.webhook_id')
    .join('events as e', 'e.id', 'd.event_id')
    .where('d.lock_token', claim.token)
    .select(
      'd.id',
      'd.mind_id',
      'd.webhook_id',
      'd.event_id',
      'd.event',
      'd.attempt_count',
      'w.url',
      'w.secret_encrypted',
      'w.enabled',
      'e.data as event_data',
      'e.created_at as event_created_at',
    );
  return rows.map((r) => ({ ...r, enabled: Boolean(r.enabled) }));
}

/** When the earliest claimable row is due (rows held by a live claim are not counted). */
export async function nextDueAt(conn: Conn, now: string): Promise<string | null> {
  const row = await conn('webhook_deliveries')
    .where('status', 'pending')
    .where((w) => w.whereNull('locked_until').orWhere('locked_until', '<', now))
    .min<{ at: string | null }>({ at: 'next_attempt_at' })
    .first();
  return row?.at ?? null;
}

/** The result of one attempt of a claimed delivery, to be recorded. */
export interface AttemptRecord {
  deliveryId: string;
  /** The claim the attempt was made under. */
  token: string;
  mindId: string;
  webhookId: string;
  updateWebhook: boolean;
  disableWebhook: boolean;
  attempt: number;
  at: string;
  statusCode: number | null;
  error: string | null;
  durationMs: number;
  /** The delivery's next state. */
  status: DeliveryStatus;
  nextAttemptAt: string | null;
}

/**
 * Records attempts (call inside a transaction): each delivery still held by its claim moves to its
 * next state and gets an attempt row; each webhook gets the outcome of its latest attempt. A claim
 * that was lost (webhook deleted, lease run out and taken over) records nothing.
 */
export async function settleAttempts(conn: Conn, records: AttemptRecord[]): Promise<AttemptRecord[]> {
  const current = await conn('webhook_deliveries')
    .whereIn(
      'id',
      records.map((r) => r.deliveryId),
    )
    .select<{ id: string; lock_token: string | null }[]>('id', 'lock_token');
  const tokenOf = new Map(current.map((row) => [row.id, row.lock_token]));
  const held = records.filter((r) => tokenOf.get(r.deliveryId) === r.token);
  if (held.length === 0) return held;

  // Deliveries moving to the same state are one UPDATE (under load: all the successes of a batch).
  const groups = new Map<string, AttemptRecord[]>();
  for (const r of held) {
    const key = `${r.status}|${r.attempt}|${r.nextAttemptAt}`;
    groups.set(key, [...(groups.get(key) ?? []), r]);
  }
  for (const group of groups.values()) {
    const { status, attempt, nextAttemptAt } = group[0]!;
    await conn('webhook_deliveries')
      .whereIn(
        'id',
        group.map((r) => r.deliveryId),
      )
      .whereIn(
        'lock_token',
        group.map((r) => r.token),
      )
      .update({ status, attempt_count: attempt, next_attempt_at: nextAttemptAt, locked_until: null, lock_token: null });
  }
  await conn<AttemptRow>('webhook_attempts').insert(
    held.map((r) => ({
      id: newId(),
      mind_id: r.mindId,
      delivery_id: r.deliveryId,
      attempt: r.attempt,
      at: r.at,
      status_code: r.statusCode,
      error: r.error,
      duration_ms: r.durationMs,
    })),
  );
  // Each webhook gets its latest outcome; webhooks with the same outcome are one UPDATE. last_call is
  // shown in seconds, so the latest attempt time of the group stands for all of them.
  const latest = new Map<string, AttemptRecord>();
  const disable = new Set<string>();
  for (const r of held.filter((h) => h.updateWebhook)) {
    latest.set(r.webhookId, r);
    if (r.disableWebhook) disable.add(r.webhookId);
  }
  const outcomes = new Map<string, { at: string; status: number | null; error: string | null; disable: boolean; ids: string[] }>();
  for (const [webhookId, r] of latest) {
    const key = JSON.stringify([r.statusCode, r.error, disable.has(webhookId)]);
    const group = outcomes.get(key) ?? { at: r.at, status: r.statusCode, error: r.error, disable: disable.has(webhookId), ids: [] };
    if (r.at > group.at) group.at = r.at;
    group.ids.push(webhookId);
    outcomes.set(key, group);
  }
  for (const { ids, ...outcome } of outcomes.values()) await recordWebhookOutcome(conn, ids, outcome);
  return held;
}

/** Gives a claim back without counting an attempt (shutdown): the row is due again at once. */
export async function releaseClaim(conn: Conn, id: string, token: string): Promise<void> {
  await conn('webhook_deliveries').where({ id, lock_token: token }).update({ locked_until: null, lock_token: null });
}

export async function findDelivery(conn: Conn, webhookId: string, id: string): Promise<DeliveryRow | undefined> {
  return conn<DeliveryRow>('webhook_deliveries').where({ id, webhook_id: webhookId }).first(DELIVERY_COLUMNS);
}

export async function listDeliveries(conn: Conn, webhookId: string, limit: number): Promise<DeliveryRow[]> {
  return conn<DeliveryRow>('webhook_deliveries')
    .where({ webhook_id: webhookId })
    .orderBy([
      { column: 'created_at', order: 'desc' },
      { column: 'id', order: 'desc' },
    ])
    .limit(limit)
    .select(DELIVERY_COLUMNS);
}

export async function listAttempts(conn: Conn, deliveryIds: string[]): Promise<AttemptRow[]> {
  if (deliveryIds.length === 0) return [];
  return conn<AttemptRow>('webhook_attempts')
    .whereIn('delivery_id', deliveryIds)
    .orderBy([{ column: 'delivery_id' }, { column: 'attempt' }])
    .select('id', 'mind_id', 'delivery_id', 'attempt', 'at', 'status_code', 'error', 'duration_ms');
}

/** The reason a delivery failed without being sent because too many were pending for its webhook. */
export const dropReason = (max: number) =>
  `not sent: more than ${max} deliveries were pending for this webhook (MIND_MAX_PENDING_DELIVERIES_PER_WEBHOOK); the oldest were dropped`;

/**
 * Keeps at most `keep` pending deliveries of a webhook (not counting those claimed right now): the
 * older ones fail without being sent, each with an attempt saying why (redeliver brings one back),
 * at most `chunk` per call; returns how many. The walk is over the partial index of pending rows
 * (`webhook_deliveries_pending`, so the literal `status = 'pending'`: a bound parameter would not
 * let SQLite use it), newest first, skipping `keep` entries: cheap when under the cap.
 */
export async function failExcessPending(conn: Conn, webhookId: string, keep: number, now: string, chunk: number): Promise<number> {
  const unclaimed = (q: import('knex').Knex.QueryBuilder) => q.where((w) => w.whereNull('locked_until').orWhere('locked_until', '<', now));
  const rows = await conn('webhook_deliveries')
    .where('webhook_id', webhookId)
    .whereRaw("status = 'pending'")
    .modify(unclaimed)
    .orderBy([
      { column: 'created_at', order: 'desc' },
      { column: 'id', order: 'desc' },
    ])
    .offset(keep)
    .limit(chunk)
    .select<{ id: string; mind_id: string; attempt_count: number }[]>('id', 'mind_id', 'attempt_count');
  if (rows.length === 0) return 0;
  const error = dropReason(keep);
  return conn.transaction(async (trx) => {
    const ids = rows.map((r) => r.id);
    const failed = new Set<string>(
      await trx('webhook_deliveries').whereIn('id', ids).whereRaw("status = 'pending'").modify(unclaimed).pluck('id'),
    );
    if (failed.size === 0) return 0;
    await trx('webhook_deliveries')
      .whereIn('id', [...failed])
      .update({ status: 'failed', next_attempt_at: null, locked_until: null, lock_token: null });
    await trx<AttemptRow>('webhook_attempts').insert(
      rows
        .filter((r) => failed.has(r.id))
        .map((r) => ({
          id: newId(),
          mind_id: r.mind_id,
          delivery_id: r.id,
          attempt: Number(r.attempt_count) + 1,
          at: now,
          status_code: null,
          error,
          duration_ms: 0,
        })),
    );
    return failed.size;
  });
}
