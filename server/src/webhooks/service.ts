import {
  type CreateWebhookBody,
  type CreatedWebhook,
  type Delivery,
  ERROR_MESSAGES,
  eventMatches,
  parseEventPatterns,
  type UpdateWebhookBody,
  VALID_EVENT_PATTERNS,
  type Webhook,
  type WebhookTestResult,
} from '@mindservice/contract';
import type { AppContext } from '../core/context.js';
import type { Conn, Trx } from '../db/database.js';
import { lockMind } from '../minds/store.js';
import { isUniqueViolation } from '../db/errors.js';
import type { RecordedEvent } from '../events/recorder.js';
import { ApiError } from '../http/api-error.js';
import { itemsWithinBytes } from '../http/cursor.js';
import { newId } from '../lib/secrets.js';
import type { Deliverer } from './delivery.js';
import type { SecretBox } from './secret-box.js';
import { WebhookTargets } from './ssrf.js';
import { type AttemptRow, type DeliveryRow, findDelivery, insertDeliveries, listAttempts, listDeliveries } from './deliveries-store.js';
import {
  countWebhooks,
  deleteWebhook,
  type EnabledWebhook,
  enabledWebhooksOfMind,
  findWebhook,
  insertWebhook,
  listWebhooks,
  listWebhooksForExport,
  toCreatedWebhook,
  toWebhook,
  updateWebhook,
  type WebhookPatch,
  type WebhookRow,
} from './store.js';

export const MAX_WEBHOOKS_PER_MIND = 20;
export class WebhooksService {
  constructor(
    private readonly ctx: AppContext,
    private readonly secrets: SecretBox,
    private readonly deliverer: Deliverer,
    private readonly wakeWorker: () => void,
  ) {}

  async create(mindId: string, body: CreateWebhookBody): Promise<CreatedWebhook> {
    const row: WebhookRow = {
      id: newId(),
      mind_id: mindId,
      url: normalizeUrl(body.url, 'body.url', WebhookTargets.fromConfig(this.ctx.config)),
      events: normalizeEvents(body.events, 'body.events'),
      secret_encrypted: this.secrets.seal(body.secret),
      enabled: true,
      created_at: this.ctx.clock.now().toISOString(),
      last_call: null,
      last_status: null,
      last_error: null,
    };
    await this.ctx.db
      .transaction(async (trx) => {
        await lockMind(trx, this.ctx.dialect, mindId);
        if ((await countWebhooks(trx, mindId)) >= MAX_WEBHOOKS_PER_MIND) {
          throw ApiError.conflict('webhooks_limit_reached', ERROR_MESSAGES.webhooksLimitReached(MAX_WEBHOOKS_PER_MIND));
        }
        await insertWebhook(trx, row);
      })
      .catch(rethrowDuplicateUrl);
    return toCreatedWebhook(row);
  }

  async list(mindId: string): Promise<Webhook[]> {
    return (await listWebhooks(this.ctx.db, mindId)).map(toWebhook);
  }

  async get(mindId: string, id: string): Promise<Webhook> {
    return toWebhook(await this.require(mindId, id));
  }

  async update(mindId: string, id: string, body: UpdateWebhookBody): Promise<Webhook> {
    const patch: WebhookPatch = {};
    if (body.url !== undefined) patch.url = normalizeUrl(body.url, 'body.url', WebhookTargets.fromConfig(this.ctx.config));
    if (body.events !== undefined) patch.events = normalizeEvents(body.events, 'body.events');
    if (body.secret !== undefined) patch.secret_encrypted = this.secrets.seal(body.secret);
    if (body.enabled !== undefined) patch.enabled = body.enabled;
    const found = await updateWebhook(this.ctx.db, mindId, id, patch).catch(rethrowDuplicateUrl);
    if (!found) throw ApiError.notFound('Webhook');
    return this.get(mindId, id);
  }

  async setEnabled(mindId: string, id: string, enabled: boolean): Promise<Webhook> {
    if (!(await updateWebhook(this.ctx.db, mindId, id, { enabled }))) throw ApiError.notFound('Webhook');
    return this.get(mindId, id);
  }

  async delete(mindId: string, id: string): Promise<void> {
    if (!(await deleteWebhook(this.ctx.db, mindId, id))) throw ApiError.notFound('Webhook');
  }

  async test(mindId: string, id: string): Promise<WebhookTestResult> {
    const webhook = await this.require(mindId, id);
    if (!webhook.enabled) throw ApiError.conflict('webhook_disabled', ERROR_MESSAGES.webhookDisabledForTest);
    const result = await this.deliverer.sendTest(webhook);
    return {
      delivered: result.status !== null && result.status >= 200 && result.status < 300,
      status: result.status,
      error: result.error,
      duration_ms: result.durationMs,
    };
  }

