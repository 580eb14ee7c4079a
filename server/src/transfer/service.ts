import type { MindExport } from '@mindservice/contract';
import { listAllMessages } from '../chat/store.js';
import type { AppContext } from '../core/context.js';
import { isUniqueViolation } from '../db/errors.js';
import type { MindCaller } from '../http/caller.js';
import { ApiError } from '../http/api-error.js';
import { REDACTED } from '../memories/service.js';
import type { MemoriesStore } from '../memories/store.js';
import { findScript, listScripts } from '../mind-scripts/store.js';
import { findTask, listTasksForExport } from '../tasks/store.js';
import { webhooksForExport } from '../webhooks/service.js';
import { EXPORT_FORMAT, type ImportItems, validateDocument } from './document.js';
import { checkItemCount, ImportGate, itemsOf, OneAtATime } from './limits.js';
import type { Counts, MindLookup } from './import-plan.js';
import { planImport } from './plan.js';
import { checkItems, readEnvelope } from './schema.js';
import { countRowsOfMind, findMindInfo, holdersOf, memoryIdsByKey, scriptIdsByName } from './store.js';
import { PlanWriter } from './writer.js';

export interface ImportReport {
  dry_run: boolean;
  mode: 'merge' | 'replace';
  created: Counts;
  updated: Counts;
  deleted: Counts;
  skipped: Counts;
}

export type Exporter = { kind: 'user'; userId: string } | { kind: 'mind'; mindId: string };

/**
 * The whole mind out as one document, and back in (merge or replace). It reads and writes the rows
 * of the areas that travel through their stores (the memories store is the one the memories area
 * uses: it holds the cipher of credentials).
 */
export class TransferService {
  private readonly gate: ImportGate;
  private readonly mindsImporting = new OneAtATime();
  private readonly writer: PlanWriter;

  constructor(
    private readonly ctx: AppContext,
    private readonly memories: MemoriesStore,
  ) {
    this.writer = new PlanWriter(ctx, memories);
    this.gate = new ImportGate({
      maxItems: ctx.config.importMaxItems,
      concurrency: ctx.config.importConcurrency,
      concurrencyPerUser: ctx.config.importConcurrencyPerUser,
    });
  }

  async export(caller: Exporter, query: { mind_id?: string; include_credentials?: boolean }): Promise<MindExport> {
    if (caller.kind === 'mind' && query.include_credentials) {
      throw ApiError.forbidden('jwt_required', "include_credentials=true needs the owning human's JWT (with mind_id), not a Mind Key");
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
      const now = this.ctx.clock.now();
      // An expired memory is gone for the API, whether or not the purge has deleted it yet.
      const all = (await this.memories.listAll(trx, mindId)).filter(
        (m) => m.expires_at === null || Date.parse(m.expires_at) > now.getTime(),
      );
      return {
        format: EXPORT_FORMAT,
        exported_at: now.toISOString(),
        mind: { id: mind.id, name: mind.name, description: mind.description },
        memories: all.map((m) => (m.category === 'credentials' && !reveal ? { ...m, content: REDACTED } : m)),
        tasks: await listTasksForExport(trx, mindId),
        chat: await listAllMessages(trx, mindId),
        scripts: await listScripts(trx, mindId),
        webhooks: await webhooksForExport(trx, mindId),
      };
    });
  }

  /**
   * Imports a document (planImport says what matches what) in three steps, each in pieces with
   * other requests served between them: the items are checked (the route leaves that to schema.ts),
   * the writes planned from the rows the items can match, then written all or nothing (writer.ts: a
   * failing import leaves the mind as it was). A dry run stops after planning: it writes nothing and
   * holds no transaction. Bounded per request (MIND_IMPORT_MAX_ITEMS and the body limit) and in how many run
   * at once (ImportGate).
   */
  async import(caller: MindCaller, body: unknown, mode: 'merge' | 'replace', dryRun: boolean): Promise<ImportReport> {
    const envelope = readEnvelope(body);
    checkItemCount(envelope, this.ctx.config.importMaxItems);
    const release = this.gate.enter(caller.userId, itemsOf(envelope));
    try {
      const items = await validateDocument(await checkItems(envelope));
      // Imports into one mind are planned and written one after another: each plans from what the previous wrote.
      return await this.mindsImporting.run(caller.mindId, () => this.planAndWrite(caller.mindId, items, mode, dryRun));
    } finally {
      release();
    }
  }

  private async planAndWrite(mindId: string, items: ImportItems, mode: 'merge' | 'replace', dryRun: boolean): Promise<ImportReport> {
    for (let attempt = 1; ; attempt++) {
      const plan = await planImport(mindId, items, this.lookup(mindId), mode, this.ctx.clock.now().toISOString());
      const { created, updated, skipped } = plan;
      try {
        const deleted = dryRun ? plan.deleted : await this.writer.write(mindId, plan, mode);
        return { dry_run: dryRun, mode, created, updated, deleted, skipped };
      } catch (err) {
        // Another write gave the mind a row the plan collides with (between planning and writing):
        // nothing was written; plan again from what the mind holds now, once.
        if (!isUniqueViolation(err)) throw err;
        if (attempt === 2) {
          throw ApiError.conflict(
            'import_conflict',
            'The mind changed while this import was being written, so nothing was imported. Send the import again.',
          );
        }
      }
    }
  }

  /** The planner's reads, each its own short query (nothing is held between pieces of work). */
  private lookup(mindId: string): MindLookup {
    const { db } = this.ctx;
    return {
      holders: (table, ids) => holdersOf(db, table, ids),
      memoryKeys: (keys) => memoryIdsByKey(db, mindId, keys),
      scriptNames: (names) => scriptIdsByName(db, mindId, names),
      memory: (id) => this.memories.find(db, mindId, id),
      task: (id) => findTask(db, mindId, id),
      script: (id) => findScript(db, mindId, id),
      count: (table) => countRowsOfMind(db, table, mindId),
    };
  }
}
