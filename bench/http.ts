// HTTP throughput: the two baselines and four Mind Service endpoints, measured the same way with
// autocannon (a 1 s warm-up, then the measured run). Every server runs in its own child process.
//
//   node --import tsx bench/http.ts        (BENCH_QUICK=1: 1 s runs; DATABASE_URL: also PostgreSQL)
import autocannon from 'autocannon';
import { Client, inBatches } from './lib/client.js';
import { count, markdownTable, ms, type Row, row } from './lib/report.js';
import { createDataPlace, type DatabaseKind, databaseKinds, startChild, startMindService } from './lib/servers.js';
import { CATEGORIES, TextGenerator } from './lib/text.js';

export interface HttpOptions {
  connections: number;
  durationS: number;
  warmupS: number;
  /** Memories in the mind that recall and POST /memory are measured on. */
  memories: number;
}

export const HTTP_FULL: HttpOptions = { connections: 10, durationS: 5, warmupS: 1, memories: 1000 };
export const HTTP_QUICK: HttpOptions = { connections: 10, durationS: 1, warmupS: 1, memories: 200 };
/** The target: GET /mind/tasks at least this share of the Express hello-world. */
const TASKS_VS_EXPRESS = 0.7;
const TASKS_LIST = 'GET /mind/tasks (20 tasks)';
/**
 * Rows compared across the databases (issue 32: the scale-out path must not be the slow path): on
 * PostgreSQL at least this share of SQLite's req/s; undefined, the share is shown without a target.
 */
const POSTGRES_VS_SQLITE: Record<string, number | undefined> = { [TASKS_LIST]: 0.8, 'POST /memory': 0.6, 'POST /mind/task': undefined };

export interface Measured {
  rps: number;
  p50: number;
  p99: number;
  failed: number;
}

export async function measure(opts: HttpOptions, request: autocannon.Options): Promise<Measured> {
  const base = { connections: opts.connections, ...request };
  await autocannon({ ...base, duration: opts.warmupS });
  const result = await autocannon({ ...base, duration: opts.durationS });
  const failed = result.non2xx + result.errors + result.timeouts + (result.mismatches ?? 0);
  if (result.requests.total === 0) throw new Error(`${request.method ?? 'GET'} ${request.url}: no request succeeded`);
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, failed };
}

function describe(m: Measured, express?: number): string {
  const share = express ? `, ${((m.rps / express) * 100).toFixed(0)} % of Express` : '';
  const failed = m.failed ? `, ${count(m.failed)} failed` : '';
  return `${count(m.rps)} req/s, p50 ${ms(m.p50)}, p99 ${ms(m.p99)}${share}${failed}`;
}

const figures = (m: Measured, express?: number) => ({
  rps: m.rps,
  p50_ms: m.p50,
  p99_ms: m.p99,
  failed: m.failed,
  ...(express ? { vs_express: m.rps / express } : {}),
});

/** Baselines: the bare node:http server and the Express hello-world. Answers rows and Express's req/s. */
export async function benchBaselines(opts: HttpOptions): Promise<{ rows: Row[]; expressRps: number }> {
  const rows: Row[] = [];
  let expressRps = 0;
  for (const [name, script] of [
    ['node:http, fixed JSON body', 'bench/baselines/node-http.mjs'],
    ['Express 5 hello-world (res.json)', 'bench/baselines/express.mjs'],
  ] as const) {
    const server = await startChild([script], {});
    try {
      const m = await measure(opts, { url: `${server.url}/` });
      if (script.includes('express')) expressRps = m.rps;
      rows.push(row(`HTTP baseline: ${name}`, '-', describe(m), figures(m)));
    } finally {
      await server.stop();
    }
  }
  return { rows, expressRps };
}

