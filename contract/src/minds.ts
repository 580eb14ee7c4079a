import {
  bodyErrors,
  IsoDateOrDateTime,
  c,
  credentialErrors,
  errors,
  Id,
  IdParams,
  meta,
  NonBlank,
  NullableTimestamp,
  PAGE_BYTES,
  QueryInteger,
  routerOptions,
  Timestamp,
  NextCursor,
  PageCursor,
} from './common.js';
import { z } from './zod.js';

export const CreateMindBody = z
  .object({
    name: NonBlank(200).openapi({ example: 'research-assistant' }),
    description: z.string().max(20000).optional().openapi({ example: 'Keeps notes for the literature review' }),
  })
  .openapi('CreateMindBody');
export type CreateMindBody = z.infer<typeof CreateMindBody>;

export const CreatedMind = z
  .object({
    id: Id('Mind'),
    name: z.string().openapi({ example: 'research-assistant' }),
    description: z.string().nullable().openapi({ example: 'Keeps notes for the literature review' }),
    mind_key: z.string().openapi({
      description: 'The Mind Key (`mk_...`). Shown only in this response; only its hash is stored. Store it now.',
      example: 'mk_8c1Jm0V3s2y4b7P0aQe9T6uK1xZr5wD3nH2gF8jL0oA',
    }),
    created_at: Timestamp('When the mind was created'),
  })
  .openapi('CreatedMind');
export type CreatedMind = z.infer<typeof CreatedMind>;

export const MindSummary = z
  .object({
    id: Id('Mind'),
    name: z.string().openapi({ example: 'research-assistant' }),
    description: z.string().nullable().openapi({ example: 'Keeps notes for the literature review' }),
    created_at: Timestamp('When the mind was created'),
    memory_count: z.number().int().openapi({ description: 'Memories stored in the mind.', example: 42 }),
    last_activity: NullableTimestamp('Latest write of any kind in the mind', '2026-11-23T08:15:03.481Z'),
    disabled: z.boolean().openapi({ description: 'A disabled mind refuses its Mind Key (403) but keeps its data.', example: false }),
  })
  .openapi('MindSummary');
export type MindSummary = z.infer<typeof MindSummary>;

export const KeyScope = z.enum(['full', 'read']).openapi({
  description: '`full`: every route of the mind. `read`: only what changes nothing; any write is a 403 `key_read_only`.',
  example: 'read',
});
export type KeyScope = z.infer<typeof KeyScope>;

export const KeySource = z.enum(['api', 'console', 'oauth']).openapi({
  description:
    'What made the key: `api` (POST /minds or POST /minds/:id/keys), `console` (opening the mind there), `oauth` (an MCP client).',
  example: 'api',
});

const KeyLabel = NonBlank(200).openapi({ description: 'What the key is for, so a person recognises it.', example: 'research agent' });
const KeyPrefix = z.string().nullable().openapi({
  description: 'The first 8 characters of the key, to recognise it (null for keys made before keys had one).',
  example: 'mk_8c1Jm',
});

export const CreateMindKeyBody = z
  .object({
    label: KeyLabel,
    scope: KeyScope.optional().openapi({ description: 'Default `full`.' }),
    expires_at: IsoDateOrDateTime.optional().openapi({
      description: 'When the key stops working (ISO 8601, in the future); after it the key answers 401 `mind_key_expired`. Default: never.',
      example: '2027-01-01T00:00:00Z',
    }),
    source: z.enum(['api', 'console']).optional().openapi({
      description:
        "Default `api`. `console`: a key for the console's own use, which never lives long: it expires at most an hour from now (a later or missing `expires_at` becomes one hour from now), and is deleted once expired.",
    }),
  })
  .openapi('CreateMindKeyBody');
export type CreateMindKeyBody = z.infer<typeof CreateMindKeyBody>;

export const CreatedMindKey = z
  .object({
    id: Id('Key'),
    label: z.string().openapi({ example: 'research agent' }),
    scope: KeyScope,
    prefix: z.string().openapi({ description: 'The first 8 characters of the key.', example: 'mk_8c1Jm' }),
    mind_key: z.string().openapi({
      description: 'The Mind Key (`mk_...`). Shown only in this response; only its hash is stored. Store it now.',
      example: 'mk_8c1Jm0V3s2y4b7P0aQe9T6uK1xZr5wD3nH2gF8jL0oA',
    }),
    created_at: Timestamp('When the key was made'),
    expires_at: NullableTimestamp('When the key stops working', '2027-01-01T00:00:00.000Z'),
  })
  .openapi('CreatedMindKey');
