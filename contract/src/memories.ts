import {
  atLeastOneOf,
  bodyErrors,
  c,
  errors,
  Id,
  IdParams,
  IsoDateOrDateTime,
  LARGE_BODY_LIMIT,
  meta,
  mindKeyErrors,
  NonBlank,
  NullableTimestamp,
  QueryBoolean,
  QueryInteger,
  routerOptions,
  Timestamp,
} from './common.js';
import { DueAt, Task, TaskPriority, TaskStatus } from './tasks.js';
import { z } from './zod.js';

/** A recall can require at most this many tags (a memory holds at most 50). */
export const MAX_RECALL_TAGS = 20;
/** The most of each kind one mind document may carry (its 25 MB body limit bounds it too). */
export const IMPORT_LIMITS = { memories: 250_000, tasks: 100_000, chat: 250_000, scripts: 10_000, webhooks: 20 } as const;

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
export const MemoryCategory = z
  .enum(MEMORY_CATEGORIES, {
    errorMap: () => ({ message: `must be one of: ${MEMORY_CATEGORIES.join(', ')}` }),
  })
  .openapi('MemoryCategory', { description: '`credentials` memories are encrypted at rest and never searched by full text.' });
export type MemoryCategory = z.infer<typeof MemoryCategory>;

const Tag = NonBlank(100);
const Tags = z
  .array(Tag)
  .max(50)
  .openapi({ example: ['writing', 'style'] });

export const Memory = z
  .object({
    id: Id('Memory'),
    category: MemoryCategory,
    key: z.string().nullable().openapi({ description: 'Optional name, unique within the mind and category.', example: 'writing-style' }),
    content: z.string().openapi({ example: 'Prefers short sentences and British spelling.' }),
    tags: z.array(z.string()).max(50),
    verified: z.boolean().openapi({ description: 'Confirmed by the owning human (JWT only).' }),
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
    key: NonBlank(200).optional().openapi({ example: 'writing-style' }),
    content: z.string().min(1).max(65536).openapi({ example: 'Prefers short sentences and British spelling.' }),
    tags: Tags.optional(),
    source: z.string().max(200).optional(),
  })
  .openapi('StoreMemoryBody');
export type StoreMemoryBody = z.infer<typeof StoreMemoryBody>;

export const UpdateMemoryBody = atLeastOneOf(
  z.object({
    category: MemoryCategory.optional(),
    key: NonBlank(200).nullish(),
    content: z.string().min(1).max(65536).optional(),
    tags: Tags.optional(),
    source: z.string().max(200).nullish(),
  }),
).openapi('UpdateMemoryBody', { description: 'Only the fields given change (at least one); unknown fields are ignored.' });
export type UpdateMemoryBody = z.infer<typeof UpdateMemoryBody>;

export const RecallHit = Memory.extend({
  score: z.number().openapi({ description: 'Relevance; higher is better. With an empty `q`, recency order and score 0.' }),
}).openapi('RecallHit');

export const RecallQuery = z.object({
  q: z
    .string()
    .max(1000)
    .regex(/^\s*$|[\p{L}\p{N}]/u, 'has no letters or digits to search for (leave it out to list the newest memories)')
    .optional()
    .openapi({
      description: 'Words to search for in key, content and tags: blank, or with at least one letter or digit. Empty: newest first.',
    }),
  category: MemoryCategory.optional().openapi({ description: 'Only this category (`credentials` only when asked for).' }),
  memory_key: z
    .string()
    .max(200)
    .optional()
    .openapi({ description: 'Only the memory with this key. (`key` in a query string is always the Mind Key.)' }),
  tags: z
    .union([Tag, z.array(Tag).max(MAX_RECALL_TAGS)])
    .optional()
    .openapi({ description: `Repeat to require several (at most ${MAX_RECALL_TAGS}): \`tags=a&tags=b\`.` }),
  verified: QueryBoolean.optional().openapi({ description: 'true: only verified; false: only unverified.' }),
  since: IsoDateOrDateTime.optional().openapi({
    description: 'Only memories changed at or after this time (ISO 8601 date, or date-time with a zone).',
  }),
  limit: QueryInteger(1, 100).optional().openapi({ description: '1..100, default 20.' }),
  cursor: z
    .string()
    .max(500)
    .optional()
    .openapi({ description: '`next_cursor` of the previous page, with `q` and the filters unchanged (any other text is 400).' }),
});

