import type { contract } from '@mindservice/contract';
import type { AppContext } from '../core/context.js';
import type { Area } from '../core/area.js';
import { Deliverer } from './delivery.js';
import { Cipher } from '../lib/cipher.js';
import { SecretBox } from './secret-box.js';
import { WebhookSender } from './sender.js';
import { queueDeliveries, WebhooksService } from './service.js';
import { type EnabledWebhook, enabledWebhooksRead } from './store.js';
import { WebhookTargets } from './ssrf.js';
import { DeliveryWorker } from './worker.js';

/** Composition root: the service, the event hook that queues deliveries, and the delivery worker. */
export function webhooksArea(ctx: AppContext): Area<typeof contract.webhooks> {
  const sender = new WebhookSender({
    timeoutMs: ctx.config.webhookTimeoutMs,
    allowPrivate: ctx.config.webhookAllowPrivate,
    targets: WebhookTargets.fromConfig(ctx.config),
  });
  const secrets = new SecretBox(Cipher.fromConfig(ctx.config));
  const deliverer = new Deliverer(ctx, sender, secrets);
  const worker = new DeliveryWorker(ctx, deliverer);
  const webhooks = new WebhooksService(ctx, secrets, deliverer, () => worker.wake());

  // Deliveries are written in the event's own transaction; only events that queued some wake the worker.
  const queued = new WeakSet<object>();
  ctx.events.addHook(async (trx, events, enabled) => {
    for (const event of await queueDeliveries(trx, events, enabled as EnabledWebhook[])) queued.add(event);
  }, enabledWebhooksRead);
  ctx.events.onCommitted((event) => {
    if (queued.delete(event)) worker.wake();
  });

  return {
    start: () => worker.wake(), // rows left pending by a previous run
    async stop() {
      await worker.stop();
      sender.close();
    },
    handlers: {
      createWebhook: async ({ body, caller }) => ({ status: 201, body: await webhooks.create(caller.mindId, body) }),
      listWebhooks: async ({ caller }) => ({ status: 200, body: await webhooks.list(caller.mindId) }),
      getWebhook: async ({ params, caller }) => ({ status: 200, body: await webhooks.get(caller.mindId, params.id) }),
      updateWebhook: async ({ params, body, caller }) => ({ status: 200, body: await webhooks.update(caller.mindId, params.id, body) }),
      enableWebhook: async ({ params, caller }) => ({ status: 200, body: await webhooks.setEnabled(caller.mindId, params.id, true) }),
      disableWebhook: async ({ params, caller }) => ({ status: 200, body: await webhooks.setEnabled(caller.mindId, params.id, false) }),
      testWebhook: async ({ params, caller }) => ({ status: 200, body: await webhooks.test(caller.mindId, params.id) }),
      deleteWebhook: async ({ params, caller }) => {
        await webhooks.delete(caller.mindId, params.id);
        return { status: 204, body: undefined };
      },
      listDeliveries: async ({ params, query, caller }) => ({
        status: 200,
        body: { deliveries: await webhooks.deliveries(caller.mindId, params.id, query.limit) },
      }),
      redeliver: async ({ params, caller }) => ({
        status: 202,
        body: await webhooks.redeliver(caller.mindId, params.id, params.did),
      }),
    },
  };
}
