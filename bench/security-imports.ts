// Imports as an attack (issue 28, finding 2): how long one mind's import holds everyone else up.
//   1. one dry-run import of a 24 MB document of 105,000 tiny memories: its answer and time, and
//      GET /health p50/p99/max meanwhile (a prober asking one after another, every 20 ms); again
//      with 100,000 slightly longer ones (24 MB too, within the default MIND_IMPORT_MAX_ITEMS);
//   2. a real import of 20,000 memories (a large mind moved over): the same figures;
//   3. PostgreSQL only: ten such dry runs at once (ten accounts) while another tenant stores and
//      recalls memories: the import answers and the other tenant's status codes.
// Figures, not tests. `benchImports` is wired into `pnpm bench:security`.
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Client } from './lib/client.js';
import { count, ms, percentile, type Row, row, sortNumbers } from './lib/report.js';
import { type DatabaseKind, withMindService } from './lib/servers.js';

const ATTACK_MEMORIES = 105_000;
/** As many as MIND_IMPORT_MAX_ITEMS admits by default, a little longer each: 24 MB too. */
const LARGEST_MEMORIES = 100_000;
const LARGE_MIND_MEMORIES = 20_000;
const TENANTS_AT_ONCE = 10;

/** A mind-export/1 document of `n` tiny memories, serialised once (about 230 bytes a memory). */
export function importDocument(n: number, padding = ''): Buffer {
  const at = new Date('2026-11-01T00:00:00.000Z').toISOString();
  const memories = Array.from({ length: n }, (_, i) => ({
    id: randomUUID(),
    category: 'note',
    key: null,
    content: `tiny memory number ${i} of the import${padding}`,
    tags: ['imported'],
    source: 'bench',
    created_at: at,
    updated_at: at,
  }));
  const doc = { format: 'mind-export/1', exported_at: at, memories, tasks: [], chat: [], scripts: [], webhooks: [] };
  return Buffer.from(JSON.stringify(doc));
}

/** POSTs a serialised body on a connection of its own: the status and the seconds it took. */
function postImport(url: string, key: string, body: Buffer, query: string): Promise<{ status: number; ms: number }> {
  const { hostname, port } = new URL(url);
  const started = performance.now();
  return new Promise((resolve) => {
    const req = http.request(
      {
        host: hostname,
        port,
        path: `/memory/mind-import${query}`,
        method: 'POST',
        headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json', 'Content-Length': body.length },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode ?? 0, ms: performance.now() - started }));
      },
    );
    req.on('error', () => resolve({ status: 0, ms: performance.now() - started }));
    req.end(body);
  });
}

/** Asks GET /health one after another (20 ms apart) until `done` settles; the latencies. */
async function probeHealth(url: string, done: Promise<unknown>): Promise<number[]> {
  let finished = false;
  void done.finally(() => {
    finished = true;
  });
  const times: number[] = [];
  while (!finished) {
    const started = performance.now();
    await fetch(`${url}/health`).then(
      (r) => r.body?.cancel(),
      () => undefined,
    );
    times.push(performance.now() - started);
    await sleep(20);
  }
  return sortNumbers(times);
}

const healthText = (sorted: number[]) =>
  `/health p50 ${ms(percentile(sorted, 50))}, p99 ${ms(percentile(sorted, 99))}, max ${ms(sorted.at(-1) ?? NaN)} (${count(sorted.length)} asked)`;
const healthFigures = (sorted: number[]) => ({
  healthP50Ms: percentile(sorted, 50),
  healthP99Ms: percentile(sorted, 99),
  healthMaxMs: sorted.at(-1) ?? NaN,
});

async function oneImport(kind: DatabaseKind, url: string, client: Client, label: string, doc: Buffer, query: string): Promise<Row> {
  const { mindKey } = await client.newMind('importer');
  const importing = postImport(url, mindKey, doc, query);
  const health = await probeHealth(url, importing);
  const answer = await importing;
  return row(label, kind, `answered ${answer.status} after ${ms(answer.ms)}; ${healthText(health)}`, {
    status: answer.status,
    importMs: answer.ms,
    ...healthFigures(health),
  });
}