export const RecallResult = z
  .object({
    memories: z.array(RecallHit),
    next_cursor: z.string().nullable().openapi({ description: 'Pass as `cursor` for the next page; null on the last page.' }),
  })
  .openapi('RecallResult');

export const MemoryStats = z
  .object({
    total: z.number().int(),
    by_category: z.record(z.number().int()),
    verified: z.number().int(),
    last_activity: NullableTimestamp('Latest memory change'),
  })
  .openapi('MemoryStats');

export const ChatRole = z.enum(['human', 'agent']);
export const ChatMessage = z
  .object({
    id: Id('Message'),
    role: ChatRole,
    content: z.string(),
    thread: z.string().openapi({ description: 'Thread name; `default` unless given.' }),
    created_at: Timestamp('When it was posted'),
  })
  .openapi('ChatMessage');
export type ChatMessage = z.infer<typeof ChatMessage>;

export const PostChatBody = z
  .object({
    role: ChatRole,
    content: z.string().min(1).max(65536),
    thread: NonBlank(200).optional(),
  })
  .openapi('PostChatBody');

export const Script = z
  .object({
    id: Id('Script'),
    name: z.string().openapi({ example: 'fetch-arxiv' }),
    description: z.string().nullable(),
    language: z.string().nullable().openapi({ example: 'python' }),
    content: z.string(),
    created_at: Timestamp('When it was created'),
    updated_at: Timestamp('When it last changed'),
  })
  .openapi('Script');
export type Script = z.infer<typeof Script>;

export const CreateScriptBody = z
  .object({
    name: NonBlank(200),
    description: z.string().max(20000).optional(),
    language: NonBlank(50).optional(),
    content: z.string().max(1_000_000),
  })
  .openapi('CreateScriptBody');
export const UpdateScriptBody = atLeastOneOf(
  z.object({
    name: NonBlank(200).optional(),
    description: z.string().max(20000).nullish(),
    language: NonBlank(50).nullish(),
    content: z.string().max(1_000_000).optional(),
  }),
).openapi('UpdateScriptBody', { description: 'Only the fields given change (at least one); unknown fields are ignored.' });

export const MindExport = z
  .object({
    format: z.literal('mind-export/1'),
    exported_at: Timestamp('When the export was made'),
    mind: z.object({ id: z.string(), name: z.string(), description: z.string().nullable() }),
    memories: z.array(Memory).max(IMPORT_LIMITS.memories),
    tasks: z.array(Task).max(IMPORT_LIMITS.tasks),
    chat: z.array(ChatMessage).max(IMPORT_LIMITS.chat),
    scripts: z.array(Script).max(IMPORT_LIMITS.scripts),
    webhooks: z.array(z.object({ url: z.string(), events: z.string(), enabled: z.boolean() })).max(IMPORT_LIMITS.webhooks),
  })
  .openapi('MindExport', { description: 'The whole mind as one versioned document. Webhook secrets are never exported.' });
export type MindExport = z.infer<typeof MindExport>;

const ImportId = z.string().uuid().openapi({ description: 'A UUID, unique among the items of its kind in the document.' });
const ImportTime = IsoDateOrDateTime.openapi({ description: 'ISO 8601 date or date-time with a zone.' });

/**
 * The document `POST /memory/mind-import` takes: an export, each item held to the rules of its create
 * route (an export of this service always passes). Rules a schema cannot say, stated here: ids are
 * unique within each kind, a memory's category and key once in the document, a script's name once.
 */
