import { createHash } from 'node:crypto';
import {
  type ChatMessage,
  CreateScriptBody,
  CreateTaskBody,
  isIsoDateOrDateTime,
  type Memory,
  type MindExport,
  PostChatBody,
  type Script,
  StoreMemoryBody,
  type Task,
} from '@mindservice/contract';
import type { AppContext } from '../context.js';
import type { Trx } from '../db/database.js';
import { ApiError, validationErrorFrom } from '../http/errors.js';
import { newId } from '../lib/secrets.js';
import { insertImportedTask, listTasksForExport, findTask, updateTask } from '../tasks/store.js';
import { normaliseDueAt } from '../tasks/service.js';
import { listWebhooksForExport } from '../webhooks/store.js';
import { insertMessages, listAllMessages } from './chat-store.js';
import { indexAtOnce } from './search-index.js';
import { REDACTED } from './service.js';
import { findScript, findScriptByName, insertScript, listScripts, updateScript } from './scripts-store.js';
import type { MemoriesStore } from './store.js';
import { deleteRowsOfMind, findMindInfo, mindOfRow, type TransferTable } from './transfer-store.js';

export const EXPORT_FORMAT = 'mind-export/1';

type Counts = { memories: number; tasks: number; chat: number; scripts: number; webhooks: number };
export interface ImportReport {
  dry_run: boolean;
  mode: 'merge' | 'replace';
  created: Counts;
  updated: Counts;
  deleted: Counts;
  skipped: Counts;
}
const zero = (): Counts => ({ memories: 0, tasks: 0, chat: 0, scripts: 0, webhooks: 0 });

export type Exporter = { kind: 'user'; userId: string } | { kind: 'mind'; mindId: string };

/** Thrown inside the import transaction to roll a dry run back after its report is complete. */
class DryRunRollback extends Error {}

/**
 * An id for an imported row whose own id is taken by another mind: derived from the target mind
 * and the source id, so importing the same document into the same mind again finds the same rows.
 */
function derivedId(mindId: string, table: TransferTable, sourceId: string): string {
  const h = createHash('sha256').update(`${mindId}:${table}:${sourceId}`).digest();
  h[6] = (h[6]! & 0x0f) | 0x50;
  h[8] = (h[8]! & 0x3f) | 0x80;
  const hex = h.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

function timestamp(value: string, path: string): string {
  if (!isIsoDateOrDateTime(value)) throw ApiError.invalidField(path, 'must be an ISO 8601 date-time such as 2026-11-22T01:29:42.123Z');
  return new Date(value).toISOString();
}

function parse<T>(schema: { safeParse(v: unknown): { success: true; data: T } | { success: false; error: import('zod').ZodError } }, value: unknown, at: string): T {
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
    if (seen.has(key)) throw ApiError.invalidField(at(i), `${what} appears twice in the document`);
    seen.add(key);
  });
}

/**
 * Checks every item of an import with the same rules as the create routes (an export of this
 * service always passes), and normalises timestamps. Fields that only their own routes may set
 * are dropped: imported memories arrive unverified (verification is a human act; a Mind Key
 * cannot bring it along).
 */
