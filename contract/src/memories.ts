import { atLeastOneOf, c, errors, Id, IdParams, meta, NonBlank, NullableTimestamp, Timestamp, bodyErrors } from './common.js';
import { z } from './zod.js';

export const MEMORY_CATEGORIES = [
  'identity',
  'preference',
  'fact',
  'project',
  'skill',
  'mistake',
  'context',
  'note',
  'credentials',
] as const;
export const MemoryCategory = z.enum(MEMORY_CATEGORIES).openapi('MemoryCategory', {
  description: '`credentials` memories are encrypted at rest and never searched by full text.',
  example: 'preference',
});
export type MemoryCategory = z.infer<typeof MemoryCategory>;

export const Tag = NonBlank(100);
export const Tags = z
  .array(Tag)
  .max(50)
  .openapi({ description: 'Words to find it by.', example: ['writing', 'style'] });

export const Memory = z
  .object({
    id: Id('Memory'),
    category: MemoryCategory,
    key: z.string().nullable().openapi({ description: 'Optional name, unique within the mind and category.', example: 'writing-style' }),
    content: z.string().openapi({ example: 'Prefers short sentences and British spelling.' }),
    tags: z
      .array(z.string())
      .max(50)
      .openapi({ example: ['writing', 'style'] }),
    verified: z.boolean().openapi({ description: 'Confirmed by the owning human (JWT only).', example: false }),
    verified_at: NullableTimestamp('When it was verified'),
    source: z.string().nullable().openapi({ description: 'Where the memory came from.', example: 'chat 2026-11-20' }),
    created_at: Timestamp('When it was stored'),
    updated_at: Timestamp('When it last changed'),
  })
  .openapi('Memory');
export type Memory = z.infer<typeof Memory>;

export const StoreMemoryBody = z
  .object({
    category: MemoryCategory,
    key: NonBlank(200).optional().openapi({ description: 'A name for it, unique within the mind and category.', example: 'writing-style' }),
    content: z
      .string()
      .min(1)
      .max(65536)
      .openapi({ description: 'What to remember, in words.', example: 'Prefers short sentences and British spelling.' }),
    tags: Tags.optional(),
    source: z.string().max(200).optional().openapi({ description: 'Where it came from.', example: 'chat 2026-11-20' }),
  })
  .openapi('StoreMemoryBody');
export type StoreMemoryBody = z.infer<typeof StoreMemoryBody>;

export const UpdateMemoryBody = atLeastOneOf(
  z.object({
    category: MemoryCategory.optional(),
    key: NonBlank(200).nullish().openapi({ description: 'null removes the key.', example: 'writing-style' }),
    content: z
      .string()
      .min(1)
      .max(65536)
      .optional()
      .openapi({ description: 'What to remember, in words.', example: 'Prefers short sentences, British spelling and no emoji.' }),
    tags: Tags.optional(),
    source: z.string().max(200).nullish().openapi({ description: 'Where it came from; null clears it.', example: 'chat 2026-11-23' }),
  }),
).openapi('UpdateMemoryBody', {
  description: 'Only the fields given change (at least one); unknown fields are ignored.',
  example: { content: 'Prefers short sentences, British spelling and no emoji.', source: 'chat 2026-11-23' },
});
export type UpdateMemoryBody = z.infer<typeof UpdateMemoryBody>;

export const MemoryStats = z
  .object({
    mind_id: Id('Mind').openapi({
      description: 'The mind the Mind Key belongs to (the console checks a pasted key against the mind it opens).',
    }),
    total: z.number().int().openapi({ description: 'Memories of the mind, of every category.', example: 42 }),
    by_category: z.record(z.number().int()).openapi({
      description: 'Memories per category; categories without any are left out.',
      example: { fact: 20, preference: 12, project: 10 },
    }),
    verified: z.number().int().openapi({ description: 'Memories verified by the owning human.', example: 7 }),
    last_activity: NullableTimestamp('Latest memory change', '2026-11-23T08:15:03.481Z'),
    pending_embeddings: z.number().int().openapi({
      description:
        'Memories written but not yet embedded: found by keyword until the background worker embeds them. 0 when embeddings are off.',
      example: 0,
    }),
  })
  .openapi('MemoryStats');

