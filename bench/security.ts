// `pnpm bench:security`: the cheap attacks of the "Safe on the open internet" review, measured again.
//   1. anonymous bodies: 16 clients send 48 KB gzip bodies that inflate to 24 MB, without a credential,
//      to the 25 MB route (POST /memory/mind-import); the server's RSS and GET /health meanwhile.
//   2. many-tag recall: GET /memory/recall with 20 and with 300 tags over 2,000 tagged memories.
//   3. logins: GET /mind/tasks while 16 clients log in at bcrypt cost 12 (bench/logins.ts).
//   4. screenshots: a page of commands after 20 screenshots of 1 MB (bench/screenshots.ts).
//   5. imports: /health and another tenant while a 24 MB dry-run import runs, and 10 at once (bench/security-imports.ts).
//   6. recall by meaning under another tenant's load: 300 memories of 64 KB written, and hybrid
//      recalls over 1,000 of them (bench/security-embedding.ts).
//   7. deleting a mind while 8 clients write to it, and right after a large import (bench/security-delete.ts).
// SQLite, and PostgreSQL too when DATABASE_URL is set. Figures, not tests.
import http from 'node:http';
import { createRequire } from 'node:module';
import { performance } from 'node:perf_hooks';
import { gzipSync } from 'node:zlib';
import { benchLogins, LOGINS_FULL, LOGINS_QUICK } from './logins.js';
import { benchMindDelete } from './security-delete.js';
import { benchEmbeddingFairness } from './security-embedding.js';
import { benchImports } from './security-imports.js';
import { benchScreenshots, SCREENSHOTS_FULL, SCREENSHOTS_QUICK } from './screenshots.js';
import { count, markdownTable, ms, percentile, type Row, row, sortNumbers } from './lib/report.js';
import { type DatabaseKind, databaseKinds, withMindService } from './lib/servers.js';

const quick = Boolean(process.env.BENCH_QUICK);
const BOMB = gzipSync(Buffer.alloc(24 * 1024 * 1024, ' '));
const SECONDS = quick ? 3 : 10;

function postRaw(url: string, path: string, body: Buffer): Promise<number> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const req = http.request(
      {
        host: hostname,
        port,
        path,
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip', 'Content-Length': body.length },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', () => resolve(0));
    req.end(body);
  });
}

async function anonymousBodies(kind: DatabaseKind): Promise<Row[]> {
  return withMindService(kind, {}, async (server) => {
    const health: number[] = [];
    let peakRss = server.rssBytes();
    let sent = 0;
    const statuses = new Map<number, number>();
    const until = performance.now() + SECONDS * 1000;
    const attacker = async () => {
      while (performance.now() < until) {
        const status = await postRaw(server.url, '/memory/mind-import', BOMB);
        sent++;
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
      }
    };
    const prober = async () => {
      while (performance.now() < until) {
        const started = performance.now();
        await fetch(`${server.url}/health`).then((r) => r.body?.cancel());
        health.push(performance.now() - started);
        peakRss = Math.max(peakRss, server.rssBytes());
        await new Promise((r) => setTimeout(r, 100));
      }
    };
    await Promise.all([...Array.from({ length: 16 }, attacker), prober()]);
    const sorted = sortNumbers(health);
    const answers = [...statuses].map(([status, n]) => `${n} x ${status || 'reset'}`).join(', ');
    return [
      row(
        '16 anonymous 48 KB gzip bodies (24 MB inflated) at a time',
        kind,
        `${count(sent / SECONDS)} bodies/s (${answers}); peak RSS ${count(peakRss / 1024 / 1024)} MB; /health p50 ${ms(percentile(sorted, 50))}, max ${ms(sorted.at(-1) ?? NaN)}`,
        {
          bodiesPerSecond: sent / SECONDS,
          peakRssMb: peakRss / 1024 / 1024,
          healthP50Ms: percentile(sorted, 50),
          healthMaxMs: sorted.at(-1) ?? NaN,
        },
      ),
    ];
  });
}

