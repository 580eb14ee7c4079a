// Memories over time: keyword recall over 100,000 memories of which half are expired or past (the
// statements of a write with `supersedes`: server/test/memories.time-statements.test.ts).
//   node --import tsx bench/memories-time.ts   (BENCH_QUICK=1 for 10,000 memories; DATABASE_URL: also PostgreSQL)
//   BENCH_PLAIN=1: every memory current (the run to compare with the commit before, which has no time fields).
import { performance } from 'node:perf_hooks';
import type { Memory } from '@mindservice/contract';
import { Client } from './lib/client.js';
import { count, markdownTable, ms, percentile, type Row, row, sortNumbers } from './lib/report.js';
import { createDataPlace, type DatabaseKind, databaseKinds, startMindService } from './lib/servers.js';
import { CATEGORIES, TextGenerator } from './lib/text.js';
import { seed } from './memories.js';

const TARGETS = { p50: 10, p99: 50 };
const TOTAL = process.env.BENCH_QUICK ? 10_000 : 100_000;
const QUERIES_PER_KIND = 200;
const PLAIN = Boolean(process.env.BENCH_PLAIN);

/** Of each run of every category: two current, one expired an hour ago, one whose fact ended yesterday (unless PLAIN). */
function timesOf(): (n: number) => Partial<Memory> {
  const hourAgo = new Date(Date.now() - 3600_000).toISOString();
  const yesterday = new Date(Date.now() - 86_400_000).toISOString();
  return (n) => {
    // By runs of every category, so each category (and tag, and word) is half current too.
    const kind = PLAIN ? 0 : Math.floor(n / CATEGORIES.length) % 4;
    return kind === 1 ? { expires_at: hourAgo } : kind === 3 ? { valid_to: yesterday } : {};
  };
}

async function benchTime(kind: DatabaseKind): Promise<Row[]> {
  const place = await createDataPlace(kind);
  const server = await startMindService(place, { MIND_EMBEDDINGS: 'off' });
  let client = new Client(server.url);
  const text = new TextGenerator(42);
  try {
    const mind = await client.newMind('bench-memories-time');
    const seedSeconds = await seed(place, mind.id, TOTAL, text, timesOf());
    client.close();
    client = new Client(server.url);
    const kinds: Record<string, () => string> = {
      words: () => new URLSearchParams({ q: text.words(1 + Math.floor(text.random() * 3)) }).toString(),
      word_category: () => new URLSearchParams({ q: text.word(), category: text.pick(CATEGORIES) }).toString(),
      newest: () => '',
      tag: () => new URLSearchParams({ tags: text.word() }).toString(),
    };
    const all: number[] = [];
    const byKind: string[] = [];
    let hits = 0;
    for (const [name, query] of Object.entries(kinds)) {
      const url = () => `/memory/recall?${query()}&mode=keyword`;
      for (let i = 0; i < 20; i++) await client.ok('GET', url(), mind.mindKey, undefined, 200);
      const times: number[] = [];
      for (let i = 0; i < QUERIES_PER_KIND; i++) {
        const t = performance.now();
        const body = await client.ok('GET', url(), mind.mindKey, undefined, 200);
        times.push(performance.now() - t);
        hits += body.memories.length;
      }
      const sorted = sortNumbers(times);
      byKind.push(`${name.replace(/_/g, ' ')} ${percentile(sorted, 50).toFixed(1)}/${percentile(sorted, 99).toFixed(1)}`);
      all.push(...times);
    }
    const stats = await client.ok('GET', '/memory/stats', mind.mindKey, undefined, 200);
    const sorted = sortNumbers(all);
    const [p50, p99] = [percentile(sorted, 50), percentile(sorted, 99)];
    const what = PLAIN ? 'every one current' : 'half expired or past';
    const label = `recall (mode=keyword) over ${count(TOTAL)} memories, ${what}: p50 / p99`;
    const detail = `${count(all.length)} queries; p50/p99 ms by kind: ${byKind.join(', ')}; ${(hits / all.length).toFixed(1)} hits each; stats total ${count(stats.total)}; seeded in ${seedSeconds.toFixed(0)} s`;
    return [
      row(
        label,
        kind,
        `${ms(p50)} / ${ms(p99)} (${detail})`,
        { p50_ms: p50, p99_ms: p99 },
        { op: '<=', value: TARGETS.p50, unit: 'ms' },
        p50,
      ),
      row(`${label.replace(': p50 / p99', '')}: p99`, kind, ms(p99), { p99_ms: p99 }, { op: '<=', value: TARGETS.p99, unit: 'ms' }, p99),
    ];
  } finally {
    client.close();
    await server.stop();
    await place.remove();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const rows: Row[] = [];
  for (const kind of databaseKinds()) rows.push(...(await benchTime(kind)));
  console.log(markdownTable(rows));
}