export const MindImport = z
  .object({
    format: z.literal('mind-export/1'),
    exported_at: z.string().max(100),
    mind: z
      .object({ id: z.string().max(100), name: z.string().max(200), description: z.string().max(20000).nullable() })
      .partial()
      .optional(),
    memories: z
      .array(
        z.object({
          id: ImportId,
          category: MemoryCategory,
          key: NonBlank(200).nullish(),
          content: z.string().min(1).max(65536),
          tags: Tags,
          source: z.string().max(200).nullish(),
          created_at: ImportTime,
          updated_at: ImportTime,
        }),
      )
      .max(IMPORT_LIMITS.memories)
      .openapi({ description: 'Ids unique; a category and key at most once. `verified` is not imported (a human verifies).' }),
    tasks: z
      .array(
        z.object({
          id: ImportId,
          title: NonBlank(500),
          description: z.string().max(20000).nullish(),
          priority: TaskPriority.optional(),
          status: TaskStatus,
          due_at: DueAt.nullish(),
          created_at: ImportTime,
          updated_at: ImportTime,
          completed_at: ImportTime.nullable(),
        }),
      )
      .max(IMPORT_LIMITS.tasks)
      .openapi({ description: 'Ids unique.' }),
    chat: z
      .array(
        z.object({
          id: ImportId,
          role: ChatRole,
          content: z.string().min(1).max(65536),
          thread: NonBlank(200).optional(),
          created_at: ImportTime,
        }),
      )
      .max(IMPORT_LIMITS.chat)
      .openapi({ description: 'Ids unique.' }),
    scripts: z
      .array(
        z.object({
          id: ImportId,
          name: NonBlank(200),
          description: z.string().max(20000).nullish(),
          language: NonBlank(50).nullish(),
          content: z.string().max(1_000_000),
          created_at: ImportTime,
          updated_at: ImportTime,
        }),
      )
      .max(IMPORT_LIMITS.scripts)
      .openapi({ description: 'Ids unique; a name at most once.' }),
    webhooks: z
      .array(z.object({ url: z.string().max(2000), events: z.string().max(2000), enabled: z.boolean() }))
      .max(IMPORT_LIMITS.webhooks)
      .openapi({ description: 'Counted as skipped: their secrets are not in exports.' }),
  })
  .openapi('MindImport', {
    description:
      "A `mind-export/1` document (GET /memory/mind-export answers one). Each item follows its create route's rules; ids are unique within each kind, a memory's category and key and a script's name at most once (400 naming the item otherwise).",
  });
export type MindImport = z.infer<typeof MindImport>;

const Counts = z.object({
  memories: z.number().int(),
  tasks: z.number().int(),
  chat: z.number().int(),
  scripts: z.number().int(),
  webhooks: z.number().int(),
});
export const ImportResult = z
  .object({
    dry_run: z.boolean(),
    mode: z.enum(['merge', 'replace']),
    created: Counts,
    updated: Counts,
    deleted: Counts,
    skipped: Counts.openapi({ description: 'Items not imported (webhooks: their secrets are not in exports).' }),
  })
  .openapi('ImportResult');

export const ImportQuery = z.object({
  mode: z
    .enum(['merge', 'replace'])
    .optional()
    .openapi({ description: '`merge` (default) keeps what the mind has; `replace` empties it first.' }),
  dry_run: QueryBoolean.optional().openapi({ description: 'Report what would change without changing anything.' }),
});

const mk = meta('mindKey', 'Memories');
const chat = meta('mindKey', 'Chat');
const scripts = meta('mindKey', 'Scripts');
const MemoryParams = IdParams('Memory');
const ScriptParams = IdParams('Script');

