// `pnpm bench`: every benchmark in one run, one table (Markdown on stdout, JSON in bench/results/).
// The Mind Service parts run on SQLite, and also on PostgreSQL when DATABASE_URL is set (each in a
// fresh schema, dropped afterwards). Figures, not tests: a missed target still exits 0; only a
// benchmark that could not run makes the exit code non-zero.
//
//   pnpm bench                 the full run (about 2 minutes on 2 cores; 5 with DATABASE_URL)
//   BENCH_QUICK=1 pnpm bench   short runs and small sizes, to check that everything works
import { performance } from 'node:perf_hooks';
import { relative } from 'node:path';
import { benchComputers, COMPUTERS_FULL, COMPUTERS_QUICK } from './computers.js';
import { benchBaselines, benchEndpoints, HTTP_FULL, HTTP_QUICK, withDatabaseRatios } from './http.js';
import { load, markdownTable, type Row, row, writeResults } from './lib/report.js';
import { databaseKinds, ROOT } from './lib/servers.js';
import { benchMcp, MCP_ROUNDS_FULL, MCP_ROUNDS_QUICK } from './mcp.js';
import { benchMemories, MEMORIES_FULL, MEMORIES_QUICK } from './memories.js';
import { benchRecallConversations } from './recall-conversations.js';
import { benchEmbedderCost, benchRecallQuality } from './recall-quality.js';
import { benchWebhooks, WEBHOOKS_FULL, WEBHOOKS_QUICK } from './webhooks.js';

const quick = Boolean(process.env.BENCH_QUICK);
const startedAt = new Date().toISOString();
const loadBefore = load();
const t0 = performance.now();
const rows: Row[] = [];
const failures: string[] = [];

async function step(name: string, database: string, fn: () => Promise<Row[]>) {
  const started = performance.now();
  process.stderr.write(`bench: ${name} (${database}) ... `);
  try {
    rows.push(...(await fn()));
    process.stderr.write(`${((performance.now() - started) / 1000).toFixed(0)} s\n`);
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    process.stderr.write(`FAILED\n${err instanceof Error ? err.stack : message}\n`);
    failures.push(`${name} (${database}): ${message}`);
    rows.push(row(name, database, `FAILED: ${message.split('\n')[0]}`, {}));
  }
}

let expressRps = 0;
await step('HTTP baselines', '-', async () => {
  const baselines = await benchBaselines(quick ? HTTP_QUICK : HTTP_FULL);
  expressRps = baselines.expressRps;
  return baselines.rows;
});
for (const kind of databaseKinds()) {
  if (expressRps) await step('HTTP endpoints', kind, () => benchEndpoints(kind, quick ? HTTP_QUICK : HTTP_FULL, expressRps));
  await step('MCP against REST', kind, () => benchMcp(kind, quick ? HTTP_QUICK : HTTP_FULL, quick ? MCP_ROUNDS_QUICK : MCP_ROUNDS_FULL));
  await step('remote computers', kind, () => benchComputers(kind, quick ? COMPUTERS_QUICK : COMPUTERS_FULL));
  await step('memories', kind, () => benchMemories(kind, quick ? MEMORIES_QUICK : MEMORIES_FULL));
  await step('recall quality', kind, () => benchRecallQuality(kind));
  await step('conversation recall', kind, () => benchRecallConversations(kind, quick));
  await step('embedder cost', kind, () => benchEmbedderCost(kind));
  await step('webhooks', kind, () => benchWebhooks(kind, quick ? WEBHOOKS_QUICK : WEBHOOKS_FULL));
}

// PostgreSQL's HTTP rows as shares of SQLite's, once both have run.
rows.splice(0, rows.length, ...withDatabaseRatios(rows));
const wallSeconds = (performance.now() - t0) / 1000;
const loadAfter = load();
const file = writeResults(rows, { startedAt, wallSeconds, quick, loadBefore, loadAfter, failures });
console.log(markdownTable(rows));
console.log('');
console.log(
  `${quick ? 'Quick run (BENCH_QUICK=1: short runs, small sizes); ' : ''}${wallSeconds.toFixed(0)} s in all; load average ${loadBefore.join(' ')} before, ${loadAfter.join(' ')} after.`,
);
console.log(`Written to ${relative(ROOT, file)}.`);
if (failures.length) {
  console.error(`\n${failures.length} benchmark(s) failed to run:\n  ${failures.join('\n  ')}`);
  process.exitCode = 1;
}
