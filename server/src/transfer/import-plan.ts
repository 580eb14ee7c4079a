import type { ChatMessage, Memory, Script, Task } from '@mindservice/contract';
import type { TransferTable } from './store.js';

// What an import's planner reads and decides (plan.ts, plan-memories.ts) and its writer writes (writer.ts).

export type Counts = { memories: number; tasks: number; chat: number; scripts: number; webhooks: number };
export const zeroCounts = (): Counts => ({ memories: 0, tasks: 0, chat: 0, scripts: 0, webhooks: 0 });

/** What the planner reads of the database: only rows the document's items can match, a piece at a time. */
export interface MindLookup {
  /** Which mind holds each of these ids (any mind: ids are global). */
  holders(table: TransferTable, ids: string[]): Promise<Map<string, string>>;
  /** The mind's memories with these categories and keys (by `category\0key`): their ids. */
  memoryKeys(keys: Array<[string, string]>): Promise<Map<string, string>>;
  /** The mind's scripts with these names: their ids. */
  scriptNames(names: string[]): Promise<Map<string, string>>;
  memory(id: string): Promise<Memory | undefined>;
  task(id: string): Promise<Task | undefined>;
  script(id: string): Promise<Script | undefined>;
  /** How many rows of the table the mind has (what `replace` deletes). */
  count(table: TransferTable): Promise<number>;
}

/** A row an import overwrites: what it writes, and what was there (to put back if the import fails). */
export interface Update<T> {
  row: T;
  before: T;
}

/** Everything an import writes, decided before the first write; and what it reports. */
export interface ImportPlan {
  /** `links`: a `superseded_by` between two rows the import creates, written once both exist. */
  memories: { create: Memory[]; update: Array<Update<Memory>>; links: Array<Update<Memory>> };
  tasks: { create: Task[]; update: Array<Update<Task>> };
  chat: { create: ChatMessage[] };
  scripts: { create: Script[]; update: Array<Update<Script>> };
  created: Counts;
  updated: Counts;
  skipped: Counts;
  /** With `replace`: the rows the mind had when planned (the write counts what it deletes). */
  deleted: Counts;
}

export /** Fetches the rows matched in one piece, one after another. */
async function fetchAll<T>(ids: Array<string | null | undefined>, fetch: (id: string) => Promise<T | undefined>): Promise<Map<string, T>> {
  const found = new Map<string, T>();
  for (const id of ids) {
    if (id === undefined || id === null) continue;
    const row = await fetch(id);
    if (row !== undefined) found.set(id, row);
  }
  return found;
}