export const memoriesContract = c.router(
  {
    storeMemory: {
      method: 'POST',
      path: '/memory',
      summary: 'Store a memory',
      description: 'Creates a memory (201). With a `key` that already exists in this mind and category, updates that memory instead (200).',
      body: StoreMemoryBody,
      responses: { 200: Memory, 201: Memory, ...bodyErrors },
      metadata: mk,
    },
    recallMemories: {
      method: 'GET',
      path: '/memory/recall',
      summary: 'Search memories',
      description:
        'Ranked full-text search over key, content and tags; verified memories rank higher. `credentials` memories appear only when `category=credentials` is asked for. Page with `next_cursor`.',
      query: RecallQuery,
      responses: { 200: RecallResult, ...errors(400) },
      metadata: mk,
    },
    memoryStats: {
      method: 'GET',
      path: '/memory/stats',
      summary: 'Memory statistics',
      responses: { 200: MemoryStats },
      metadata: mk,
    },
    exportMind: {
      method: 'GET',
      path: '/memory/mind-export',
      summary: 'Export the mind',
      description:
        'The whole mind as one JSON document (`format: "mind-export/1"`). `credentials` content is `[redacted]` unless the owner asks with a JWT and `include_credentials=true` (then `mind_id` names the mind).',
      query: z.object({
        mind_id: z.string().optional().openapi({
          description:
            'With a JWT: which of your minds (required: 400 without it). With a Mind Key: its own mind or left out (another mind is 404).',
        }),
        include_credentials: QueryBoolean.optional().openapi({
          description: "With the owner's JWT: include `credentials` content in clear (a Mind Key asking for it gets 403).",
        }),
      }),
      responses: { 200: MindExport, ...errors(400, 404) },
      metadata: meta('mindKeyOrJwt', 'Memories'),
    },
    importMind: {
      method: 'POST',
      path: '/memory/mind-import',
      summary: 'Import a mind export',
      description: "Takes a `mind-export/1` document into the key's mind: `merge` or `replace`; `dry_run=true` reports without changing.",
      query: ImportQuery,
      body: MindImport,
      responses: { 200: ImportResult, ...errors(413), ...bodyErrors },
      metadata: meta('mindKey', 'Memories', { bodyLimit: LARGE_BODY_LIMIT }),
    },
    getMemory: {
      method: 'GET',
      path: '/memory/:id',
      summary: 'Get a memory',
      pathParams: MemoryParams,
      responses: { 200: Memory, ...errors(404) },
      metadata: mk,
    },
    updateMemory: {
      method: 'PUT',
      path: '/memory/:id',
      summary: 'Update a memory',
      pathParams: MemoryParams,
      body: UpdateMemoryBody,
      responses: { 200: Memory, ...errors(404, 409), ...bodyErrors },
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
    postChatMessage: {
      method: 'POST',
      path: '/mind/chat',
      summary: 'Post a chat message',
      description: 'An `agent` message fires `chat.message_sent`, a `human` one `chat.message_received`.',
      body: PostChatBody,
      responses: { 201: ChatMessage, ...bodyErrors },
      metadata: chat,
    },
    listChatMessages: {
      method: 'GET',
      path: '/mind/chat',
      summary: 'Read chat history',
      description: 'Messages of a thread, newest last. `before` (a message id) pages back.',
      query: z.object({
        thread: z.string().max(200).optional().openapi({ description: 'Thread name, default `default`.' }),
        limit: QueryInteger(1, 100).optional().openapi({ description: 'Messages per page, 1..100, default 50.' }),
        before: z
          .string()
          .optional()
          .openapi({ description: 'A message id of this mind: only messages older than it (an unknown id is 404).' }),
      }),
      responses: { 200: z.object({ messages: z.array(ChatMessage) }).openapi('ChatHistory'), ...errors(400, 404) },
      metadata: chat,
    },
    listScripts: {
      method: 'GET',
      path: '/mind/scripts',
      summary: 'List scripts',
      description:
        "Scripts of the key's mind by name, at most `limit` (default 100) a page, each with its content. Page with `next_cursor`: the cursor is the last name shown, so scripts added or removed meanwhile never make a page repeat or skip another.",
      query: z.object({
        limit: QueryInteger(1, 100).optional().openapi({ description: 'Scripts per page, 1..100, default 100.' }),
        cursor: z.string().max(1000).optional().openapi({ description: '`next_cursor` of the previous page.' }),
      }),
      responses: {
        200: z
          .object({
            scripts: z.array(Script),
            next_cursor: z.string().nullable().openapi({ description: 'Pass as `cursor` for the next page; null on the last page.' }),
          })
          .openapi('ScriptList'),
        ...errors(400),
      },
      metadata: scripts,
    },
    createScript: {
      method: 'POST',
      path: '/mind/scripts',
      summary: 'Create a script',
      description: 'Names are unique within the mind (409 otherwise).',
      body: CreateScriptBody,
      responses: { 201: Script, ...errors(409), ...bodyErrors },
      metadata: scripts,
    },
    getScript: {
      method: 'GET',
      path: '/mind/scripts/:id',
      summary: 'Get a script',
      pathParams: ScriptParams,
      responses: { 200: Script, ...errors(404) },
      metadata: scripts,
    },
    updateScript: {
      method: 'PUT',
      path: '/mind/scripts/:id',
      summary: 'Update a script',
      pathParams: ScriptParams,
      body: UpdateScriptBody,
      responses: { 200: Script, ...errors(404, 409), ...bodyErrors },
      metadata: scripts,
    },
    deleteScript: {
      method: 'DELETE',
      path: '/mind/scripts/:id',
      summary: 'Delete a script',
      pathParams: ScriptParams,
      responses: { 204: c.noBody(), ...errors(404) },
      metadata: scripts,
    },
  },
  routerOptions(mindKeyErrors),
);