/** The four endpoints on one freshly started Mind Service; each row as a share of Express. */
export async function benchEndpoints(kind: DatabaseKind, opts: HttpOptions, expressRps: number): Promise<Row[]> {
  const place = await createDataPlace(kind);
  const server = await startMindService(place);
  const client = new Client(server.url);
  const text = new TextGenerator(7);
  const rows: Row[] = [];
  try {
    const tasks = await client.newMind('bench-tasks');
    for (let i = 0; i < 20; i++) {
      await client.ok('POST', '/mind/task', tasks.mindKey, {
        title: `Task ${i}: ${text.words(5)}`,
        description: text.sentence(),
        priority: text.pick(['low', 'normal', 'high'] as const),
      });
    }
    const memories = await client.newMind('bench-memories');
    await inBatches(opts.memories, 8, (i) =>
      client.ok('POST', '/memory', memories.mindKey, {
        category: CATEGORIES[i % CATEGORIES.length],
        content: text.sentence(),
        tags: [text.word(), text.word()],
      }),
    );
    // Recall by meaning is measured once the background worker has embedded them.
    while ((await client.ok('GET', '/memory/stats', memories.mindKey, undefined, 200)).pending_embeddings > 0) {
      await new Promise((r) => setTimeout(r, 100));
    }
    const json = (key: string) => ({ Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' });
    const add = (label: string, m: Measured, target?: boolean) => {
      const share = m.rps / expressRps;
      rows.push(
        row(
          label,
          kind,
          describe(m, expressRps),
          figures(m, expressRps),
          target ? { op: '>=', value: TASKS_VS_EXPRESS * 100, unit: '% of Express' } : undefined,
          target ? share * 100 : undefined,
        ),
      );
    };

    // The list first, while the mind holds exactly 20 tasks (POST /mind/task adds thousands).
    add(TASKS_LIST, await measure(opts, { url: `${server.url}/mind/tasks`, headers: json(tasks.mindKey) }), true);
    add(
      'POST /mind/task',
      await measure(opts, {
        url: `${server.url}/mind/task`,
        method: 'POST',
        headers: json(tasks.mindKey),
        requests: [{ setupRequest: (req) => ({ ...req, body: JSON.stringify({ title: text.words(6), priority: 'normal' }) }) }],
      }),
    );
    // Recall before POST /memory, while the mind holds the seeded number of memories: by keyword alone
    // (recall as it was before recall by meaning), then as it is by default (hybrid: words and meaning).
    for (const mode of ['keyword', 'hybrid'] as const) {
      add(
        `GET /memory/recall?q=...&mode=${mode} (${count(opts.memories)} memories)`,
        await measure(opts, {
          url: `${server.url}/memory/recall`,
          headers: json(memories.mindKey),
          requests: [
            {
              setupRequest: (req) => ({
                ...req,
                path: `/memory/recall?${new URLSearchParams({ q: text.words(1 + Math.floor(text.random() * 3)), mode })}`,
              }),
            },
          ],
        }),
      );
    }
    add(
      'POST /memory',
      await measure(opts, {
        url: `${server.url}/memory`,
        method: 'POST',
        headers: json(memories.mindKey),
        requests: [
          {
            setupRequest: (req) => ({
              ...req,
              body: JSON.stringify({ category: text.pick(CATEGORIES), content: text.sentence(), tags: [text.word()] }),
            }),
          },
        ],
      }),
    );
  } finally {
    client.close();
    await server.stop();
    await place.remove();
  }
  return rows;
}

/**
 * `rows` with, after each PostgreSQL row of POSTGRES_VS_SQLITE whose SQLite row ran too, a row with
 * PostgreSQL's req/s as a share of SQLite's (measured in the same run).
 */
export function withDatabaseRatios(rows: Row[]): Row[] {
  return rows.flatMap((pg) => {
    if (pg.database !== 'postgresql' || !(pg.benchmark in POSTGRES_VS_SQLITE)) return [pg];
    const sqlite = rows.find((r) => r.database === 'sqlite' && r.benchmark === pg.benchmark);
    if (!sqlite?.figures.rps || !pg.figures.rps) return [pg];
    const ratio = pg.figures.rps / sqlite.figures.rps;
    const goal = POSTGRES_VS_SQLITE[pg.benchmark];
    const result = `${ratio.toFixed(2)} of SQLite (${count(pg.figures.rps)} / ${count(sqlite.figures.rps)} req/s)`;
    const target = goal === undefined ? undefined : ({ op: '>=', value: goal, unit: 'of SQLite' } as const);
    return [pg, row(`${pg.benchmark}: PostgreSQL / SQLite`, pg.database, result, { vs_sqlite: ratio }, target, target && ratio)];
  });
}

export async function benchHttp(opts: HttpOptions, kinds: DatabaseKind[] = databaseKinds()): Promise<Row[]> {
  const { rows, expressRps } = await benchBaselines(opts);
  for (const kind of kinds) rows.push(...(await benchEndpoints(kind, opts, expressRps)));
  return withDatabaseRatios(rows);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const rows = await benchHttp(process.env.BENCH_QUICK ? HTTP_QUICK : HTTP_FULL);
  console.log(markdownTable(rows));
}