function validateDocument(doc: MindExport) {
  const memories = doc.memories.map((m, i): Memory => {
    const at = `body.memories.${i}`;
    const body = parse(StoreMemoryBody, { category: m.category, key: m.key ?? undefined, content: m.content, tags: m.tags, source: m.source ?? undefined }, at);
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
    };
  });
  unique(memories, (m) => m.id, (i) => `body.memories.${i}.id`, 'this id');
  unique(memories, (m) => (m.key === null ? null : `${m.category}\u0000${m.key}`), (i) => `body.memories.${i}.key`, 'this category and key');

  const tasks = doc.tasks.map((t, i): Task => {
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
  unique(tasks, (t) => t.id, (i) => `body.tasks.${i}.id`, 'this id');

  const chat = doc.chat.map((c, i): ChatMessage => {
    const at = `body.chat.${i}`;
    const body = parse(PostChatBody, { role: c.role, content: c.content, thread: c.thread }, at);
    return { id: uuid(c.id, `${at}.id`), role: body.role, content: body.content, thread: body.thread ?? 'default', created_at: timestamp(c.created_at, `${at}.created_at`) };
  });
  unique(chat, (c) => c.id, (i) => `body.chat.${i}.id`, 'this id');

  const scripts = doc.scripts.map((s, i): Script => {
    const at = `body.scripts.${i}`;
    const body = parse(CreateScriptBody, { name: s.name, description: s.description ?? undefined, language: s.language ?? undefined, content: s.content }, at);
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
  unique(scripts, (s) => s.id, (i) => `body.scripts.${i}.id`, 'this id');
  unique(scripts, (s) => s.name, (i) => `body.scripts.${i}.name`, 'this name');

  return { memories, tasks, chat, scripts, webhooks: doc.webhooks.length };
}

const sameMemory = (a: Memory, b: Memory) =>
  a.category === b.category && a.key === b.key && a.content === b.content && a.source === b.source && JSON.stringify(a.tags) === JSON.stringify(b.tags);
const sameTask = (a: Task, b: Task) => (['title', 'description', 'priority', 'status', 'due_at', 'completed_at'] as const).every((f) => a[f] === b[f]);
const sameScript = (a: Script, b: Script) => (['name', 'description', 'language', 'content'] as const).every((f) => a[f] === b[f]);

/** The whole mind out as one document, and back in (merge or replace). */
export class TransferService {
  constructor(
    private readonly ctx: AppContext,
    private readonly memories: MemoriesStore,
  ) {}

  async export(caller: Exporter, query: { mind_id?: string; include_credentials?: boolean }): Promise<MindExport> {
    if (caller.kind === 'mind' && query.include_credentials) {
      throw ApiError.forbidden('include_credentials=true needs the owning human\'s JWT (with mind_id), not a Mind Key');
    }
    if (caller.kind === 'user' && query.mind_id === undefined) {
      throw ApiError.invalidField('query.mind_id', 'is required with a JWT (which of your minds to export)');
    }
    // A Mind Key exports its own mind; naming another mind is as unknown as a missing one.
    const mindId = caller.kind === 'mind' ? caller.mindId : query.mind_id!;
    if (caller.kind === 'mind' && query.mind_id !== undefined && query.mind_id !== mindId) throw ApiError.notFound('Mind');
    const reveal = caller.kind === 'user' && query.include_credentials === true;

    // One transaction: the parts of the document are of the same moment.
    return this.ctx.db.transaction(async (trx) => {
      const mind = await findMindInfo(trx, mindId, caller.kind === 'user' ? caller.userId : undefined);
      if (!mind) throw ApiError.notFound('Mind');
      const memories = await this.memories.listAll(trx, mindId);
      return {
        format: EXPORT_FORMAT,
        exported_at: this.ctx.clock.now().toISOString(),
        mind: { id: mind.id, name: mind.name, description: mind.description },
        memories: memories.map((m) => (m.category === 'credentials' && !reveal ? { ...m, content: REDACTED } : m)),
        tasks: await listTasksForExport(trx, mindId),
        chat: await listAllMessages(trx, mindId),
        scripts: await listScripts(trx, mindId),
        webhooks: await listWebhooksForExport(trx, mindId),
      };
    });
  }

  /**
   * Imports in one transaction. Matching (merge): a memory by category and key, then by id; a script
   * by name, then by id; tasks and chat messages by id. A matched item that differs is updated, an
   * identical one skipped; chat messages never change. Everything else is created. `replace`
   * first deletes the mind's memories, tasks, chat and scripts. A dry run does all of it and rolls back.
   */
  async import(mindId: string, doc: MindExport, mode: 'merge' | 'replace', dryRun: boolean): Promise<ImportReport> {
    const items = validateDocument(doc);
    const report: ImportReport = { dry_run: dryRun, mode, created: zero(), updated: zero(), deleted: zero(), skipped: zero() };
    try {
      await this.ctx.db.transaction(async (trx) => {
        if (mode === 'replace') {
          report.deleted.memories = await deleteRowsOfMind(trx, 'memories', mindId);
          report.deleted.tasks = await deleteRowsOfMind(trx, 'tasks', mindId);
          report.deleted.chat = await deleteRowsOfMind(trx, 'chat_messages', mindId);
          report.deleted.scripts = await deleteRowsOfMind(trx, 'scripts', mindId);
        }
        const ids = new IdResolver(trx, mindId);
        await this.importMemories(trx, mindId, items.memories, ids, report);
        await this.importTasks(trx, mindId, items.tasks, ids, report);
        await this.importChat(trx, mindId, items.chat, ids, report);
        await this.importScripts(trx, mindId, items.scripts, ids, report);
        // Exports carry no webhook secrets, so webhooks cannot be recreated from them.
        report.skipped.webhooks = items.webhooks;
        await this.ctx.events.touch(trx, mindId);
        if (dryRun) throw new DryRunRollback();
      });
    } catch (err) {
      if (!(err instanceof DryRunRollback)) throw err;
    }
    return report;
  }

  private now() {
    return this.ctx.clock.now().toISOString();
  }

  private async importMemories(trx: Trx, mindId: string, items: Memory[], ids: IdResolver, report: ImportReport) {
    const fresh: Memory[] = [];
    for (const item of items) {
      // A redacted credential carries no secret: importing it would overwrite or invent "[redacted]".
      if (item.category === 'credentials' && item.content === REDACTED) {
        report.skipped.memories++;
        continue;
      }
      let existing = item.key === null ? undefined : await this.memories.findByKey(trx, mindId, item.category, item.key);
      if (existing && ids.claimed(existing.id)) existing = undefined;
      let id = existing?.id;
      if (!existing) {
        const resolved = await ids.resolve('memories', item.id);
        id = resolved.id;
        if (resolved.exists) existing = await this.memories.find(trx, mindId, resolved.id);
      }
      ids.claim(id!);
      if (!existing) {
        fresh.push({ ...item, id: id! });
        report.created.memories++;
      } else if (sameMemory(existing, item)) {
        report.skipped.memories++;
      } else {
        const keepsVerification = existing.content === item.content && existing.category === item.category;
        await this.memories.update(
          trx,
          mindId,
          {
            ...existing,
            category: item.category,
            key: item.key,
            content: item.content,
            tags: item.tags,
            source: item.source,
            verified: keepsVerification && existing.verified,
            verified_at: keepsVerification ? existing.verified_at : null,
            updated_at: this.now(),
          },
          indexAtOnce,
        );
        report.updated.memories++;
      }
    }
    await this.memories.insertMany(trx, mindId, fresh);
  }

  private async importTasks(trx: Trx, mindId: string, items: Task[], ids: IdResolver, report: ImportReport) {
    for (const item of items) {
      const { id, exists } = await ids.resolve('tasks', item.id);
      ids.claim(id);
      const existing = exists ? await findTask(trx, mindId, id) : undefined;
      if (!existing) {
        await insertImportedTask(trx, mindId, { ...item, id });
        report.created.tasks++;
      } else if (sameTask(existing, item)) {
        report.skipped.tasks++;
      } else {
        await updateTask(trx, mindId, { ...item, id, created_at: existing.created_at, updated_at: this.now() });
        report.updated.tasks++;
      }
    }
  }

  private async importChat(trx: Trx, mindId: string, items: ChatMessage[], ids: IdResolver, report: ImportReport) {
    const fresh: ChatMessage[] = [];
    for (const item of items) {
      const { id, exists } = await ids.resolve('chat_messages', item.id);
      ids.claim(id);
      if (exists) report.skipped.chat++;
      else fresh.push({ ...item, id });
    }
    await insertMessages(trx, mindId, fresh);
    report.created.chat += fresh.length;
  }

  private async importScripts(trx: Trx, mindId: string, items: Script[], ids: IdResolver, report: ImportReport) {
    for (const item of items) {
      let existing = await findScriptByName(trx, mindId, item.name);
      if (existing && ids.claimed(existing.id)) existing = undefined;
      let id = existing?.id;
      if (!existing) {
        const resolved = await ids.resolve('scripts', item.id);
        id = resolved.id;
        if (resolved.exists) existing = await findScript(trx, mindId, resolved.id);
      }
      ids.claim(id!);
      if (!existing) {
        await insertScript(trx, mindId, { ...item, id: id! });
        report.created.scripts++;
      } else if (sameScript(existing, item)) {
        report.skipped.scripts++;
      } else {
        await updateScript(trx, mindId, { ...item, id: existing.id, created_at: existing.created_at, updated_at: this.now() });
        report.updated.scripts++;
      }
    }
  }
}

/**
 * Chooses the id of an imported row: its own id when that is this mind's row (matched) or free
 * (so a backup restored into its own mind keeps its ids); when another mind holds it, an id
 * derived from this mind and the source id. A row already written by this import is never matched twice.
 */
class IdResolver {
  private readonly used = new Set<string>();

  constructor(
    private readonly trx: Trx,
    private readonly mindId: string,
  ) {}

  claim(id: string) {
    this.used.add(id);
  }

  claimed(id: string) {
    return this.used.has(id);
  }

  async resolve(table: TransferTable, sourceId: string): Promise<{ id: string; exists: boolean }> {
    if (!this.used.has(sourceId)) {
      const holder = await mindOfRow(this.trx, table, sourceId);
      if (holder === undefined) return { id: sourceId, exists: false };
      if (holder === this.mindId) return { id: sourceId, exists: true };
    }
    const derived = derivedId(this.mindId, table, sourceId);
    if (this.used.has(derived)) return { id: newId(), exists: false };
    return { id: derived, exists: (await mindOfRow(this.trx, table, derived)) === this.mindId };
  }
}
