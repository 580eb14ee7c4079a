import type { CreatedWebhook, Webhook } from '@mindservice/contract';
import { type Conn, runSql } from '../db/database.js';
import type { EventRead } from '../events/recorder.js';

export interface WebhookRow {
  id: string;
  mind_id: string;
  url: string;
  events: string;
  secret_encrypted: string;
  enabled: boolean | number;
  created_at: string;
  last_call: string | null;
  last_status: number | null;
  last_error: string | null;
}

const WEBHOOK_COLUMNS = [
  'id',
  'mind_id',
  'url',
  'events',
  'secret_encrypted',
  'enabled',
  'created_at',
  'last_call',
  'last_status',
  'last_error',
];

const unixSeconds = (iso: string) => Math.floor(Date.parse(iso) / 1000);

export function toCreatedWebhook(row: WebhookRow): CreatedWebhook {
  return {
    id: row.id,
    url: row.url,
    events: row.events,
    mind_id: row.mind_id,
    enabled: Boolean(row.enabled),
    created_at: unixSeconds(row.created_at),
  };
}

export function toWebhook(row: WebhookRow): Webhook {
  return {
    ...toCreatedWebhook(row),
    last_call: row.last_call ? unixSeconds(row.last_call) : null,
    last_status: row.last_status,
    last_error: row.last_error,
  };
}

// ---- webhooks -------------------------------------------------------------------------------

/** Serialises webhook creation per mind on PostgreSQL, so two concurrent creates cannot make a 21st. */
export async function countWebhooks(conn: Conn, mindId: string): Promise<number> {
  const row = await conn('webhooks').where({ mind_id: mindId }).count<{ n: number | string }[]>({ n: '*' }).first();
  return Number(row?.n ?? 0);
}

export async function insertWebhook(conn: Conn, row: WebhookRow): Promise<void> {
  await conn<WebhookRow>('webhooks').insert(row);
}

export async function findWebhook(conn: Conn, mindId: string, id: string): Promise<WebhookRow | undefined> {
  return conn<WebhookRow>('webhooks').where({ id, mind_id: mindId }).first(WEBHOOK_COLUMNS);
}

export async function listWebhooks(conn: Conn, mindId: string): Promise<WebhookRow[]> {
  return conn<WebhookRow>('webhooks')
    .where({ mind_id: mindId })
    .orderBy([{ column: 'created_at' }, { column: 'id' }])
    .select(WEBHOOK_COLUMNS);
}

export type WebhookPatch = Partial<Pick<WebhookRow, 'url' | 'events' | 'secret_encrypted' | 'enabled'>>;

export async function updateWebhook(conn: Conn, mindId: string, id: string, patch: WebhookPatch): Promise<boolean> {
  if (Object.keys(patch).length === 0) return Boolean(await findWebhook(conn, mindId, id));
  return (await conn('webhooks').where({ id, mind_id: mindId }).update(patch)) > 0;
}

export async function deleteWebhook(conn: Conn, mindId: string, id: string): Promise<boolean> {
  return (await conn('webhooks').where({ id, mind_id: mindId }).delete()) > 0;
}

/** For the mind export: the configuration without the secret. */
export async function listWebhooksForExport(conn: Conn, mindId: string): Promise<{ url: string; events: string; enabled: boolean }[]> {
  const rows = await conn<WebhookRow>('webhooks')
    .where({ mind_id: mindId })
    .orderBy([{ column: 'created_at' }, { column: 'id' }])
    .select('url', 'events', 'enabled');
  return rows.map((r) => ({ url: r.url, events: r.events, enabled: Boolean(r.enabled) }));
}

export type EnabledWebhook = { id: string; events: string };

/**
 * The mind's enabled webhooks, read for every event recorded: a prepared statement, not knex's query
 * builder, and on PostgreSQL part of the event's own insert (events/recorder.ts EventRead).
 */
export const enabledWebhooksRead: EventRead = {
  sql: 'SELECT id, events FROM webhooks WHERE mind_id = ? AND enabled = ?',
  bindings: (mindId) => [mindId, true],
};

export function enabledWebhooksOfMind(conn: Conn, mindId: string): Promise<EnabledWebhook[]> {
  return runSql(conn, enabledWebhooksRead.sql, enabledWebhooksRead.bindings(mindId));
}

export async function recordWebhookOutcome(
  conn: Conn,
  ids: string | string[],
  outcome: { at: string; status: number | null; error: string | null; disable: boolean },
): Promise<void> {
  await conn('webhooks')
    .whereIn('id', typeof ids === 'string' ? [ids] : ids)
    .update({
      last_call: outcome.at,
      last_status: outcome.status,
      last_error: outcome.error,
      ...(outcome.disable ? { enabled: false } : {}),
    });
}
