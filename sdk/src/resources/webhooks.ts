import { ok, param } from '../core/api.js';
import type { RequestOptions } from '../core/options.js';
import type { CreatedWebhook, CreateWebhookParams, Delivery, UpdateWebhookParams, Webhook, WebhookTestResult } from '../types.js';
import { Resource } from './resource.js';

/** Webhooks of the client's mind (Mind Key). Verify deliveries with verifyWebhookSignature. */
export class Webhooks extends Resource {
  /** `events`: comma-separated names, groups (`task.*`) or `*`; `secret` (8+ chars) signs every delivery. */
  async create(params: CreateWebhookParams, options?: RequestOptions): Promise<CreatedWebhook> {
    return ok(this.api.webhooks.createWebhook({ body: params, requestOptions: options }));
  }

  async list(options?: RequestOptions): Promise<Webhook[]> {
    return ok(this.api.webhooks.listWebhooks({ requestOptions: options }));
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

  async delete(webhookId: string, options?: RequestOptions): Promise<void> {
    await ok(this.api.webhooks.deleteWebhook({ params: { id: param('webhookId', webhookId) }, requestOptions: options }));
  }

  /** Recent deliveries, newest first, each with its attempts. */
  async deliveries(webhookId: string, params: { limit?: number } = {}, options?: RequestOptions): Promise<Delivery[]> {
    const body = await ok(
      this.api.webhooks.listDeliveries({ params: { id: param('webhookId', webhookId) }, query: params, requestOptions: options }),
    );
    return body.deliveries;
  }

  /** Queues the delivery's event again for this webhook, as a new delivery. */
  async redeliver(webhookId: string, deliveryId: string, options?: RequestOptions): Promise<Delivery> {
    const params = { id: param('webhookId', webhookId), did: param('deliveryId', deliveryId) };
    return ok(this.api.webhooks.redeliver({ params, requestOptions: options }));
  }
}
