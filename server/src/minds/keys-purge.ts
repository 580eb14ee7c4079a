import type { AppContext } from '../core/context.js';
import { BackgroundLoop } from '../lib/background-loop.js';
import { deleteExpiredConsoleKeys } from './keys-store.js';

/** How often expired console keys are looked for: they are refused from their expiry on anyway. */
const PURGE_INTERVAL_MS = 10 * 60 * 1000;
/** Keys deleted by one statement, so a backlog never holds SQLite's one connection for long. */
const PURGE_CHUNK = 500;
const ERROR_BACKOFF_MS = 60 * 1000;

/** One pass: deletes every expired console key, a chunk at a time; answers how many went. */
export async function purgeExpiredConsoleKeys(ctx: AppContext): Promise<number> {
  let purged = 0;
  for (;;) {
    const n = await deleteExpiredConsoleKeys(ctx.db, ctx.clock.now().toISOString(), PURGE_CHUNK);
    purged += n;
    if (n < PURGE_CHUNK) return purged;
  }
}

/**
 * Deletes expired keys of source `console` in the background: the console makes one each time a mind is
 * opened and keeps it an hour at most, so without this they would pile up in `mind_keys`. Keys of
 * other sources stay after expiry, listed, so their owner sees why an agent is refused.
 */
export class ConsoleKeyPurger {
  private readonly loop: BackgroundLoop;

  constructor(ctx: AppContext) {
    this.loop = new BackgroundLoop({
      step: async () => {
        await purgeExpiredConsoleKeys(ctx);
        return PURGE_INTERVAL_MS;
      },
      log: ctx.log,
      failure: 'console key purge: cannot delete expired console keys; trying again',
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
