import {
  bodyErrors,
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
        cursor: z.string().max(200).optional().openapi({ description: '`next_cursor` of the previous page.' }),
      }),
      responses: {
        200: z
          .object({
            minds: z.array(MindSummary),
            next_cursor: z
              .string()
              .nullable()
              .openapi({ description: 'Pass as `cursor` for the next page; null on the last page.', example: null }),
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
  },
  routerOptions(credentialErrors),
);
