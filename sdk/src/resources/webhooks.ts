import { ok, param } from '../core/api.js';
import type { RequestOptions } from '../core/options.js';
import { type PagePromise, paginate, singlePage } from '../core/pagination.js';
import type {
  CreatedWebhook,
  CreateWebhookParams,
  Delivery,
  ListDeliveriesParams,
  UpdateWebhookParams,
  Webhook,
  WebhookTestResult,
} from '../types.js';
import { Resource } from './resource.js';

/** Webhooks of the client's mind (Mind Key). Verify deliveries with verifyWebhookSignature. */
export class Webhooks extends Resource {
  /** `events`: comma-separated names, groups (`task.*`) or `*`; `secret` (8+ chars) signs every delivery. */
  async create(params: CreateWebhookParams, options?: RequestOptions): Promise<CreatedWebhook> {
    return ok(this.api.webhooks.createWebhook({ body: params, requestOptions: options }));
  }

  /** Every webhook of the mind, as a single page (the service does not page them). */
  list(options?: RequestOptions): PagePromise<Webhook> {
    return paginate(async () => singlePage(await ok(this.api.webhooks.listWebhooks({ requestOptions: options }))));
  }

  async get(webhookId: string, options?: RequestOptions): Promise<Webhook> {
    return ok(this.api.webhooks.getWebhook({ params: { id: param('webhookId', webhookId) }, requestOptions: options }));
  }

  async update(webhookId: string, params: UpdateWebhookParams, options?: RequestOptions): Promise<Webhook> {
    return ok(this.api.webhooks.updateWebhook({ params: { id: param('webhookId', webhookId) }, body: params, requestOptions: options }));
  }

  async enable(webhookId: string, options?: RequestOptions): Promise<Webhook> {
    return ok(this.api.webhooks.enableWebhook({ params: { id: param('webhookId', webhookId) }, requestOptions: options }));
  }

  async disable(webhookId: string, options?: RequestOptions): Promise<Webhook> {
    return ok(this.api.webhooks.disableWebhook({ params: { id: param('webhookId', webhookId) }, requestOptions: options }));
  }

  /** Sends a `memory.created` test event now and reports the outcome. */
  async test(webhookId: string, options?: RequestOptions): Promise<WebhookTestResult> {
    return ok(this.api.webhooks.testWebhook({ params: { id: param('webhookId', webhookId) }, requestOptions: options }));
  }

  /** Deletes the webhook; the service answers 204, so this resolves with nothing. */
  async delete(webhookId: string, options?: RequestOptions): Promise<void> {
    await ok(this.api.webhooks.deleteWebhook({ params: { id: param('webhookId', webhookId) }, requestOptions: options }));
  }

  /** The `limit` (default 50) most recent deliveries, newest first, each with its attempts: a single page. */
  deliveries(webhookId: string, params: ListDeliveriesParams = {}, options?: RequestOptions): PagePromise<Delivery> {
    return paginate(async () => {
      const path = { id: param('webhookId', webhookId) };
      const body = await ok(this.api.webhooks.listDeliveries({ params: path, query: params, requestOptions: options }));
      return singlePage(body.deliveries);
    });
  }

  /** Queues the delivery's event again for this webhook, as a new delivery. */
  async redeliver(webhookId: string, deliveryId: string, options?: RequestOptions): Promise<Delivery> {
    const params = { id: param('webhookId', webhookId), did: param('deliveryId', deliveryId) };
    return ok(this.api.webhooks.redeliver({ params, requestOptions: options }));
  }
}