  /** The most recent deliveries, newest first, as many as fit the page's byte bound (at least one). */
  async deliveries(mindId: string, id: string, limit = 50): Promise<Delivery[]> {
    await this.require(mindId, id);
    const rows = await listDeliveries(this.ctx.db, id, limit);
    const attempts = await listAttempts(
      this.ctx.db,
      rows.map((r) => r.id),
    );
    const deliveries = rows.map((row) =>
      toDelivery(
        row,
        attempts.filter((a) => a.delivery_id === row.id),
      ),
    );
    return deliveries.slice(0, itemsWithinBytes(deliveries, this.ctx.config.pageMaxBytes));
  }

  /** Queues the same event again for this webhook, as a new delivery. */
  async redeliver(mindId: string, id: string, deliveryId: string): Promise<Delivery> {
    const webhook = await this.require(mindId, id);
    const original = await findDelivery(this.ctx.db, id, deliveryId);
    if (!original) throw ApiError.notFound('Delivery');
    if (!webhook.enabled) throw ApiError.conflict('webhook_disabled', ERROR_MESSAGES.webhookDisabledForRedelivery);
    const now = this.ctx.clock.now().toISOString();
    const row = pendingDelivery(webhook.id, { id: original.event_id, mindId, type: original.event }, now);
    await insertDeliveries(this.ctx.db, [row]);
    this.wakeWorker();
    return toDelivery(row, []);
  }

  private async require(mindId: string, id: string): Promise<WebhookRow> {
    const webhook = await findWebhook(this.ctx.db, mindId, id);
    if (!webhook) throw ApiError.notFound('Webhook');
    return webhook;
  }
}

/**
 * The event hook, inside the transaction of the change: one pending delivery per event and enabled
 * webhook of the mind whose patterns match, in one insert. Returns the events that queued some.
 */
export async function queueDeliveries(trx: Trx, events: RecordedEvent[], enabled?: EnabledWebhook[]): Promise<RecordedEvent[]> {
  if (events.length === 0) return [];
  const webhooks = enabled ?? (await enabledWebhooksOfMind(trx, (events[0] as RecordedEvent).mindId));
  const queued = events.filter((event) => webhooks.some((w) => eventMatches(w.events, event.type)));
  const rows = queued.flatMap((event) =>
    webhooks
      .filter((w) => eventMatches(w.events, event.type))
      .map((w) => pendingDelivery(w.id, { id: event.id, mindId: event.mindId, type: event.type }, event.createdAt)),
  );
  await insertDeliveries(trx, rows);
  return queued;
}

/**
 * For mind export (transfer/service.ts): the mind's webhooks without secrets, oldest first, in the
 * caller's transaction. A function like queueDeliveries, not a method: it needs none of the
 * service's delivery machinery (secret box, deliverer, worker).
 */
export function webhooksForExport(conn: Conn, mindId: string): Promise<{ url: string; events: string; enabled: boolean }[]> {
  return listWebhooksForExport(conn, mindId);
}

function pendingDelivery(webhookId: string, event: { id: string; mindId: string; type: string }, now: string): DeliveryRow {
  return {
    id: newId(),
    mind_id: event.mindId,
    webhook_id: webhookId,
    event_id: event.id,
    event: event.type,
    status: 'pending',
    attempt_count: 0,
    next_attempt_at: now,
    locked_until: null,
    lock_token: null,
    created_at: now,
  };
}

function toDelivery(row: DeliveryRow, attempts: AttemptRow[]): Delivery {
  return {
    id: row.id,
    event_id: row.event_id,
    event: row.event,
    status: row.status,
    attempt_count: row.attempt_count,
    next_attempt_at: row.status === 'pending' ? row.next_attempt_at : null,
    created_at: row.created_at,
    attempts: attempts.map((a) => ({
      attempt: a.attempt,
      at: a.at,
      status_code: a.status_code,
      error: a.error,
      duration_ms: a.duration_ms,
    })),
  };
}

/**
 * `https://...`, or http for localhost / 127.0.0.1 where allowed, never the service itself (see
 * WebhookTargets); stored in URL-normalised form so duplicates are caught.
 */
function normalizeUrl(text: string, field: string, targets: WebhookTargets): string {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    throw ApiError.invalidField(field, 'must be a URL like https://example.com/hooks');
  }
  const problem = targets.problem(url);
  if (problem) throw ApiError.invalidField(field, problem);
  return url.href;
}

function normalizeEvents(text: string, field: string): string {
  const parsed = parseEventPatterns(text);
  if (!parsed.ok) {
    const names = parsed.unknown.map((u) => `"${u}"`).join(', ');
    throw ApiError.invalidField(field, `unknown event ${names}; valid: ${VALID_EVENT_PATTERNS.join(', ')}`);
  }
  if (!parsed.patterns) throw ApiError.invalidField(field, `must name at least one event; valid: ${VALID_EVENT_PATTERNS.join(', ')}`);
  return parsed.patterns;
}

function rethrowDuplicateUrl(err: unknown): never {
  if (isUniqueViolation(err)) throw ApiError.conflict('webhook_url_taken', ERROR_MESSAGES.webhookUrlTaken);
  throw err;
}
