// Recall by meaning, measured through the running service: bench/recall-eval's 135 facts among 1,300
// notes are stored with POST /memory, embedded by the service's background worker, then asked for
// with paraphrased questions and with their own key words in each mode. Also the cost of the local
// embedder: embedding throughput, start time and RSS against a service with embeddings off.
//
//   node --import tsx bench/recall-quality.ts   (DATABASE_URL: also PostgreSQL)
import { performance } from 'node:perf_hooks';
import type { Client } from './lib/client.js';
import { markdownTable, type Row, row } from './lib/report.js';
import { type DatabaseKind, databaseKinds, withMindService } from './lib/servers.js';
import { loadEvalSet } from './recall-eval/data.js';

const MODES = ['keyword', 'semantic', 'hybrid'] as const;
const TARGET_HYBRID_R5 = 0.6;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function waitEmbedded(client: Client, mindKey: string): Promise<void> {
  for (const deadline = Date.now() + 600_000; Date.now() < deadline; await sleep(100)) {
    const stats = await client.ok('GET', '/memory/stats', mindKey, undefined, 200);
    if (stats.pending_embeddings === 0) return;
  }
  throw new Error('memories were not embedded within 10 minutes');
}

/** recall@1, recall@5 and MRR (over the first 10 hits) of each question's fact. */
async function score(client: Client, mindKey: string, asks: Array<{ q: string; expected: string }>, mode: string) {
  let r1 = 0;
  let r5 = 0;
  let mrr = 0;
  for (const { q, expected } of asks) {
    const query = new URLSearchParams({ q, mode, limit: '10' });
    const { memories } = await client.ok('GET', `/memory/recall?${query}`, mindKey, undefined, 200);
    const rank = (memories as Array<{ id: string }>).findIndex((m) => m.id === expected) + 1;
    if (rank === 1) r1++;
    if (rank >= 1 && rank <= 5) r5++;
    if (rank >= 1) mrr += 1 / rank;
  }
  const n = asks.length;
  return { r1: r1 / n, r5: r5 / n, mrr: mrr / n };
}

export async function benchRecallQuality(kind: DatabaseKind): Promise<Row[]> {
  const { facts, docs } = loadEvalSet();
  return withMindService(kind, {}, async (server, client) => {
    const mind = await client.newMind('recall-quality');
    const ids = new Map<string, string>();
    const started = performance.now();
    for (const doc of docs) {
      const stored = await client.ok('POST', '/memory', mind.mindKey, { category: doc.category, content: doc.content });
      ids.set(doc.id, stored.id);
    }
    await waitEmbedded(client, mind.mindKey);
    const seconds = (performance.now() - started) / 1000;
    const paraphrased = facts.map((f) => ({ q: f.question, expected: ids.get(f.id)! }));
    const keyWords = facts.map((f) => ({ q: f.keywords, expected: ids.get(f.id)! }));
    const rows: Row[] = [];
    for (const mode of MODES) {
      const asked = await score(client, mind.mindKey, paraphrased, mode);
      const exact = await score(client, mind.mindKey, keyWords, mode);
      const target = mode === 'hybrid' ? ({ op: '>=', value: TARGET_HYBRID_R5, unit: '' } as const) : undefined;
      rows.push(
        row(
          `recall quality, ${mode}: paraphrased questions (${facts.length} facts among ${docs.length} memories)`,
          kind,
          `r@1 ${asked.r1.toFixed(3)}, r@5 ${asked.r5.toFixed(3)}, MRR ${asked.mrr.toFixed(3)}; key-word queries r@1 ${exact.r1.toFixed(3)}`,
          { r1: asked.r1, r5: asked.r5, mrr: asked.mrr, keywords_r1: exact.r1, keywords_r5: exact.r5 },
          target,
          asked.r5,
        ),
      );
    }
    rows.push(
      row(
        `stored and embedded ${docs.length} memories over HTTP`,
        kind,
        `${seconds.toFixed(1)} s; server RSS ${(server.rssBytes() / 1048576).toFixed(0)} MB`,
        { seconds, rss_mb: server.rssBytes() / 1048576 },
      ),
    );
    return rows;
  });
}

/** Start time and RSS of a fresh service with embeddings off, then local (the word table built once before). */
export async function benchEmbedderCost(kind: DatabaseKind): Promise<Row[]> {
  const measure = (embeddings: string) =>
    withMindService(kind, { MIND_EMBEDDINGS: embeddings }, async (server, client) => {
      const mind = await client.newMind('embedder-cost');
      const t = performance.now();
      await client.ok('POST', '/memory', mind.mindKey, { category: 'note', content: 'warming up the embedder' });
      if (embeddings !== 'off') await waitEmbedded(client, mind.mindKey);
      const firstEmbeddingMs = performance.now() - t;
      await sleep(500);
      return { rssMb: server.rssBytes() / 1048576, firstEmbeddingMs };
    });
  const off = await measure('off');
  const local = await measure('local');
  const added = local.rssMb - off.rssMb;
  return [
    row(
      'server RSS with the local embedder loaded, against embeddings off',
      kind,
      `${local.rssMb.toFixed(0)} MB against ${off.rssMb.toFixed(0)} MB (+${added.toFixed(0)} MB); first memory embedded ${local.firstEmbeddingMs.toFixed(0)} ms after it was stored`,
      { rss_local_mb: local.rssMb, rss_off_mb: off.rssMb, added_mb: added, first_embedding_ms: local.firstEmbeddingMs },
      { op: '<=', value: 150, unit: 'MB' },
      added,
    ),
  ];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const rows: Row[] = [];
  for (const kind of databaseKinds()) rows.push(...(await benchRecallQuality(kind)), ...(await benchEmbedderCost(kind)));
  console.log(markdownTable(rows));
}
