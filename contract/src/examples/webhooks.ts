import { ERROR_MESSAGES } from '../errors/messages.js';
import { example, notFound, type RouteErrors } from './shared.js';

const URL_TAKEN = example('The mind has a webhook with this url', 'webhook_url_taken', ERROR_MESSAGES.webhookUrlTaken);

/** The webhooks routes' own causes of their error statuses. */
export const WEBHOOKS_ERRORS: Record<string, RouteErrors> = {
  'webhooks.createWebhook': {
    400: {
      summary: 'A secret shorter than 8 characters',
      body: { url: 'https://example.com/hooks/mind', events: 'task.*', secret: 'short' },
    },
    409: [URL_TAKEN, example('The mind has 20 webhooks', 'webhooks_limit_reached', ERROR_MESSAGES.webhooksLimitReached(20))],
  },
  'webhooks.getWebhook': { 404: [notFound('Webhook')] },
  'webhooks.updateWebhook': {
    400: { summary: '`enabled` that is not a boolean', body: { enabled: 'yes' } },
    404: [notFound('Webhook')],
    409: [{ ...URL_TAKEN, summary: 'Another webhook of the mind has this url' }],
  },
  'webhooks.enableWebhook': { 404: [notFound('Webhook')] },
  'webhooks.disableWebhook': { 404: [notFound('Webhook')] },
  'webhooks.testWebhook': {
    404: [notFound('Webhook')],
    409: [example('The webhook is disabled', 'webhook_disabled', ERROR_MESSAGES.webhookDisabledForTest)],
  },
  'webhooks.deleteWebhook': { 404: [notFound('Webhook')] },
  'webhooks.listDeliveries': { 400: { summary: 'A limit over 100', query: { limit: '1000' } }, 404: [notFound('Webhook')] },
  'webhooks.redeliver': {
    404: [notFound('Webhook'), notFound('Delivery', 'No such delivery of this webhook')],
    409: [example('The webhook is disabled', 'webhook_disabled', ERROR_MESSAGES.webhookDisabledForRedelivery)],
  },
};
