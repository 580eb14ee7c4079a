import type { Memory } from '@mindservice/contract';
import { insertMessages, listAllMessages } from '../chat/store.js';
import type { AppContext } from '../core/context.js';
import type { Trx } from '../db/database.js';
import type { MemoriesStore } from '../memories/store.js';
import { lockMind } from '../minds/store.js';
import { insertScript, listScripts, updateScript } from '../mind-scripts/store.js';
import { insertImportedTask, listTasksForExport, updateTask } from '../tasks/store.js';
import { CHUNK_SIZE, yieldToOthers } from './chunks.js';
import { type Counts, type ImportPlan, type Update, zeroCounts } from './import-plan.js';
import { deleteRowsByIds, deleteRowsOfMind, type TransferTable } from './store.js';

/** One piece of an import's writes, and how to take it back; a step that `deletes` answers how many rows it deleted. */
interface Step {
  deletes?: keyof Counts;
  run(trx: Trx): Promise<unknown>;
  undo(trx: Trx): Promise<void>;
}

const pieces = <T>(items: T[]): T[][] =>
  Array.from({ length: Math.ceil(items.length / CHUNK_SIZE) }, (_, i) => items.slice(i * CHUNK_SIZE, (i + 1) * CHUNK_SIZE));

async function inOrder<T>(items: T[], fn: (item: T) => Promise<unknown>) {
  for (const item of items) await fn(item);
}

/**
 * Writes an import's plan so that a failing import leaves the mind as it was, while other requests
 * are served. Rows are written through the areas' stores as the document has them (ids, status and
 * timestamps included), without the events their routes record: an import reports what it did in
 * its answer. PostgreSQL: one transaction, the pieces with other work between them (other requests
 * have the pool's other connections). SQLite has one connection (`oneWriterAtATime`), and a
 * transaction holds it: there each piece is its own short transaction, and when one fails the pieces written are taken back, in
 * reverse order (created rows deleted, overwritten and deleted rows written back). Meanwhile the
 * mind's readers may see part of the import; if the process dies midway, the part written stays
 * (ids are derived, so importing the document again with merge completes it).
 */
export class PlanWriter {
  constructor(
    private readonly ctx: AppContext,
    private readonly memories: MemoriesStore,
  ) {}

  /** Answers what `replace` deleted. */
  async write(mindId: string, plan: ImportPlan, mode: 'merge' | 'replace'): Promise<Counts> {
    const { db, dialect } = this.ctx;
    if (!dialect.oneWriterAtATime) {
      return db.transaction(async (trx) => {
        // Imports into one mind run one after another, across instances too.
        await lockMind(trx, dialect, mindId);
        const deleted = zeroCounts();
        if (mode === 'replace') await this.emptyMind(trx, mindId, deleted);
        for (const step of this.steps(mindId, plan)) {
          await step.run(trx);
          await yieldToOthers();
        }
        await this.ctx.events.touch(trx, mindId);
        return deleted;
      });
    }
    const steps = [...(mode === 'replace' ? await this.emptyingSteps(mindId) : []), ...this.steps(mindId, plan)];
    const deleted = zeroCounts();
    const done: Step[] = [];
    try {
      for (const step of steps) {
        const rows = await db.transaction((trx) => step.run(trx));
        done.push(step);
        if (step.deletes) deleted[step.deletes] += Number(rows);
        await yieldToOthers();
      }
      await db.transaction((trx) => this.ctx.events.touch(trx, mindId));
    } catch (err) {
      for (const step of done.reverse()) {
        await db.transaction((trx) => step.undo(trx));
        await yieldToOthers();
      }
      throw err;
    }
    return deleted;
  }

  private async emptyMind(trx: Trx, mindId: string, deleted: Counts) {
    deleted.memories = await deleteRowsOfMind(trx, 'memories', mindId);
    deleted.tasks = await deleteRowsOfMind(trx, 'tasks', mindId);
    deleted.chat = await deleteRowsOfMind(trx, 'chat_messages', mindId);
    deleted.scripts = await deleteRowsOfMind(trx, 'scripts', mindId);
  }

