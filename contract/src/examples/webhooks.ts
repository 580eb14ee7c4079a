import { example, notFound, type RouteErrors } from './shared.js';

const DUPLICATE_WEBHOOK_URL = 'A webhook with this url already exists in this mind';

/** The webhooks routes' own causes of their error statuses. */
export const WEBHOOKS_ERRORS: Record<string, RouteErrors> = {
  'webhooks.createWebhook': {
    400: {
      summary: 'A secret shorter than 8 characters',
      body: { url: 'https://example.com/hooks/mind', events: 'task.*', secret: 'short' },
    },
    409: [
      example('The mind has a webhook with this url', 409, DUPLICATE_WEBHOOK_URL),
      example('The mind has 20 webhooks', 409, 'A mind can have at most 20 webhooks; delete one before adding another'),
    ],
  },
  'webhooks.getWebhook': { 404: [notFound('Webhook')] },
  'webhooks.updateWebhook': {
    400: { summary: '`enabled` that is not a boolean', body: { enabled: 'yes' } },
    404: [notFound('Webhook')],
    409: [example('Another webhook of the mind has this url', 409, DUPLICATE_WEBHOOK_URL)],
  },
  'webhooks.enableWebhook': { 404: [notFound('Webhook')] },
  'webhooks.disableWebhook': { 404: [notFound('Webhook')] },
  'webhooks.testWebhook': {
    404: [notFound('Webhook')],
    409: [example('The webhook is disabled', 409, 'The webhook is disabled; enable it before sending a test event')],
  },
  'webhooks.deleteWebhook': { 404: [notFound('Webhook')] },
  'webhooks.listDeliveries': { 400: { summary: 'A limit over 100', query: { limit: '1000' } }, 404: [notFound('Webhook')] },
  'webhooks.redeliver': {
    404: [notFound('Webhook'), notFound('Delivery', 'No such delivery of this webhook')],
    409: [example('The webhook is disabled', 409, 'The webhook is disabled; enable it before redelivering')],
  },
};
