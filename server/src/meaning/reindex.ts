import type { Config } from '../lib/config.js';
import { type Db, dialectFor } from '../db/database.js';
import { claimPendingEmbeddings, completeEmbeddings, pendingEmbeddings, requeueAll } from './store.js';
import { createEmbedder } from '../embeddings/create-embedder.js';

const memories = (n: number) => `${n} ${n === 1 ? 'memory' : 'memories'}`;

/**
 * The progress line on stderr: rewritten in place each second on a terminal; in a pipe or a file,
 * a whole line every few seconds (a carriage return there is noise, and the last line lacked its end).
 */
function progressLine() {
  const tty = process.stderr.isTTY === true;
  const everyMs = tty ? 1000 : 5000;
  let shownAt = Date.now();
  let shown = false;
  return {
    show(text: string) {
      if (Date.now() - shownAt < everyMs) return;
      shownAt = Date.now();
      shown = tty;
      process.stderr.write(tty ? `\r\x1b[2K${text}` : `${text}\n`);
    },
    /** Clears a line left on the terminal, so what follows starts on a line of its own. */
    end() {
      if (shown) process.stderr.write('\r\x1b[2K');
      shown = false;
    },
  };
}

/**
 * `mind-service reindex [<mind-id>]`: queues every memory (of the mind, or all) for embedding and
 * embeds the queue in this process, with progress on stderr and the outcome on stdout. A running
 * service embeds from the same queue meanwhile, so what is embedded is counted from the queue, not
 * from this process's own batches. The caller has checked that the mind exists. Answers the exit code.
 */
export async function reindex(config: Config, db: Db, mindId: string | undefined): Promise<number> {
  const embedder = createEmbedder({ ...config.embeddings, maxRetries: 3 });
  if (!embedder) {
    console.error('Embeddings are off (MIND_EMBEDDINGS=off): there is nothing to embed with.');
    return 1;
  }
  const dialect = dialectFor(config);
  const progress = progressLine();
  try {
    await requeueAll(db, mindId);
    // Counted from the queue: requeueAll's count on PostgreSQL and SQLite alike, and what a write added meanwhile.
    const total = await pendingEmbeddings(db, mindId);
    if (total === 0) {
      console.log(`reindex: nothing to embed (${mindId ? 'the mind has' : 'there are'} no memories to embed)`);
      return 0;
    }
    console.error(`reindex: ${memories(total)} queued for ${embedder.model}`);
    const started = Date.now();
    let byThis = 0;
    for (;;) {
      const now = new Date();
      const claimed = await claimPendingEmbeddings(db, dialect, {
        now: now.toISOString(),
        leaseUntil: new Date(now.getTime() + 8 * config.embeddings.timeoutMs).toISOString(),
        limit: 256,
      });
      if (claimed.length === 0) break;
      const vectors = await embedder.embed(claimed.map((c) => c.text));
      byThis += await completeEmbeddings(
        db,
        dialect,
        embedder.model,
        claimed.map((c, i) => ({ claimed: c, vector: vectors[i]! })),
        new Date().toISOString(),
      );
      const embedded = Math.max(0, total - (await pendingEmbeddings(db, mindId)));
      const rate = embedded / Math.max(0.001, (Date.now() - started) / 1000);
      progress.show(`reindex: ${embedded} of ${total} embedded (${Math.round(rate)}/s)`);
    }
    progress.end();
    // Nothing left to claim; what is still queued is held by another process (a running service) or was written meanwhile.
    const left = await pendingEmbeddings(db, mindId);
    const embedded = Math.max(0, total - left);
    const byOthers = Math.max(0, embedded - byThis);
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    let outcome = `reindex: ${embedded} of ${memories(total)} embedded with ${embedder.model} in ${seconds} s`;
    if (byOthers > 0) outcome += ` (${byThis} by this command, ${byOthers} by another process)`;
    if (left > 0) outcome += `; ${left} still queued, being embedded by another process`;
    console.log(outcome);
    return 0;
  } finally {
    progress.end();
    await embedder.close();
  }
}
