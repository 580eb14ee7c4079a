import type { AppContext } from '../core/context.js';
import { BackgroundLoop } from '../lib/background-loop.js';
import { REDACTED } from './service.js';

/** How often expired memories are looked for: they are gone for the API from their expiry on anyway. */
const PURGE_INTERVAL_MS = 60 * 1000;
/** Memories deleted by one transaction, so a backlog never holds SQLite's one connection for long. */
const PURGE_CHUNK = 200;
const ERROR_BACKOFF_MS = 60 * 1000;

interface ExpiredRow {
  id: string;
  mind_id: string;
  category: string;
  key: string | null;
  content: string;
}

/**
 * One pass: deletes every memory expired by now, a chunk a transaction, each with its
 * `memory.expired` event in the transaction of its deletion. Answers how many went.
 */
export async function purgeExpiredMemories(ctx: AppContext): Promise<number> {
  let purged = 0;
  for (;;) {
    const now = ctx.clock.now().toISOString();
    const n = await ctx.db.transaction(async (trx) => {
      const rows = (await trx('memories')
        .whereNotNull('expires_at')
        .andWhere('expires_at', '<=', now)
        .orderBy('expires_at')
        .limit(PURGE_CHUNK)
        .select('id', 'mind_id', 'category', 'key', 'content')) as ExpiredRow[];
      if (rows.length === 0) return 0;
      await trx('memories')
        .whereIn(
          'id',
          rows.map((r) => r.id),
        )
        .delete();
      for (const r of rows) {
        // What any memory event carries; a credential's text never (its row holds only ciphertext).
        const data = { id: r.id, category: r.category, key: r.key, content: r.category === 'credentials' ? REDACTED : r.content };
        await ctx.events.record(trx, r.mind_id, 'memory.expired', data);
      }
      return rows.length;
    });
    purged += n;
    if (n < PURGE_CHUNK) return purged;
  }
}

/** Deletes expired memories in the background (the API hides them from their expiry on). */
export class ExpiredMemoryPurger {
  private readonly loop: BackgroundLoop;

  constructor(ctx: AppContext) {
    this.loop = new BackgroundLoop({
      step: async () => {
        await purgeExpiredMemories(ctx);
        return PURGE_INTERVAL_MS;
      },
      log: ctx.log,
      failure: 'memory expiry: cannot delete expired memories; trying again',
      retryMs: ERROR_BACKOFF_MS,
    });
  }

  start(): void {
    this.loop.wake();
  }

  stop(): Promise<void> {
    return this.loop.stop();
  }
}
