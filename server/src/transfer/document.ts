import {
  type ChatMessage,
  CreateScriptBody,
  CreateTaskBody,
  isIsoDateOrDateTime,
  type Memory,
  type MindImport,
  PostChatBody,
  type Script,
  StoreMemoryBody,
  type Task,
} from '@mindservice/contract';
import type { ZodError } from 'zod';
import { ApiError } from '../http/api-error.js';
import { validationErrorFrom } from '../http/validation.js';
import { normaliseDueAt } from '../tasks/service.js';
import { mapInChunks } from './chunks.js';

export const EXPORT_FORMAT = 'mind-export/1';

function timestamp(value: string, path: string): string {
  if (!isIsoDateOrDateTime(value)) throw ApiError.invalidField(path, 'must be an ISO 8601 date-time such as 2026-11-22T01:29:42.123Z');
  return new Date(value).toISOString();
}

function parse<T>(
  schema: { safeParse(v: unknown): { success: true; data: T } | { success: false; error: ZodError } },
  value: unknown,
  at: string,
): T {
  const result = schema.safeParse(value);
  if (!result.success) throw validationErrorFrom(at, result.error);
  return result.data;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function uuid(value: string, path: string): string {
  if (!UUID.test(value)) throw ApiError.invalidField(path, 'must be a UUID');
  return value.toLowerCase();
}

function unique<T>(items: T[], keyOf: (item: T) => string | null, at: (i: number) => string, what: string) {
  const seen = new Set<string>();
  items.forEach((item, i) => {
    const key = keyOf(item);
    if (key === null) return;
    if (seen.has(key)) throw ApiError.invalidField(at(i), `${what} appears twice in the document`, 'import_duplicate');
    seen.add(key);
  });
}

/** A memory's fields about time, which exports made before they existed do not carry. */
type TimeField = 'expires_at' | 'valid_from' | 'valid_to' | 'superseded_by';

/** An imported memory: a time field is undefined where the document has none (an older export), null where it says none. */
export type ImportedMemory = Omit<Memory, TimeField> & Partial<Pick<Memory, TimeField>>;

const optionalTimestamp = (value: string | null | undefined, path: string) =>
  value === undefined || value === null ? value : timestamp(value, path);

/** The item's expiry and validity, normalised; a validity that ends before it starts is the item's 400. */
function timesOf(m: MindImport['memories'][number], at: string) {
  const valid_from = optionalTimestamp(m.valid_from, `${at}.valid_from`);
  const valid_to = optionalTimestamp(m.valid_to, `${at}.valid_to`);
  if (valid_from && valid_to && valid_to <= valid_from) throw ApiError.invalidField(`${at}.valid_to`, 'must be later than valid_from');
  const superseded_by =
    m.superseded_by === undefined || m.superseded_by === null ? m.superseded_by : uuid(m.superseded_by, `${at}.superseded_by`);
  return { expires_at: optionalTimestamp(m.expires_at, `${at}.expires_at`), valid_from, valid_to, superseded_by };
}

/** The items of an import document, checked and normalised; webhooks only counted (they cannot be imported). */
export interface ImportItems {
  memories: ImportedMemory[];
  tasks: Task[];
  chat: ChatMessage[];
  scripts: Script[];
  webhooks: number;
}

/**
 * Checks every item of an import with the same rules as the create routes (an export of this
 * service always passes), and normalises timestamps; in pieces, yielding to other requests between them. Fields that only their own routes may set
 * are dropped: imported memories arrive unverified (verification is a human act; a Mind Key
 * cannot bring it along).
 */
export async function validateDocument(doc: MindImport): Promise<ImportItems> {
  const memories = await mapInChunks(doc.memories, (m, i): ImportedMemory => {
    const at = `body.memories.${i}`;
    const body = parse(
      StoreMemoryBody,
      { category: m.category, key: m.key ?? undefined, content: m.content, tags: m.tags, source: m.source ?? undefined },
      at,
    );
    return {
      id: uuid(m.id, `${at}.id`),
      category: body.category,
      key: body.key ?? null,
      content: body.content,
      tags: [...new Set(body.tags ?? [])],
      verified: false,
      verified_at: null,
      source: body.source ?? null,
      created_at: timestamp(m.created_at, `${at}.created_at`),
      updated_at: timestamp(m.updated_at, `${at}.updated_at`),
      ...timesOf(m, at),
    };
  });
  unique(
    memories,
    (m) => m.id,
    (i) => `body.memories.${i}.id`,
    'this id',
  );
  unique(
    memories,
    (m) => (m.key === null ? null : `${m.category}\u0000${m.key}`),
    (i) => `body.memories.${i}.key`,
    'this category and key',
  );

  const tasks = await mapInChunks(doc.tasks, (t, i): Task => {
    const at = `body.tasks.${i}`;
    const body = parse(CreateTaskBody, { title: t.title, description: t.description, priority: t.priority, due_at: t.due_at }, at);
    return {
      id: uuid(t.id, `${at}.id`),
      title: body.title,
      description: body.description ?? null,
      priority: body.priority ?? 'normal',
      status: t.status,
      due_at: body.due_at == null ? null : normaliseDueAt(body.due_at, `${at}.due_at`),
      created_at: timestamp(t.created_at, `${at}.created_at`),
      updated_at: timestamp(t.updated_at, `${at}.updated_at`),
      completed_at: t.completed_at === null ? null : timestamp(t.completed_at, `${at}.completed_at`),
    };
  });
  unique(
    tasks,
    (t) => t.id,
    (i) => `body.tasks.${i}.id`,
    'this id',
  );

  const chat = await mapInChunks(doc.chat, (c, i): ChatMessage => {
    const at = `body.chat.${i}`;
    const body = parse(PostChatBody, { role: c.role, content: c.content, thread: c.thread }, at);
    return {
      id: uuid(c.id, `${at}.id`),
      role: body.role,
      content: body.content,
      thread: body.thread ?? 'default',
      created_at: timestamp(c.created_at, `${at}.created_at`),
    };
  });
  unique(
    chat,
    (c) => c.id,
    (i) => `body.chat.${i}.id`,
    'this id',
  );

  const scripts = await mapInChunks(doc.scripts, (s, i): Script => {
    const at = `body.scripts.${i}`;
    const body = parse(
      CreateScriptBody,
      { name: s.name, description: s.description ?? undefined, language: s.language ?? undefined, content: s.content },
      at,
    );
    return {
      id: uuid(s.id, `${at}.id`),
      name: body.name,
      description: body.description ?? null,
      language: body.language ?? null,
      content: body.content,
      created_at: timestamp(s.created_at, `${at}.created_at`),
      updated_at: timestamp(s.updated_at, `${at}.updated_at`),
    };
  });
  unique(
    scripts,
    (s) => s.id,
    (i) => `body.scripts.${i}.id`,
    'this id',
  );
  unique(
    scripts,
    (s) => s.name,
    (i) => `body.scripts.${i}.name`,
    'this name',
  );

  return { memories, tasks, chat, scripts, webhooks: doc.webhooks.length };
}
