import {
  atLeastOneOf,
  bodyErrors,
  c,
  errors,
  Id,
  IdParams,
  IsoDateTime,
  meta,
  NextCursor,
  NonBlank,
  NullableTimestamp,
  PAGE_BYTES,
  PageCursor,
  QueryInteger,
  Timestamp,
} from './common.js';
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
    expires_at: NullableTimestamp('When it is forgotten: from then on it is not listed, recalled, counted or exported, and is deleted'),
    valid_from: NullableTimestamp('Since when the fact holds in the world (null: always has)'),
    valid_to: NullableTimestamp('Until when the fact held in the world, exclusive (null: still holds)'),
    superseded_by: z.string().nullable().openapi({
      description: 'The memory that replaced this one (`supersedes` on POST /memory), or null.',
      example: null,
    }),
  })
  .openapi('Memory');
export type Memory = z.infer<typeof Memory>;

const ExpiresAt = IsoDateTime.nullish().openapi({
  description: 'When to forget it (RFC 3339 date-time): from then on it is gone from lists, recall, stats and exports, and deleted.',
  example: '2027-01-01T00:00:00Z',
});
const ValidFrom = IsoDateTime.nullish().openapi({
  description: 'Since when the fact holds in the world, apart from when it was written (RFC 3339 date-time; null: open).',
  example: '2026-03-01T00:00:00Z',
});
const ValidTo = IsoDateTime.nullish().openapi({
  description: 'Until when the fact held, exclusive: after `valid_from` (RFC 3339 date-time; null: open).',
  example: null,
});

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
    expires_at: ExpiresAt,
    valid_from: ValidFrom,
    valid_to: ValidTo,
    supersedes: NonBlank(100).optional().openapi({
      description:
        "Id of a memory of this mind that this one replaces: it gets `valid_to` now (unless already set) and `superseded_by` this memory's id, and stays readable by id. Only for a new memory (not with a `key` that already exists).",
      example: '0b6f5a62-3f5e-4e8e-9a52-2c7d3f3f1a10',
    }),
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
    expires_at: ExpiresAt.openapi({ description: 'When to forget it (RFC 3339 date-time); null clears it.' }),
    valid_from: ValidFrom.openapi({ description: 'Since when the fact holds (RFC 3339 date-time); null clears it.' }),
    valid_to: ValidTo.openapi({ description: 'Until when the fact held, exclusive (RFC 3339 date-time); null clears it.' }),
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

export const MemoryVersion = z
  .object({
    content: z.string().openapi({ example: 'Prefers short sentences.' }),
    category: MemoryCategory,
    key: z.string().nullable().openapi({ example: 'writing-style' }),
    tags: z.array(z.string()).openapi({ example: ['writing'] }),
    source: z.string().nullable().openapi({ example: 'chat 2026-11-20' }),
    expires_at: NullableTimestamp('When it was to be forgotten, as it stood then'),
    valid_from: NullableTimestamp('Since when the fact held, as it stood then'),
    valid_to: NullableTimestamp('Until when the fact held, as it stood then'),
    at: Timestamp('When this version became current'),
    replaced_at: NullableTimestamp('When the next version replaced it; null for the current one', '2026-11-23T08:15:03.481Z'),
  })
  .openapi('MemoryVersion', { description: 'The memory as it stood between `at` and `replaced_at`.' });
export type MemoryVersion = z.infer<typeof MemoryVersion>;

export const MemoryChainLink = z
  .object({
    id: Id('Memory'),
    category: MemoryCategory,
    key: z.string().nullable().openapi({ example: null }),
    content: z.string().openapi({ example: 'Lives in Leeds.' }),
    valid_from: NullableTimestamp('Since when the fact held'),
    valid_to: NullableTimestamp('Until when the fact held', '2026-11-23T08:15:03.481Z'),
    superseded_by: z.string().nullable().openapi({ description: 'The next memory of the chain, or null for the latest.', example: null }),
    created_at: Timestamp('When it was stored'),
  })
  .openapi('MemoryChainLink', { description: 'A memory of the supersede chain (`supersedes` on POST /memory).' });
export type MemoryChainLink = z.infer<typeof MemoryChainLink>;

export const MemoryHistory = z
  .object({
    versions: z.array(MemoryVersion).openapi({
      description:
        "The memory's contents over its updates (by id or by key), oldest first; the current content is the last version of the last page.",
    }),
    chain: z.array(MemoryChainLink).openapi({
      description:
        'The memories it superseded and that superseded it, this one included, oldest first (expired ones left out). Paged with the versions: the next page continues both.',
    }),
    next_cursor: NextCursor(null),
  })
  .openapi('MemoryHistory');
export type MemoryHistory = z.infer<typeof MemoryHistory>;

export const MemoryHistoryQuery = z.object({
  limit: QueryInteger(1, 100).optional().openapi({ description: 'Versions and chain links per page, each 1..100, default 20.' }),
  cursor: PageCursor(200),
});

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
      'Creates a memory (201). With a `key` that already exists in this mind and category, updates that memory instead (200), keeping its previous content as a version (GET /memory/{id}/history), unless `If-None-Match: *` asks to create only (412). `supersedes` an unknown memory is 404; one already superseded, or with a `key` that exists, 409.' +
      ETAG_NOTE,
    headers: IfNoneMatchHeaders,
    body: StoreMemoryBody,
    responses: { 200: Memory, 201: Memory, ...errors(404, 409, 412), ...bodyErrors },
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
  memoryHistory: {
    method: 'GET',
    path: '/memory/:id/history',
    summary: "A memory's history",
    description:
      'Earlier versions of the memory (every update by id or by key keeps one) and its supersede chain, each oldest first, with the current content last. At most `limit` of each a page, ' +
      PAGE_BYTES +
      '. Page with `next_cursor`. `credentials` memories: their versions show as GET /memory/{id} shows the memory.',
    pathParams: MemoryParams,
    query: MemoryHistoryQuery,
    responses: { 200: MemoryHistory, ...errors(400, 404) },
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
