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
  .openapi('MemoryCategory', {
    description: '`credentials` memories are encrypted at rest and never searched by full text.',
    example: 'preference',
  });
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
    key: NonBlank(200).optional().openapi({ example: 'writing-style' }),
    content: z.string().min(1).max(65536).openapi({ example: 'Prefers short sentences and British spelling.' }),
    tags: Tags.optional(),
    source: z.string().max(200).optional().openapi({ example: 'chat 2026-11-20' }),
  })
  .openapi('StoreMemoryBody');
export type StoreMemoryBody = z.infer<typeof StoreMemoryBody>;

export const UpdateMemoryBody = atLeastOneOf(
  z.object({
    category: MemoryCategory.optional(),
    key: NonBlank(200).nullish().openapi({ description: 'null removes the key.', example: 'writing-style' }),
    content: z.string().min(1).max(65536).optional().openapi({ example: 'Prefers short sentences, British spelling and no emoji.' }),
    tags: Tags.optional(),
    source: z.string().max(200).nullish().openapi({ example: 'chat 2026-11-23' }),
  }),
).openapi('UpdateMemoryBody', {
  description: 'Only the fields given change (at least one); unknown fields are ignored.',
  example: { content: 'Prefers short sentences, British spelling and no emoji.', source: 'chat 2026-11-23' },
});
export type UpdateMemoryBody = z.infer<typeof UpdateMemoryBody>;

export const RecallMode = z.enum(['hybrid', 'keyword', 'semantic']).openapi('RecallMode', {
  description:
    '`hybrid` (default): the keyword ranking and the ranking by meaning fused; `keyword`: full-text only; `semantic`: by meaning only (needs embeddings).',
  example: 'hybrid',
});

export const RecallHit = Memory.extend({
  score: z.number().openapi({
    description:
      'Relevance; higher is better, comparable within one answer. keyword: BM25 (ts_rank on PostgreSQL); semantic: cosine similarity; hybrid: the fused rank score. With an empty `q`, recency order and score 0.',
    example: 0.0325,
  }),
  match: z.enum(['keyword', 'semantic', 'both']).openapi({
    description: 'How it was found: by its words, by its meaning, or both.',
    example: 'both',
  }),
}).openapi('RecallHit');

export const RecallQuery = z.object({
  q: z
    .string()
    .max(1000)
    // A rule of every script's letters, which no pattern every engine reads alike can state: the description says it.
    .refine((q) => /^\s*$|[\p{L}\p{N}]/u.test(q), 'has no letters or digits to search for (leave it out to list the newest memories)')
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
  mode: RecallMode.optional(),
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
    next_cursor: z.string().nullable().openapi({
      description: 'Pass as `cursor` for the next page; null on the last page.',
      example:
        'eyJ2IjoxLCJmIjoiWHEzdjlMdzJaazhyVDFwQSIsInMiOjMuNDIsInUiOiIyMDI2LTExLTIyVDAxOjI5OjQyLjEyM1oiLCJpIjoiMGI2ZjVhNjItM2Y1ZS00ZThlLTlhNTItMmM3ZDNmM2YxYTEwIn0',
    }),
  })
  .openapi('RecallResult');