  /** `replace` in pieces: the mind's rows read first, to be written back if the import fails. */
  private async emptyingSteps(mindId: string): Promise<Step[]> {
    const { db } = this.ctx;
    const { memories } = this;
    const deleting = <T extends { id: string }>(
      table: TransferTable,
      deletes: keyof Counts,
      rows: T[],
      putBack: (trx: Trx, rows: T[]) => Promise<void>,
    ): Step[] =>
      pieces(rows).map((piece) => ({
        deletes,
        run: (trx) =>
          deleteRowsByIds(
            trx,
            table,
            mindId,
            piece.map((r) => r.id),
          ),
        undo: (trx) => putBack(trx, piece),
      }));
    const all = await memories.listAll(db, mindId);
    // A memory put back may name one a later piece puts back: the links are written once all are back.
    const unlinked = (rows: Memory[]) => rows.map((m) => ({ ...m, superseded_by: null }));
    const relinking: Step[] = pieces(all.filter((m) => m.superseded_by !== null)).map((piece) => ({
      run: async () => undefined,
      undo: (trx) => inOrder(piece, (m) => memories.update(trx, mindId, m)),
    }));
    return [
      // First, so that undoing the import runs them last.
      ...relinking,
      ...deleting('memories', 'memories', all, (trx, rows) => memories.insertMany(trx, mindId, unlinked(rows))),
      ...deleting('tasks', 'tasks', await listTasksForExport(db, mindId), (trx, rows) =>
        inOrder(rows, (t) => insertImportedTask(trx, mindId, t)),
      ),
      ...deleting('chat_messages', 'chat', await listAllMessages(db, mindId), (trx, rows) => insertMessages(trx, mindId, rows)),
      ...deleting('scripts', 'scripts', await listScripts(db, mindId), (trx, rows) => inOrder(rows, (s) => insertScript(trx, mindId, s))),
    ];
  }

  /** The plan's writes in pieces: updates first (an updated row may give up the key or name a created one takes). */
  private steps(mindId: string, plan: ImportPlan): Step[] {
    const { memories } = this;
    const updating = <T>(updates: Array<Update<T>>, write: (trx: Trx, row: T) => Promise<unknown>): Step[] =>
      pieces(updates).map((piece) => ({
        run: (trx) => inOrder(piece, (u) => write(trx, u.row)),
        undo: (trx) => inOrder([...piece].reverse(), (u) => write(trx, u.before)),
      }));
    const creating = <T extends { id: string }>(table: TransferTable, rows: T[], insert: (trx: Trx, rows: T[]) => Promise<void>): Step[] =>
      pieces(rows).map((piece) => ({
        run: (trx) => insert(trx, piece),
        undo: async (trx) => {
          await deleteRowsByIds(
            trx,
            table,
            mindId,
            piece.map((r) => r.id),
          );
        },
      }));
    return [
      // An update writes every field of the imported row over the mind's row with its id (memories: search index at once).
      ...updating(plan.memories.update, (trx, m) => memories.update(trx, mindId, m)),
      ...creating('memories', plan.memories.create, (trx, rows) => memories.insertMany(trx, mindId, rows)),
      // Links between created memories, once both rows exist.
      ...updating(plan.memories.links, (trx, m) => memories.update(trx, mindId, m)),
      ...updating(plan.tasks.update, (trx, t) => updateTask(trx, mindId, t)),
      ...creating('tasks', plan.tasks.create, (trx, rows) => inOrder(rows, (t) => insertImportedTask(trx, mindId, t))),
      ...creating('chat_messages', plan.chat.create, (trx, rows) => insertMessages(trx, mindId, rows)),
      ...updating(plan.scripts.update, (trx, s) => updateScript(trx, mindId, s)),
      ...creating('scripts', plan.scripts.create, (trx, rows) => inOrder(rows, (s) => insertScript(trx, mindId, s))),
    ];
  }
}
