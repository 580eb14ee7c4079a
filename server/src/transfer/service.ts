import type { ChatMessage, Memory, MindExport, MindImport, Script, Task } from '@mindservice/contract';
import type { AppContext } from '../context.js';
import type { Trx } from '../db/database.js';
import { lockMind } from '../minds/store.js';
import { ApiError } from '../http/errors.js';
import type { ChatService } from '../memories/chat-service.js';
import type { ScriptsService } from '../memories/scripts-service.js';
import { type MemoriesService, REDACTED } from '../memories/service.js';
import type { TasksService } from '../tasks/service.js';
import { webhooksForExport } from '../webhooks/service.js';
import { EXPORT_FORMAT, validateDocument } from './document.js';
import { IdResolver } from './ids.js';
import { deleteRowsOfMind, findMindInfo } from './store.js';

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

/** The areas whose data travels, through their services (webhooks: webhooksForExport). */
export interface TransferAreas {
  memories: MemoriesService;
  tasks: TasksService;
  chat: ChatService;
  scripts: ScriptsService;
}

/** Thrown inside the import transaction to roll a dry run back after its report is complete. */
class DryRunRollback extends Error {}

const sameMemory = (a: Memory, b: Memory) =>
  a.category === b.category &&
  a.key === b.key &&
  a.content === b.content &&
  a.source === b.source &&
  JSON.stringify(a.tags) === JSON.stringify(b.tags);
const sameTask = (a: Task, b: Task) =>
  (['title', 'description', 'priority', 'status', 'due_at', 'completed_at'] as const).every((f) => a[f] === b[f]);
const sameScript = (a: Script, b: Script) => (['name', 'description', 'language', 'content'] as const).every((f) => a[f] === b[f]);

/** The whole mind out as one document, and back in (merge or replace). */
export class TransferService {
  constructor(
    private readonly ctx: AppContext,
    private readonly areas: TransferAreas,
  ) {}

  async export(caller: Exporter, query: { mind_id?: string; include_credentials?: boolean }): Promise<MindExport> {
    if (caller.kind === 'mind' && query.include_credentials) {
      throw ApiError.forbidden("include_credentials=true needs the owning human's JWT (with mind_id), not a Mind Key");
    }
    if (caller.kind === 'user' && query.mind_id === undefined) {
      throw ApiError.invalidField('query.mind_id', 'is required with a JWT (which of your minds to export)');
    }
    // A Mind Key exports its own mind; naming another mind is as unknown as a missing one.
    const mindId = caller.kind === 'mind' ? caller.mindId : query.mind_id!;
    if (caller.kind === 'mind' && query.mind_id !== undefined && query.mind_id !== mindId) throw ApiError.notFound('Mind');
    const reveal = caller.kind === 'user' && query.include_credentials === true;
    const { memories, tasks, chat, scripts } = this.areas;

    // One transaction: the parts of the document are of the same moment.
    return this.ctx.db.transaction(async (trx) => {
      const mind = await findMindInfo(trx, mindId, caller.kind === 'user' ? caller.userId : undefined);
      if (!mind) throw ApiError.notFound('Mind');
      const all = await memories.listForExport(trx, mindId);
      return {
        format: EXPORT_FORMAT,
        exported_at: this.ctx.clock.now().toISOString(),
        mind: { id: mind.id, name: mind.name, description: mind.description },
        memories: all.map((m) => (m.category === 'credentials' && !reveal ? { ...m, content: REDACTED } : m)),
        tasks: await tasks.listForExport(trx, mindId),
        chat: await chat.listForExport(trx, mindId),
        scripts: await scripts.listForExport(trx, mindId),
        webhooks: await webhooksForExport(trx, mindId),
      };
    });
  }

  /**
   * Imports in one transaction. Matching (merge): a memory by category and key, then by id; a script
   * by name, then by id; tasks and chat messages by id. A matched item that differs is updated, an
   * identical one skipped; chat messages never change. Everything else is created. `replace`
   * first deletes the mind's memories, tasks, chat and scripts. A dry run does all of it and rolls back.
   */
  async import(mindId: string, doc: MindImport, mode: 'merge' | 'replace', dryRun: boolean): Promise<ImportReport> {
    const items = validateDocument(doc);
    const report: ImportReport = { dry_run: dryRun, mode, created: zero(), updated: zero(), deleted: zero(), skipped: zero() };
    try {
      await this.ctx.db.transaction(async (trx) => {
        // Imports into one mind run one after another: two at once would both insert the same rows.
        await lockMind(trx, mindId);
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
    const { memories } = this.areas;
    const fresh: Memory[] = [];
    for (const item of items) {
      // A redacted credential carries no secret: importing it would overwrite or invent "[redacted]".
      if (item.category === 'credentials' && item.content === REDACTED) {
        report.skipped.memories++;
        continue;
      }
      let existing = item.key === null ? undefined : await memories.findByKeyForImport(trx, mindId, item.category, item.key);
      if (existing && ids.claimed(existing.id)) existing = undefined;
      let id = existing?.id;
      if (!existing) {
        const resolved = await ids.resolve('memories', item.id);
        id = resolved.id;
        if (resolved.exists) existing = await memories.findForImport(trx, mindId, resolved.id);
      }
      ids.claim(id!);
      if (!existing) {
        fresh.push({ ...item, id: id! });
        report.created.memories++;
      } else if (sameMemory(existing, item)) {
        report.skipped.memories++;
      } else {
        const keepsVerification = existing.content === item.content && existing.category === item.category;
        await memories.updateImported(trx, mindId, {
          ...existing,
          category: item.category,
          key: item.key,
          content: item.content,
          tags: item.tags,
          source: item.source,
          verified: keepsVerification && existing.verified,
          verified_at: keepsVerification ? existing.verified_at : null,
          updated_at: this.now(),
        });
        report.updated.memories++;
      }
    }
    await memories.insertImported(trx, mindId, fresh);
  }

  private async importTasks(trx: Trx, mindId: string, items: Task[], ids: IdResolver, report: ImportReport) {
    const { tasks } = this.areas;
    for (const item of items) {
      const { id, exists } = await ids.resolve('tasks', item.id);
      ids.claim(id);
      const existing = exists ? await tasks.findForImport(trx, mindId, id) : undefined;
      if (!existing) {
        await tasks.insertImported(trx, mindId, { ...item, id });
        report.created.tasks++;
      } else if (sameTask(existing, item)) {
        report.skipped.tasks++;
      } else {
        await tasks.updateImported(trx, mindId, { ...item, id, created_at: existing.created_at, updated_at: this.now() });
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
    await this.areas.chat.insertImported(trx, mindId, fresh);
    report.created.chat += fresh.length;
  }

  private async importScripts(trx: Trx, mindId: string, items: Script[], ids: IdResolver, report: ImportReport) {
    const { scripts } = this.areas;
    for (const item of items) {
      let existing = await scripts.findByNameForImport(trx, mindId, item.name);
      if (existing && ids.claimed(existing.id)) existing = undefined;
      let id = existing?.id;
      if (!existing) {
        const resolved = await ids.resolve('scripts', item.id);
        id = resolved.id;
        if (resolved.exists) existing = await scripts.findForImport(trx, mindId, resolved.id);
      }
      ids.claim(id!);
      if (!existing) {
        await scripts.insertImported(trx, mindId, { ...item, id: id! });
        report.created.scripts++;
      } else if (sameScript(existing, item)) {
        report.skipped.scripts++;
      } else {
        await scripts.updateImported(trx, mindId, { ...item, id: existing.id, created_at: existing.created_at, updated_at: this.now() });
        report.updated.scripts++;
      }
    }
  }
}