/** Ten tenants' dry runs at once; another tenant stores and recalls meanwhile. */
async function manyAtOnce(kind: DatabaseKind, url: string, client: Client, doc: Buffer): Promise<Row> {
  const attackers = await Promise.all(Array.from({ length: TENANTS_AT_ONCE }, () => client.newMind('attacker')));
  const victim = await client.newMind('victim');
  // Warm: the first recall by meaning builds the local embedder's word table (seconds), imports or not.
  await client.ok('POST', '/memory', victim.mindKey, { category: 'note', content: 'victim memory' });
  await client.ok('GET', '/memory/recall?q=victim', victim.mindKey, undefined, 200);
  const imports = Promise.all(attackers.map((a) => postImport(url, a.mindKey, doc, '?dry_run=true')));
  let finished = false;
  void imports.finally(() => {
    finished = true;
  });
  const victimStatuses = new Map<number, number>();
  const victimTimes: number[] = [];
  for (let i = 0; !finished; i++) {
    const started = performance.now();
    const res =
      i % 2 === 0
        ? await client
            .request('POST', '/memory', victim.mindKey, { category: 'note', content: `victim memory ${i}` })
            .catch(() => ({ status: 0 }))
        : await client.request('GET', '/memory/recall?q=victim', victim.mindKey).catch(() => ({ status: 0 }));
    victimTimes.push(performance.now() - started);
    victimStatuses.set(res.status, (victimStatuses.get(res.status) ?? 0) + 1);
    await sleep(20);
  }
  const answers = new Map<number, number>();
  for (const a of await imports) answers.set(a.status, (answers.get(a.status) ?? 0) + 1);
  const text = (m: Map<number, number>) => [...m].map(([status, n]) => `${n} x ${status || 'reset'}`).join(', ');
  const sorted = sortNumbers(victimTimes);
  const failures = [...victimStatuses].filter(([s]) => s >= 500 || s === 0).reduce((n, [, c]) => n + c, 0);
  return row(
    `${TENANTS_AT_ONCE} tenants' 24 MB dry-run imports at once; another tenant writes and recalls`,
    kind,
    `imports: ${text(answers)}; other tenant: ${text(victimStatuses)}, p50 ${ms(percentile(sorted, 50))}, p99 ${ms(percentile(sorted, 99))}, max ${ms(sorted.at(-1) ?? NaN)}`,
    {
      otherTenantFailures: failures,
      otherTenantRequests: victimTimes.length,
      otherTenantP99Ms: percentile(sorted, 99),
      otherTenantMaxMs: sorted.at(-1) ?? NaN,
    },
  );
}

export async function benchImports(kind: DatabaseKind): Promise<Row[]> {
  const attack = importDocument(ATTACK_MEMORIES);
  const largest = importDocument(LARGEST_MEMORIES, ' padded'.repeat(2));
  const large = importDocument(LARGE_MIND_MEMORIES);
  return withMindService(kind, {}, async (server, client) => {
    const rows: Row[] = [];
    const mb = (attack.length / 1024 / 1024).toFixed(1);
    rows.push(
      await oneImport(kind, server.url, client, `dry-run import of ${mb} MB (${count(ATTACK_MEMORIES)} memories)`, attack, '?dry_run=true'),
    );
    const largestMb = (largest.length / 1024 / 1024).toFixed(1);
    rows.push(
      await oneImport(
        kind,
        server.url,
        client,
        `dry-run import of ${largestMb} MB (${count(LARGEST_MEMORIES)} memories)`,
        largest,
        '?dry_run=true',
      ),
    );
    rows.push(await oneImport(kind, server.url, client, `import of a mind of ${count(LARGE_MIND_MEMORIES)} memories`, large, ''));
    if (kind === 'postgresql') rows.push(await manyAtOnce(kind, server.url, client, largest));
    return rows;
  });
}
