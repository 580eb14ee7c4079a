import {
  bodyErrors,
  c,
  errors,
  Id,
  IsoDateOrDateTime,
  IsoDateTime,
  LARGE_BODY_LIMIT,
  meta,
  NonBlank,
  QueryBoolean,
  Timestamp,
} from './common.js';
import { ChatMessage, ChatRole } from './chat.js';
import { Memory, MemoryCategory, Tags } from './memories.js';
import { SCRIPT_CONTENT, SCRIPT_DESCRIPTION, Script } from './scripts.js';
import { DueAt, Task, TaskPriority, TaskStatus } from './tasks.js';
import { z } from './zod.js';

/** The most of each kind one mind document may carry (its 25 MB body limit bounds it too). */
export const IMPORT_LIMITS = { memories: 250_000, tasks: 100_000, chat: 250_000, scripts: 10_000, webhooks: 20 } as const;

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
  .openapi('MindExport', {
    description:
      "The whole mind as one versioned document. Webhook secrets are never exported, nor expired memories; `superseded_by` names the replacing memory's id in the document. A memory's earlier versions stay on the server.",
  });
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
          expires_at: IsoDateTime.nullish(),
          valid_from: IsoDateTime.nullish(),
          valid_to: IsoDateTime.nullish(),
          superseded_by: z
            .string()
            .uuid()
            .nullish()
            .openapi({ description: "The id, in this document, of the memory that replaced it (becomes that memory's new id)." }),
        }),
      )
      .max(IMPORT_LIMITS.memories)
      .openapi({
        description:
          'Ids unique; a category and key at most once. `verified` is not imported (a human verifies). An item already expired is skipped; an item without the time fields (an older export) leaves those of the row it updates as they are.',
      }),
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

/** The whole mind out and in; composed into `memoriesContract` (index.ts). */
export const transferRoutes = c.router({
  exportMind: {
    method: 'GET',
    path: '/memory/mind-export',
    summary: 'Export the mind',
    description:
      'The whole mind as one JSON document (`format: "mind-export/1"`). `credentials` content is `[redacted]` unless the owner asks with a JWT and `include_credentials=true` (then `mind_id` names the mind). With a JWT, a request without `mind_id` is 400 (a person may have several minds).',
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
      "Takes a `mind-export/1` document into the key's mind: `merge` or `replace`; `dry_run=true` reports without changing. A new row gets an id derived from the mind and the item's id (the same on every import of the document into this mind), never the item's own id; an item whose id (or derived id) is one of this mind's rows matches it. At most `MIND_IMPORT_MAX_ITEMS` items (413); imports at a time are limited per account and per server (429 with Retry-After). An item that appears twice in the document is 400 (`import_duplicate`), and nothing is imported.",
    query: ImportQuery,
    body: MindImport,
    responses: { 200: ImportResult, ...errors(409, 413, 429), ...bodyErrors },
    metadata: meta('mindKey', 'Memories', { bodyLimit: LARGE_BODY_LIMIT, bodyCheckedByHandler: true }),
  },
});
