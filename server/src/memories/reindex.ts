import type { Config } from '../config.js';
import type { Db } from '../db/database.js';
import { findMind } from '../minds/store.js';
import { claimPendingEmbeddings, completeEmbeddings, pendingEmbeddings, requeueAll } from './embedding-store.js';
import { createEmbedder } from './embeddings/create-embedder.js';

/**
 * `mind-service reindex [<mind-id>]`: queues every memory (of the mind, or all) for embedding and
 * embeds the queue in this process, with a progress line on stderr. Answers the exit code.
 */
export async function reindex(config: Config, db: Db, mindId: string | undefined): Promise<number> {
  if (mindId && !(await findMind(db, mindId))) {
    console.error(`No mind with id ${mindId}.`);
    return 1;
  }
  const embedder = createEmbedder({ ...config.embeddings, maxRetries: 3 });
  if (!embedder) {
    console.error('Embeddings are off (MIND_EMBEDDINGS=off): there is nothing to embed with.');
    return 1;
  }
  try {
    const queued = await requeueAll(db, mindId);
    const total = await pendingEmbeddings(db, mindId);
    console.error(`reindex: ${queued} memories queued for ${embedder.model}; ${total} waiting in all`);
    const started = Date.now();
    let done = 0;
    let shownAt = 0;
    for (;;) {
      const now = new Date();
      const claimed = await claimPendingEmbeddings(db, {
        now: now.toISOString(),
        leaseUntil: new Date(now.getTime() + 8 * config.embeddings.timeoutMs).toISOString(),
        limit: 256,
      });
      if (claimed.length === 0) break;
      const vectors = await embedder.embed(claimed.map((c) => c.text));
      done += await completeEmbeddings(
        db,
        embedder.model,
        claimed.map((c, i) => ({ claimed: c, vector: vectors[i]! })),
        new Date().toISOString(),
      );
      if (Date.now() - shownAt > 1000) {
        shownAt = Date.now();
        const rate = done / Math.max(0.001, (shownAt - started) / 1000);
        process.stderr.write(`\rreindex: ${done} of ${total} embedded (${Math.round(rate)}/s)   `);
      }
    }
    const seconds = (Date.now() - started) / 1000;
    console.error(`\rreindex: ${done} memories embedded in ${seconds.toFixed(1)} s with ${embedder.model}          `);
    return 0;
  } finally {
    await embedder.close();
  }
}