export type CreatedMindKey = z.infer<typeof CreatedMindKey>;

export const MindKeySummary = z
  .object({
    id: Id('Key'),
    label: z.string().openapi({ example: 'original' }),
    scope: KeyScope,
    prefix: KeyPrefix,
    source: KeySource,
    client_name: z
      .string()
      .nullable()
      .openapi({ description: 'The MCP client the key was made for (source `oauth`), else null.', example: null }),
    created_at: Timestamp('When the key was made'),
    expires_at: NullableTimestamp('When the key stops working'),
    last_used_at: NullableTimestamp('When the key was last used, to the minute', '2026-11-23T08:15:00.000Z'),
  })
  .openapi('MindKeySummary');
export type MindKeySummary = z.infer<typeof MindKeySummary>;

const MindKeyParams = z.object({ id: Id('Mind'), key_id: Id('Key') });

export const mindsContract = c.router(
  {
    createMind: {
      method: 'POST',
      path: '/minds',
      summary: 'Create a mind',
      description:
        'Creates a mind for the current user and returns its Mind Key once. A lost key cannot be recovered. A user has at most `MIND_MAX_MINDS_PER_USER` minds (default 100): one more is a 409.',
      body: CreateMindBody,
      responses: { 201: CreatedMind, ...errors(409), ...bodyErrors },
      metadata: meta('jwt', 'Minds'),
    },
    listMinds: {
      method: 'GET',
      path: '/minds',
      summary: 'List your minds',
      description: `The current user's minds with their memory count and last activity, oldest first: at most \`limit\` (default 100) a page, ${PAGE_BYTES}. Page with \`next_cursor\`.`,
      query: z.object({
        limit: QueryInteger(1, 100).optional().openapi({ description: 'Minds per page, 1..100, default 100.' }),
        cursor: PageCursor(200),
      }),
      responses: {
        200: z
          .object({
            minds: z.array(MindSummary),
            next_cursor: NextCursor(null),
          })
          .openapi('MindList'),
        ...errors(400),
      },
      metadata: meta('jwt', 'Minds'),
    },
    deleteMind: {
      method: 'DELETE',
      path: '/minds/:id',
      summary: 'Delete a mind',
      description:
        "Irreversible: deletes the mind and everything it holds (memories, tasks, chat, scripts, webhooks and their deliveries, its computers and their commands). The mind is gone at once: its Mind Key answers 401, its computers' tokens are refused, GET /minds no longer lists it, its webhooks send nothing more. Its rows are removed in the background in small chunks (a large mind takes a moment; a restart resumes).",
      pathParams: IdParams('Mind'),
      responses: { 204: c.noBody(), ...errors(403, 404) },
      metadata: meta('jwt', 'Minds'),
    },
    createMindKey: {
      method: 'POST',
      path: '/minds/:id/keys',
      summary: 'Make a Mind Key',
      description:
        "Makes another key for the mind, shown once in this answer. `scope: read` makes a key that reads the mind but changes nothing; `expires_at` one that stops working then. To rotate a key: make a new one, move the agent to it, revoke the old one (DELETE /minds/:id/keys/:key_id). At most 100 keys a mind. Another user's mind is a 404. An `expires_at` that is not in the future is 400.",
      pathParams: IdParams('Mind'),
      body: CreateMindKeyBody,
      responses: { 201: CreatedMindKey, ...errors(404, 409), ...bodyErrors },
      metadata: meta('jwt', 'Minds'),
    },
    listMindKeys: {
      method: 'GET',
      path: '/minds/:id/keys',
      summary: "List a mind's keys",
      description:
        "The mind's keys that are not revoked, oldest first, the first key from POST /minds (label `original`) included. No secret: `prefix` is the first 8 characters of a key. `last_used_at` is kept to the minute. Another user's mind is a 404.",
      pathParams: IdParams('Mind'),
      responses: { 200: z.object({ keys: z.array(MindKeySummary) }).openapi('MindKeyList'), ...errors(404) },
      metadata: meta('jwt', 'Minds'),
    },
    revokeMindKey: {
      method: 'DELETE',
      path: '/minds/:id/keys/:key_id',
      summary: 'Revoke a Mind Key',
      description:
        "The key is refused from the next request on, by every instance of the service: 401 `mind_key_revoked`. The mind and its data stay; its other keys keep working. The original key can be revoked like any other. Another user's mind is a 404.",
      pathParams: MindKeyParams,
      responses: { 204: c.noBody(), ...errors(404) },
      metadata: meta('jwt', 'Minds'),
    },
  },
  routerOptions(credentialErrors),
);
