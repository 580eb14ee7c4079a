import type { Script, Task } from '@mindservice/contract';
import { inChunks } from './chunks.js';
import type { ImportItems } from './document.js';
import { ImportIds } from './ids.js';
import { fetchAll, type ImportPlan, type MindLookup, zeroCounts } from './import-plan.js';
import { planMemories } from './plan-memories.js';
import type { TransferTable } from './store.js';

const sameTask = (a: Task, b: Task) =>
  (['title', 'description', 'priority', 'status', 'due_at', 'completed_at'] as const).every((f) => a[f] === b[f]);
const sameScript = (a: Script, b: Script) => (['name', 'description', 'language', 'content'] as const).every((f) => a[f] === b[f]);

/**
 * Decides every write of an import, in pieces that yield to other requests, reading only rows the
 * items can match. Matching (merge): a memory by category and key, then by id; a script by name,
 * then by id; tasks and chat messages by id (an id matches the mind's row with that id, or the one
 * an earlier import derived from it: ids.ts). A matched item that differs is updated, an identical one
 * skipped; chat messages never change. Everything else is created. `replace` matches nothing: the
 * mind's rows are deleted first.
 */
export async function planImport(
  mindId: string,
  items: ImportItems,
  lookup: MindLookup,
  mode: 'merge' | 'replace',
  now: string,
): Promise<ImportPlan> {
  const replace = mode === 'replace';
  const plan: ImportPlan = {
    memories: { create: [], update: [], links: [] },
    tasks: { create: [], update: [] },
    chat: { create: [] },
    scripts: { create: [], update: [] },
    created: zeroCounts(),
    updated: zeroCounts(),
    skipped: zeroCounts(),
    deleted: zeroCounts(),
  };
  if (replace) {
    plan.deleted.memories = await lookup.count('memories');
    plan.deleted.tasks = await lookup.count('tasks');
    plan.deleted.chat = await lookup.count('chat_messages');
    plan.deleted.scripts = await lookup.count('scripts');
  }
  // Exports carry no webhook secrets, so webhooks cannot be recreated from them.
  plan.skipped.webhooks = items.webhooks;
  const idsFor = async (table: TransferTable, ids: ImportIds, chunk: Array<{ id: string }>) =>
    ids.learn(await lookup.holders(table, ids.candidates(chunk.map((item) => item.id))));

  await planMemories(mindId, items.memories, lookup, replace, now, plan);

  const taskIds = new ImportIds(mindId, 'tasks', replace);
  await inChunks(items.tasks, async (chunk) => {
    await idsFor('tasks', taskIds, chunk);
    const matched = chunk.map((item) => {
      const id = taskIds.ownRow(item.id);
      if (id !== undefined) taskIds.claim(id);
      return id;
    });
    const existing = await fetchAll(matched, (id) => lookup.task(id));
    for (const [i, item] of chunk.entries()) {
      const old = existing.get(matched[i] ?? '');
      if (!old) {
        plan.tasks.create.push({ ...item, id: taskIds.forNewRow(item.id) });
        plan.created.tasks++;
      } else if (sameTask(old, item)) {
        plan.skipped.tasks++;
      } else {
        plan.tasks.update.push({ row: { ...item, id: old.id, created_at: old.created_at, updated_at: now }, before: old });
        plan.updated.tasks++;
      }
    }
  });

  const chatIds = new ImportIds(mindId, 'chat_messages', replace);
  await inChunks(items.chat, async (chunk) => {
    await idsFor('chat_messages', chatIds, chunk);
    for (const item of chunk) {
      const existing = chatIds.ownRow(item.id);
      if (existing !== undefined) {
        chatIds.claim(existing);
        plan.skipped.chat++;
      } else {
        plan.chat.create.push({ ...item, id: chatIds.forNewRow(item.id) });
        plan.created.chat++;
      }
    }
  });

  const scriptIds = new ImportIds(mindId, 'scripts', replace);
  await inChunks(items.scripts, async (chunk) => {
    await idsFor('scripts', scriptIds, chunk);
    const byName = replace ? new Map<string, string>() : await lookup.scriptNames(chunk.map((s) => s.name));
    const matched = chunk.map((item) => {
      let id = byName.get(item.name);
      if (id !== undefined && scriptIds.isClaimed(id)) id = undefined;
      id ??= scriptIds.ownRow(item.id);
      if (id !== undefined) scriptIds.claim(id);
      return id;
    });
    const existing = await fetchAll(matched, (id) => lookup.script(id));
    for (const [i, item] of chunk.entries()) {
      const old = existing.get(matched[i] ?? '');
      if (!old) {
        plan.scripts.create.push({ ...item, id: scriptIds.forNewRow(item.id) });
        plan.created.scripts++;
      } else if (sameScript(old, item)) {
        plan.skipped.scripts++;
      } else {
        plan.scripts.update.push({ row: { ...item, id: old.id, created_at: old.created_at, updated_at: now }, before: old });
        plan.updated.scripts++;
      }
    }
  });
  return plan;
}
