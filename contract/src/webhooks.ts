import {
  atLeastOneOf,
  bodyErrors,
  c,
  errors,
  Id,
  meta,
  mindKeyErrors,
  NullableTimestamp,
  QueryInteger,
  routerOptions,
  Timestamp,
  PAGE_BYTES,
} from './common.js';
import { DEPRECATED_EVENT_NAMES, VALID_EVENT_PATTERNS } from './events.js';
import { NOT_NUL, NOT_SPACE_OR, SPACE, SPACE_OR } from './patterns.js';
import { z } from './zod.js';

/** `https://...`, or `http://localhost` / `http://127.0.0.1` with any port (the scheme in any case). */
const PORT = '(?:[0-9]{1,4}|[1-5][0-9]{4}|6[0-4][0-9]{3}|65[0-4][0-9][0-9]|655[0-2][0-9]|6553[0-5])';
const WEBHOOK_URL =
  `^${SPACE}*(?:[Hh][Tt][Tt][Pp][Ss]://${NOT_SPACE_OR('/?#')}${NOT_NUL}*` +
  `|[Hh][Tt][Tt][Pp]://(?:[Ll][Oo][Cc][Aa][Ll][Hh][Oo][Ss][Tt]|127\\.0\\.0\\.1)(?::${PORT})?(?:[/?#]${NOT_NUL}*|${SPACE}*))$`;
const Url = z
  .string()
  .trim()
  .max(2000)
  .url()
  // The scheme rule is the service's (its messages); the document states it as a pattern.
  .openapi({
    pattern: WEBHOOK_URL,
    description:
      "`https://...`, or `http://localhost` / `http://127.0.0.1` (any port) for development. Also refused (400): the service's own address, and `http://localhost` unless the server listens on loopback only or MIND_WEBHOOK_ALLOW_LOCALHOST is set.",
    example: 'https://example.com/hooks/mind',
  });

const escapeRegex = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const EVENT_NAME = `(?:${[...VALID_EVENT_PATTERNS, ...Object.keys(DEPRECATED_EVENT_NAMES)].map(escapeRegex).join('|')})`;
/** Comma-separated valid names (white space around them and empty entries are ignored), at least one. */
const SPACE_OR_COMMA = SPACE_OR(',');
const EVENTS = `^${SPACE_OR_COMMA}*${EVENT_NAME}(?:${SPACE}*,${SPACE_OR_COMMA}*${EVENT_NAME})*${SPACE_OR_COMMA}*$`;
const Events = z
  .string()
  .trim()
  .max(2000)
  // The service reads the list (parseEventPatterns: its messages name the unknown names); the document states it as a pattern.
  .openapi({
    pattern: EVENTS,
    description: `Comma-separated patterns: exact names, groups or \`*\`. Valid: ${VALID_EVENT_PATTERNS.join(', ')}.`,
    example: 'task.*,memory.created',
  });
const Secret = z
  .string()
  .min(8, 'must be at least 8 characters')
  .max(500)
  .openapi({ description: 'Write-only; signs every delivery (HMAC-SHA256). Never returned.', example: 'whsec-example-secret' });

const WebhookBase = {
  id: Id('Webhook'),
  url: z.string().openapi({ example: 'https://example.com/hooks/mind' }),
  events: z.string().openapi({ description: 'Normalised comma-separated patterns.', example: 'task.*,memory.created' }),
  mind_id: Id('Mind'),
  enabled: z.boolean().openapi({ description: 'Only enabled webhooks receive events.', example: true }),
  created_at: z.number().int().openapi({ description: 'Unix timestamp in seconds.', example: 1795311582 }),
};

export const CreatedWebhook = z.object(WebhookBase).openapi('CreatedWebhook');
export type CreatedWebhook = z.infer<typeof CreatedWebhook>;
export const Webhook = z
  .object({
    ...WebhookBase,
    last_call: z.number().int().nullable().openapi({ description: 'Unix seconds of the last delivery attempt.', example: 1795315200 }),
    last_status: z
      .number()
      .int()
      .nullable()
      .openapi({ description: 'HTTP status of the last attempt (null on a network error).', example: 200 }),
    last_error: z.string().nullable().openapi({ description: 'Error of the last attempt, null when it succeeded.', example: null }),
  })
  .openapi('Webhook');
export type Webhook = z.infer<typeof Webhook>;

export const CreateWebhookBody = z.object({ url: Url, events: Events, secret: Secret }).openapi('CreateWebhookBody');
export type CreateWebhookBody = z.infer<typeof CreateWebhookBody>;
export const UpdateWebhookBody = atLeastOneOf(
  z.object({
    url: Url.optional(),
    events: Events.optional(),
    secret: Secret.optional(),
    enabled: z.boolean().optional().openapi({ example: true }),
  }),
).openapi('UpdateWebhookBody', {
  description: 'Only the fields given change (at least one); unknown fields are ignored.',
  example: { events: 'task.*,chat.*', enabled: true },
});
export type UpdateWebhookBody = z.infer<typeof UpdateWebhookBody>;

export const WebhookTestResult = z
  .object({
    delivered: z.boolean().openapi({ description: 'The URL answered 2xx.', example: true }),
    status: z
      .number()
      .int()
      .nullable()
      .openapi({ description: 'HTTP status of the answer; null on a network error or timeout.', example: 200 }),
    error: z.string().nullable().openapi({ description: 'Why it was not delivered; null when it was.', example: null }),
    duration_ms: z.number().int().openapi({ example: 184 }),
  })
  .openapi('WebhookTestResult');