const mk = meta('mindKey', 'Memories');
const MemoryParams = IdParams('Memory');

/** The conditional-write headers: a write that would lose another's edit is refused (412) instead. */
const IfNoneMatchHeaders = z.object({
  'if-none-match': z.literal('*').optional().openapi({
    description:
      '`*`: create only. When the mind already has a memory with this category and key, nothing is written (412 `memory_key_exists`).',
  }),
});
const IfMatchHeaders = z.object({
  'if-match': z.string().max(200).optional().openapi({
    description:
      'The `ETag` of the version this write is based on (from GET /memory/:id or a previous PUT). When the memory changed since, nothing is written (412 `memory_changed`): read it again and redo the edit.',
  }),
});
const ETAG_NOTE = ' The answer carries the version in `ETag`, for `If-Match` on PUT /memory/:id.';

/** The memories' own routes; `memoriesContract` (index.ts) puts them in order among the other areas' routes. */
export const memoryRoutes = c.router({
  storeMemory: {
    method: 'POST',
    path: '/memory',
    summary: 'Store a memory',
    description:
      'Creates a memory (201). With a `key` that already exists in this mind and category, updates that memory instead (200), unless `If-None-Match: *` asks to create only (412).' +
      ETAG_NOTE,
    headers: IfNoneMatchHeaders,
    body: StoreMemoryBody,
    responses: { 200: Memory, 201: Memory, ...errors(412), ...bodyErrors },
    metadata: mk,
  },
  memoryStats: {
    method: 'GET',
    path: '/memory/stats',
    summary: 'Memory statistics',
    responses: { 200: MemoryStats },
    metadata: mk,
  },
  getMemory: {
    method: 'GET',
    path: '/memory/:id',
    summary: 'Get a memory',
    description: `The memory.${ETAG_NOTE}`,
    pathParams: MemoryParams,
    responses: { 200: Memory, ...errors(404) },
    metadata: mk,
  },
  updateMemory: {
    method: 'PUT',
    path: '/memory/:id',
    summary: 'Update a memory',
    description: `With \`If-Match\`, only if the memory is still that version (412 otherwise).${ETAG_NOTE}`,
    pathParams: MemoryParams,
    headers: IfMatchHeaders,
    body: UpdateMemoryBody,
    responses: { 200: Memory, ...errors(404, 409, 412), ...bodyErrors },
    metadata: mk,
  },
  deleteMemory: {
    method: 'DELETE',
    path: '/memory/:id',
    summary: 'Delete a memory',
    pathParams: MemoryParams,
    responses: { 204: c.noBody(), ...errors(404) },
    metadata: mk,
  },
  verifyMemory: {
    method: 'POST',
    path: '/memory/:id/verify',
    summary: 'Verify a memory (human only)',
    description: "Marks the memory as confirmed by its human owner. Needs the owning user's JWT; a Mind Key gets 403.",
    pathParams: MemoryParams,
    body: c.noBody(),
    responses: { 200: Memory, ...errors(404) },
    metadata: meta('mindKeyOrJwt', 'Memories', { idempotent: true, preferJwt: true }),
  },
  unverifyMemory: {
    method: 'POST',
    path: '/memory/:id/unverify',
    summary: 'Withdraw verification (human only)',
    description: "Needs the owning user's JWT; a Mind Key gets 403.",
    pathParams: MemoryParams,
    body: c.noBody(),
    responses: { 200: Memory, ...errors(404) },
    metadata: meta('mindKeyOrJwt', 'Memories', { idempotent: true, preferJwt: true }),
  },
});
