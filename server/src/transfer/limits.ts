import { ApiError } from '../http/api-error.js';

/** What one import may cost, and how many run at once (MIND_IMPORT_* in lib/config.ts). */
export interface ImportLimits {
  /** Items of one document, all arrays counted together. */
  maxItems: number;
  /** Imports of the largest size (dry runs included) running at once in this server process. */
  concurrency: number;
  /** The same for one account (all its minds together). */
  concurrencyPerUser: number;
}

/** Seconds a refused import is told to wait: an import of the largest allowed document takes a few. */
const RETRY_AFTER_SECONDS = 5;

/** A document's arrays, items not yet checked. */
type ItemArrays = Record<'memories' | 'tasks' | 'chat' | 'scripts' | 'webhooks', unknown[]>;

export const itemsOf = (doc: ItemArrays) =>
  doc.memories.length + doc.tasks.length + doc.chat.length + doc.scripts.length + doc.webhooks.length;

/** Refuses (413) a document with more items than one import takes, before any work on them. */
export function checkItemCount(doc: ItemArrays, maxItems: number): void {
  const count = itemsOf(doc);
  if (count <= maxItems) return;
  throw new ApiError(
    413,
    `body: the document holds ${count.toLocaleString('en')} items (memories, tasks, chat messages, scripts and webhooks together); ` +
      `one import takes at most ${maxItems.toLocaleString('en')} (MIND_IMPORT_MAX_ITEMS). Split it into documents of at most that many ` +
      'items and import them one after another (with mode=replace, only the first; the rest with mode=merge).',
    { code: 'import_too_large' },
  );
}

const tooMany = (message: string) =>
  new ApiError(429, message, { code: 'imports_busy', headers: { 'Retry-After': String(RETRY_AFTER_SECONDS) } });

/** An import counts as at least this many items: even a small one is a transaction and a few queries. */
const SMALLEST_WEIGHT = 1_000;
const items = (n: number) => n.toLocaleString('en');

/**
 * Admits imports up to the limits, counted in items being imported: per account and for the whole
 * process, MIND_IMPORT_CONCURRENCY_PER_USER and MIND_IMPORT_CONCURRENCY imports of the largest size
 * (MIND_IMPORT_MAX_ITEMS), smaller ones in proportion (at least 1,000 items each). A large import
 * holds memory, and on PostgreSQL a pooled connection while it writes. Over a limit the import is
 * refused at once (429 with Retry-After), never queued.
 */
export class ImportGate {
  private running = 0;
  private readonly perUser = new Map<string, number>();

  constructor(private readonly limits: ImportLimits) {}

  /** Admits an import of `itemCount` items for the account, or throws the 429 naming the limit; call the answer when it ends. */
  enter(userId: string, itemCount: number): () => void {
    const { maxItems, concurrency, concurrencyPerUser } = this.limits;
    const weight = Math.max(itemCount, Math.min(SMALLEST_WEIGHT, maxItems));
    const mine = this.perUser.get(userId) ?? 0;
    if (mine + weight > concurrencyPerUser * maxItems) {
      throw tooMany(
        `This account is importing ${items(mine)} items already; an account imports at most ${items(concurrencyPerUser * maxItems)} ` +
          `at a time (MIND_IMPORT_CONCURRENCY_PER_USER=${concurrencyPerUser} imports of up to MIND_IMPORT_MAX_ITEMS=${items(maxItems)} items; ` +
          `a small import counts as ${items(Math.min(SMALLEST_WEIGHT, maxItems))}). Retry when its imports have answered.`,
      );
    }
    if (this.running + weight > concurrency * maxItems) {
      throw tooMany(
        `The server is importing ${items(this.running)} items already; it imports at most ${items(concurrency * maxItems)} at a time ` +
          `(MIND_IMPORT_CONCURRENCY=${concurrency} imports of up to MIND_IMPORT_MAX_ITEMS=${items(maxItems)} items). Retry in a few seconds.`,
      );
    }
    this.running += weight;
    this.perUser.set(userId, mine + weight);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.running -= weight;
      const left = (this.perUser.get(userId) ?? weight) - weight;
      if (left > 0) this.perUser.set(userId, left);
      else this.perUser.delete(userId);
    };
  }
}

/** Runs tasks of the same key one after another (in this process), tasks of different keys side by side. */
export class OneAtATime {
  private readonly tails = new Map<string, Promise<unknown>>();

  run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const before = this.tails.get(key) ?? Promise.resolve();
    const result = before.then(task, task);
    const tail = result.catch(() => undefined);
    this.tails.set(key, tail);
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return result;
  }
}