export type WebhookTestResult = z.infer<typeof WebhookTestResult>;

export const DeliveryAttempt = z
  .object({
    attempt: z.number().int().openapi({ description: 'Counts from 1.', example: 1 }),
    at: Timestamp('When the attempt was made'),
    status_code: z
      .number()
      .int()
      .nullable()
      .openapi({ description: 'HTTP status of the answer; null on a network error or timeout.', example: 200 }),
    error: z.string().nullable().openapi({ description: 'Why the attempt failed; null when it succeeded.', example: null }),
    duration_ms: z.number().int().openapi({ example: 184 }),
  })
  .openapi('DeliveryAttempt');
export type DeliveryAttempt = z.infer<typeof DeliveryAttempt>;

export const Delivery = z
  .object({
    id: Id('Delivery'),
    event_id: Id('Event'),
    event: z.string().openapi({ example: 'task.created' }),
    status: z.enum(['pending', 'succeeded', 'failed']).openapi({ example: 'succeeded' }),
    attempt_count: z.number().int().openapi({ example: 1 }),
    next_attempt_at: NullableTimestamp('When the next attempt is due'),
    created_at: Timestamp('When the delivery was created'),
    attempts: z.array(DeliveryAttempt),
  })
  .openapi('Delivery');
export type Delivery = z.infer<typeof Delivery>;

const WebhookParams = z.object({ id: Id('Webhook') });
const auth = meta('mindKey', 'Webhooks');

export const webhooksContract = c.router(
  {
    createWebhook: {
      method: 'POST',
      path: '/webhooks',
      summary: 'Create a webhook',
      description:
        'At most 20 per mind (the 21st is 409); the same URL twice in a mind is 409.' +
        ' A `url` this server will not call is 400: one that points at this service itself, or an http://localhost target where the operator has not allowed them (`MIND_WEBHOOK_ALLOW_LOCALHOST`).',
      body: CreateWebhookBody,
      responses: { 201: CreatedWebhook, ...errors(409), ...bodyErrors },
      metadata: auth,
    },
    listWebhooks: {
      method: 'GET',
      path: '/webhooks',
      summary: 'List webhooks',
      description: "The key's mind's webhooks as a bare array (the spec's form). Not paged: a mind has at most 20 webhooks.",
      responses: { 200: z.array(Webhook) },
      metadata: auth,
    },
    getWebhook: {
      method: 'GET',
      path: '/webhooks/:id',
      summary: 'Get a webhook',
      pathParams: WebhookParams,
      responses: { 200: Webhook, ...errors(404) },
      metadata: auth,
    },
    updateWebhook: {
      method: 'PUT',
      path: '/webhooks/:id',
      summary: 'Update a webhook',
      description:
        'A new `secret` signs the next delivery.' +
        ' A `url` this server will not call is 400: one that points at this service itself, or an http://localhost target where the operator has not allowed them (`MIND_WEBHOOK_ALLOW_LOCALHOST`).',
      pathParams: WebhookParams,
      body: UpdateWebhookBody,
      responses: { 200: Webhook, ...errors(404, 409), ...bodyErrors },
      metadata: auth,
    },
    enableWebhook: {
      method: 'POST',
      path: '/webhooks/:id/enable',
      summary: 'Enable a webhook',
      pathParams: WebhookParams,
      body: c.noBody(),
      responses: { 200: Webhook, ...errors(404) },
      metadata: meta('mindKey', 'Webhooks', { idempotent: true }),
    },
    disableWebhook: {
      method: 'POST',
      path: '/webhooks/:id/disable',
      summary: 'Disable a webhook',
      pathParams: WebhookParams,
      body: c.noBody(),
      responses: { 200: Webhook, ...errors(404) },
      metadata: meta('mindKey', 'Webhooks', { idempotent: true }),
    },
    testWebhook: {
      method: 'POST',
      path: '/webhooks/:id/test',
      summary: 'Send a test event',
      description: 'Sends a `memory.created` test event at once and reports the outcome. 409 on a disabled webhook.',
      pathParams: WebhookParams,
      body: c.noBody(),
      responses: { 200: WebhookTestResult, ...errors(404, 409) },
      metadata: auth,
    },
    deleteWebhook: {
      method: 'DELETE',
      path: '/webhooks/:id',
      summary: 'Delete a webhook',
      pathParams: WebhookParams,
      responses: { 204: c.noBody(), ...errors(404) },
      metadata: auth,
    },
    listDeliveries: {
      method: 'GET',
      path: '/webhooks/:id/deliveries',
      summary: 'Recent deliveries',
      description: `The most recent deliveries of this webhook, newest first, each with its attempts: at most \`limit\`, ${PAGE_BYTES}.`,
      pathParams: WebhookParams,
      query: z.object({ limit: QueryInteger(1, 100).optional().openapi({ description: '1..100, default 50.' }) }),
      responses: { 200: z.object({ deliveries: z.array(Delivery) }).openapi('DeliveryList'), ...errors(400, 404) },
      metadata: auth,
    },
    redeliver: {
      method: 'POST',
      path: '/webhooks/:id/deliveries/:did/redeliver',
      summary: 'Send a delivery again',
      description: 'Queues the same event again for this webhook as a new delivery.',
      pathParams: z.object({ id: Id('Webhook'), did: Id('Delivery') }),
      body: c.noBody(),
      responses: { 202: Delivery, ...errors(404, 409) },
      metadata: auth,
    },
  },
  routerOptions(mindKeyErrors),
);