async function manyTagRecall(kind: DatabaseKind): Promise<Row[]> {
  // A recall the server gave up on may still run in PostgreSQL (no statement_timeout before it was
  // added) and would hold the schema the benchmark drops: end it once the server has stopped.
  const afterStop = kind === 'postgresql' ? endRunawayRecalls : undefined;
  return withMindService(
    kind,
    { MIND_DB_STATEMENT_TIMEOUT: '30s' },
    async (_server, client) => {
      const email = `bench-${Date.now()}@example.com`;
      const { body: account } = await client.request('POST', '/register', undefined, { email, password: 'correct horse battery' });
      const { body: mind } = await client.request('POST', '/minds', account.jwt, { name: 'bench' });
      const key = mind.mind_key as string;
      const memories = quick ? 200 : 2000;
      for (let i = 0; i < memories; i += 50) {
        await Promise.all(
          Array.from({ length: 50 }, (_, j) =>
            client.request('POST', '/memory', key, {
              category: 'fact',
              content: `memory ${i + j}`,
              tags: Array.from({ length: 10 }, (_, t) => `tag${(i + j + t) % 40}`),
            }),
          ),
        );
      }
      const rows: Row[] = [];
      for (const tags of [20, 300]) {
        const path = `/memory/recall?${Array.from({ length: tags }, (_, t) => `tags=tag${t % 40}-${t}`).join('&')}`;
        const times: number[] = [];
        let status = 0;
        for (let i = 0; i < (quick ? 3 : 10); i++) {
          const started = performance.now();
          const res = await Promise.race([
            client.request('GET', path, key),
            new Promise<{ status: number }>((r) => setTimeout(() => r({ status: -1 }), 60_000)),
          ]);
          times.push(performance.now() - started);
          status = res.status;
          if (status === -1) break;
        }
        const sorted = sortNumbers(times);
        rows.push(
          row(
            `recall with ${tags} tags over ${count(memories)} tagged memories`,
            kind,
            `${status === -1 ? 'no answer within 60 s' : status}; p50 ${ms(percentile(sorted, 50))}, max ${ms(sorted.at(-1) ?? NaN)}`,
            {
              status,
              p50Ms: percentile(sorted, 50),
              maxMs: sorted.at(-1) ?? NaN,
            },
          ),
        );
      }
      return rows;
    },
    afterStop,
  );
}

async function endRunawayRecalls() {
  const pg = createRequire(new URL('../server/package.json', import.meta.url))('pg');
  const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await admin.connect();
  await admin.query(
    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE state = 'active' AND pid <> pg_backend_pid() AND query LIKE '%memory_tags%'",
  );
  await admin.end();
}

const rows: Row[] = [];
for (const kind of databaseKinds()) {
  process.stderr.write(`bench:security anonymous bodies (${kind})\n`);
  rows.push(...(await anonymousBodies(kind)));
  process.stderr.write(`bench:security many-tag recall (${kind})\n`);
  rows.push(...(await manyTagRecall(kind)));
  process.stderr.write(`bench:security logins (${kind})\n`);
  rows.push(...(await benchLogins(kind, quick ? LOGINS_QUICK : LOGINS_FULL)));
  process.stderr.write(`bench:security screenshots (${kind})\n`);
  rows.push(...(await benchScreenshots(kind, quick ? SCREENSHOTS_QUICK : SCREENSHOTS_FULL)));
  process.stderr.write(`bench:security imports (${kind})\n`);
  rows.push(...(await benchImports(kind)));
  process.stderr.write(`bench:security recall by meaning under another tenant's load (${kind})\n`);
  rows.push(...(await benchEmbeddingFairness(kind)));
  process.stderr.write(`bench:security deleting a mind under writes (${kind})\n`);
  rows.push(...(await benchMindDelete(kind)));
}
console.log(markdownTable(rows));