export const MemoryStats = z
  .object({
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

export const ChatRole = z.enum(['human', 'agent']);
export const ChatMessage = z
  .object({
    id: Id('Message'),
    role: ChatRole,
    content: z.string().openapi({ example: 'Please keep each summary under 300 words.' }),
    thread: z.string().openapi({ description: 'Thread name; `default` unless given.', example: 'default' }),
    created_at: Timestamp('When it was posted'),
  })
  .openapi('ChatMessage');
export type ChatMessage = z.infer<typeof ChatMessage>;

export const PostChatBody = z
  .object({
    role: ChatRole,
    content: z.string().min(1).max(65536).openapi({ example: 'Please keep each summary under 300 words.' }),
    thread: NonBlank(200).optional().openapi({ description: 'Thread name, default `default`.', example: 'default' }),
  })
  .openapi('PostChatBody');

const SCRIPT_DESCRIPTION = 'Lists the newest arXiv papers on a topic.';
const SCRIPT_CONTENT = "import arxiv\n\nfor paper in arxiv.Search(query='agents', max_results=5).results():\n    print(paper.title)\n";

export const Script = z
  .object({
    id: Id('Script'),
    name: z.string().openapi({ example: 'fetch-arxiv' }),
    description: z.string().nullable().openapi({ example: SCRIPT_DESCRIPTION }),
    language: z.string().nullable().openapi({ example: 'python' }),
    content: z.string().openapi({ example: SCRIPT_CONTENT }),
    created_at: Timestamp('When it was created'),
    updated_at: Timestamp('When it last changed'),
  })
  .openapi('Script');
export type Script = z.infer<typeof Script>;

export const CreateScriptBody = z
  .object({
    name: NonBlank(200).openapi({ description: 'Unique within the mind.', example: 'fetch-arxiv' }),
    description: z.string().max(20000).optional().openapi({ example: SCRIPT_DESCRIPTION }),
    language: NonBlank(50).optional().openapi({ example: 'python' }),
    content: z.string().max(1_000_000).openapi({ example: SCRIPT_CONTENT }),
  })
  .openapi('CreateScriptBody');
export const UpdateScriptBody = atLeastOneOf(
  z.object({
    name: NonBlank(200).optional().openapi({ description: 'Unique within the mind.', example: 'fetch-arxiv' }),
    description: z.string().max(20000).nullish().openapi({ description: 'null clears it.', example: SCRIPT_DESCRIPTION }),
    language: NonBlank(50).nullish().openapi({ description: 'null clears it.', example: 'python' }),
    content: z.string().max(1_000_000).optional().openapi({ example: SCRIPT_CONTENT }),
  }),
).openapi('UpdateScriptBody', {
  description: 'Only the fields given change (at least one); unknown fields are ignored.',
  example: { content: SCRIPT_CONTENT.replace('max_results=5', 'max_results=10') },
});

export const MindExport = z
  .object({
    format: z.literal('mind-export/1'),
    exported_at: Timestamp('When the export was made'),
    mind: z.object({
      id: Id('Mind'),
      name: z.string().openapi({ example: 'research-assistant' }),
      description: z.string().nullable().openapi({ example: 'Keeps notes for the literature review' }),
    }),
    memories: z.array(Memory).max(IMPORT_LIMITS.memories),
    tasks: z.array(Task).max(IMPORT_LIMITS.tasks),
    chat: z.array(ChatMessage).max(IMPORT_LIMITS.chat),
    scripts: z.array(Script).max(IMPORT_LIMITS.scripts),
    webhooks: z
      .array(
        z.object({
          url: z.string().openapi({ example: 'https://example.com/hooks/mind' }),
          events: z.string().openapi({ example: 'task.*,memory.created' }),
          enabled: z.boolean().openapi({ example: true }),
        }),
      )
      .max(IMPORT_LIMITS.webhooks),
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
    example: {
      format: 'mind-export/1',
      exported_at: '2026-11-22T01:29:42.123Z',
      mind: {
        id: '0b6f5a62-3f5e-4e8e-9a52-2c7d3f3f1a10',
        name: 'research-assistant',
        description: 'Keeps notes for the literature review',
      },
      memories: [
        {
          id: '5d1c7e0a-8f7b-4c3e-9a1d-2b6e4f8c0a11',
          category: 'preference',
          key: 'writing-style',
          content: 'Prefers short sentences and British spelling.',
          tags: ['writing', 'style'],
          source: 'chat 2026-11-20',
          created_at: '2026-11-20T10:02:11.000Z',
          updated_at: '2026-11-20T10:02:11.000Z',
        },
      ],
      tasks: [
        {
          id: '7a2e9c4b-1d3f-4e5a-8b6c-0d9e8f7a6b52',
          title: 'Summarise the three papers',
          description: 'Two paragraphs each, with citations.',
          priority: 'high',
          status: 'in_progress',
          due_at: '2026-12-01T09:00:00.000Z',
          created_at: '2026-11-21T08:00:00.000Z',
          updated_at: '2026-11-22T01:29:42.123Z',
          completed_at: null,
        },
      ],
      chat: [
        {
          id: '3c8f1a6d-2b4e-4d7f-9c0a-5e6b7d8f9a03',
          role: 'human',
          content: 'Please keep each summary under 300 words.',
          thread: 'default',
          created_at: '2026-11-21T08:01:30.000Z',
        },
      ],
      scripts: [
        {
          id: '9e4d2c1b-6a5f-4b3e-8d7c-1f0a2b3c4d94',
          name: 'fetch-arxiv',
          description: SCRIPT_DESCRIPTION,
          language: 'python',
          content: SCRIPT_CONTENT,
          created_at: '2026-11-21T09:30:00.000Z',
          updated_at: '2026-11-21T09:30:00.000Z',
        },
      ],
      webhooks: [{ url: 'https://example.com/hooks/mind', events: 'task.*,memory.created', enabled: true }],
    },
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
  .openapi('ImportResult', {
    example: {
      dry_run: false,
      mode: 'merge',
      created: { memories: 1, tasks: 1, chat: 1, scripts: 1, webhooks: 0 },
      updated: { memories: 0, tasks: 0, chat: 0, scripts: 0, webhooks: 0 },
      deleted: { memories: 0, tasks: 0, chat: 0, scripts: 0, webhooks: 0 },
      skipped: { memories: 0, tasks: 0, chat: 0, scripts: 0, webhooks: 1 },
    },
  });

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
        'Finds memories by their words (full-text over key, content and tags) and by their meaning (embeddings), fused (`mode=hybrid`, the default), or by one alone (`mode=keyword`, `mode=semantic`); each hit says how it `match`ed. Verified memories rank higher. A memory is found by meaning once the background worker embedded it (`pending_embeddings` in GET /memory/stats). `credentials` memories appear only when `category=credentials` is asked for, by keyword. Page with `next_cursor`.',
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
      description:
        "Takes a `mind-export/1` document into the key's mind: `merge` or `replace`; `dry_run=true` reports without changing. A new row gets an id derived from the mind and the item's id (the same on every import of the document into this mind), never the item's own id; an item whose id (or derived id) is one of this mind's rows matches it. At most `MIND_IMPORT_MAX_ITEMS` items (413); imports at a time are limited per account and per server (429 with Retry-After).",
      query: ImportQuery,
      body: MindImport,
      responses: { 200: ImportResult, ...errors(409, 413, 429), ...bodyErrors },
      metadata: meta('mindKey', 'Memories', { bodyLimit: LARGE_BODY_LIMIT, bodyCheckedByHandler: true }),
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
            next_cursor: z
              .string()
              .nullable()
              .openapi({ description: 'Pass as `cursor` for the next page; null on the last page.', example: 'WzEsImZldGNoLWFyeGl2Il0' }),
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
