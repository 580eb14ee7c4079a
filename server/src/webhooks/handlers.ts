import type { contract } from '@mindservice/contract';
import type { AppContext } from '../context.js';
import { mindCaller } from '../http/caller.js';
import type { RouterImpl } from '../http/router.js';
import { Deliverer } from './delivery.js';
import { SecretBox } from './secret-box.js';
import { WebhookSender } from './sender.js';
import { queueDeliveries, WebhooksService } from './service.js';
import { WebhookTargets } from './ssrf.js';
import { DeliveryWorker } from './worker.js';

/** Composition root: the service, the event hook that queues deliveries, and the delivery worker. */
export function webhooksHandlers(ctx: AppContext): RouterImpl<typeof contract.webhooks> {
  const sender = new WebhookSender({
    timeoutMs: ctx.config.webhookTimeoutMs,
    allowPrivate: ctx.config.webhookAllowPrivate,
    targets: WebhookTargets.fromConfig(ctx.config),
  });
  const secrets = SecretBox.fromConfig(ctx.config);
  const deliverer = new Deliverer(ctx, sender, secrets);
  const worker = new DeliveryWorker(ctx, deliverer);
  const webhooks = new WebhooksService(ctx, secrets, deliverer, () => worker.wake());

  // Deliveries are written in the event's own transaction; only events that queued some wake the worker.
  const queued = new WeakSet<object>();
  ctx.events.addHook(async (trx, event) => {
    if ((await queueDeliveries(trx, event)) > 0) queued.add(event);
  });
  ctx.events.onCommitted((event) => {
    if (queued.delete(event)) worker.wake();
  });
  worker.wake(); // rows left pending by a previous run
  ctx.onClose(async () => {
    await worker.stop();
    sender.close();
  });

  return {
    createWebhook: async ({ body, req }) => ({ status: 201, body: await webhooks.create(mindCaller(req).mindId, body) }),
    listWebhooks: async ({ req }) => ({ status: 200, body: await webhooks.list(mindCaller(req).mindId) }),
    getWebhook: async ({ params, req }) => ({ status: 200, body: await webhooks.get(mindCaller(req).mindId, params.id) }),
    updateWebhook: async ({ params, body, req }) => ({ status: 200, body: await webhooks.update(mindCaller(req).mindId, params.id, body) }),
    enableWebhook: async ({ params, req }) => ({ status: 200, body: await webhooks.setEnabled(mindCaller(req).mindId, params.id, true) }),
    disableWebhook: async ({ params, req }) => ({ status: 200, body: await webhooks.setEnabled(mindCaller(req).mindId, params.id, false) }),
    testWebhook: async ({ params, req }) => ({ status: 200, body: await webhooks.test(mindCaller(req).mindId, params.id) }),
    deleteWebhook: async ({ params, req }) => {
      await webhooks.delete(mindCaller(req).mindId, params.id);
      return { status: 204, body: undefined };
    },
    listDeliveries: async ({ params, query, req }) => ({
      status: 200,
      body: { deliveries: await webhooks.deliveries(mindCaller(req).mindId, params.id, query.limit) },
    }),
    redeliver: async ({ params, req }) => ({
      status: 202,
      body: await webhooks.redeliver(mindCaller(req).mindId, params.id, params.did),
    }),
  };
}
