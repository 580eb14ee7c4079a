// Deleting a mind while others write to it (issue 28, finding 5): DELETE /minds/:id must answer at
// once whatever the mind's writers do.
//   1. 8 clients write memories to the mind without pause (the embedder embeds them meanwhile);
//      the time DELETE /minds/:id takes, over several minds.
//   2. a mind that has just imported many memories (the embedder busy embedding them): the time
//      DELETE /minds/:id takes.
// Figures, not tests; bench/security.ts runs it on SQLite and PostgreSQL.
import { performance } from 'node:perf_hooks';
import type { Client } from './lib/client.js';
import { count, ms, percentile, type Row, row, sortNumbers } from './lib/report.js';
import { type DatabaseKind, withMindService } from './lib/servers.js';

const quick = Boolean(process.env.BENCH_QUICK);
const WRITERS = 8;
const ROUNDS = quick ? 2 : 5;
const IMPORTED = quick ? 1000 : 5000;

/** Writes memories to the mind until `stop()`; counts what it wrote and what failed. */
function startWriters(client: Client, mindKey: string) {
  let running = true;
  let written = 0;
  const writers = Array.from({ length: WRITERS }, async (_, w) => {
    for (let i = 0; running; i++) {
      const res = await client
        .request('POST', '/memory', mindKey, { category: 'fact', content: `writer ${w} memory ${i} about deleting minds` })
        .catch(() => ({ status: 0 }));
      if (res.status === 201) written++;
      else if (res.status === 401) return; // the key stopped working: the mind is gone
    }
  });
  return {
    written: () => written,
    async stop() {
      running = false;
      await Promise.all(writers);
    },
  };
}

async function timedDelete(client: Client, jwt: string, mindId: string): Promise<number> {
  const started = performance.now();
  const res = await client.request('DELETE', `/minds/${mindId}`, jwt);
  const took = performance.now() - started;
  if (res.status !== 204) throw new Error(`DELETE /minds/${mindId} answered ${res.status}: ${JSON.stringify(res.body)}`);
  return took;
}

async function deleteWhileWriting(client: Client): Promise<{ times: number[]; written: number }> {
  const times: number[] = [];
  let written = 0;
  for (let round = 0; round < ROUNDS; round++) {
    const mind = await client.newMind(`delete-${round}`);
    const writers = startWriters(client, mind.mindKey);
    await new Promise((r) => setTimeout(r, 1000)); // the writers in full flow
    times.push(await timedDelete(client, mind.jwt, mind.id));
    await writers.stop();
    written += writers.written();
  }
  return { times, written };
}

async function deleteWhileEmbedding(client: Client): Promise<number[]> {
  const source = await client.newMind('import-source');
  for (let i = 0; i < IMPORTED; i += 100) {
    await Promise.all(
      Array.from({ length: 100 }, (_, j) =>
        client.ok('POST', '/memory', source.mindKey, { category: 'fact', content: `imported memory ${i + j} on the deletion of minds` }),
      ),
    );
  }
  const document = (await client.ok('GET', '/memory/mind-export', source.mindKey, undefined, 200)) as Record<string, unknown>;
  const times: number[] = [];
  for (let round = 0; round < Math.min(ROUNDS, 3); round++) {
    const mind = await client.newMind(`imported-${round}`);
    // Ids taken by the source mind are replaced: every import adds IMPORTED memories to embed.
    await client.ok('POST', '/memory/mind-import', mind.mindKey, document, 200);
    times.push(await timedDelete(client, mind.jwt, mind.id));
  }
  return times;
}

export async function benchMindDelete(kind: DatabaseKind): Promise<Row[]> {
  return withMindService(kind, {}, async (_server, client) => {
    const writing = await deleteWhileWriting(client);
    const embedding = await deleteWhileEmbedding(client);
    const describe = (times: number[]) => {
      const sorted = sortNumbers(times);
      return { p50: percentile(sorted, 50), max: sorted.at(-1) ?? NaN };
    };
    const w = describe(writing.times);
    const e = describe(embedding);
    return [
      row(
        `DELETE /minds/:id while ${WRITERS} clients write to the mind`,
        kind,
        `p50 ${ms(w.p50)}, max ${ms(w.max)} over ${writing.times.length} minds (${count(writing.written)} memories written)`,
        { p50Ms: w.p50, maxMs: w.max },
      ),
      row(
        `DELETE /minds/:id right after importing ${count(IMPORTED)} memories (being embedded)`,
        kind,
        `p50 ${ms(e.p50)}, max ${ms(e.max)} over ${embedding.length} minds`,
        { p50Ms: e.p50, maxMs: e.max },
      ),
    ];
  });
}
