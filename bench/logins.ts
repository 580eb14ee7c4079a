// Logins at production cost against everything else: 16 clients log in back to back for 10 s
// (bcrypt cost 12) while one client times GET /mind/tasks. Password hashing runs on worker threads,
// so the task list should stay near its idle latency. The server runs in its own child process.
//
//   node --import tsx bench/logins.ts   (BENCH_QUICK=1 for a short run; DATABASE_URL: also PostgreSQL)
import { performance } from 'node:perf_hooks';
import { Client } from './lib/client.js';
import { count, ms, percentile, type Row, row, runAlone, sortNumbers } from './lib/report.js';
import { type DatabaseKind, withMindService } from './lib/servers.js';

export interface LoginsOptions {
  /** Clients logging in at once, each again as soon as it is answered. */
  clients: number;
  durationS: number;
  /** GET /mind/tasks alone first, for the idle figure. */
  idleS: number;
}

export const LOGINS_FULL: LoginsOptions = { clients: 16, durationS: 10, idleS: 3 };
export const LOGINS_QUICK: LoginsOptions = { clients: 16, durationS: 2, idleS: 1 };
/** The target: GET /mind/tasks median while the clients log in. */
const TARGET_P50_MS = 20;
const PASSWORD = 'correct horse battery';

/** Times `GET /mind/tasks` one request after another until `until`. */
async function timeTaskList(client: Client, mindKey: string, until: number): Promise<number[]> {
  const latencies: number[] = [];
  while (performance.now() < until) {
    const started = performance.now();
    const res = await client.request('GET', '/mind/tasks', mindKey);
    if (res.status !== 200) throw new Error(`GET /mind/tasks answered ${res.status}`);
    latencies.push(performance.now() - started);
  }
  return sortNumbers(latencies);
}

export async function benchLogins(kind: DatabaseKind, opts: LoginsOptions): Promise<Row[]> {
  return withMindService(kind, { MIND_BCRYPT_COST: '12' }, async (server, client) => {
    // One account at cost 12 for every login client (correct password: nothing counts as a failure).
    const email = `bench-login-${Date.now()}@example.com`;
    await client.ok('POST', '/register', undefined, { email, password: PASSWORD });
    const reader = await client.newMind('tasks');
    for (let i = 0; i < 20; i++) await client.ok('POST', '/mind/task', reader.mindKey, { title: `Task ${i}` });
    await timeTaskList(client, reader.mindKey, performance.now() + 500); // warm-up

    const idle = await timeTaskList(client, reader.mindKey, performance.now() + opts.idleS * 1000);

    const loginClients = Array.from({ length: opts.clients }, () => new Client(server.url));
    const loginLatencies: number[] = [];
    const failures = new Map<string, number>();
    let stop = false;
    const loggingIn = loginClients.map(async (c) => {
      while (!stop) {
        const started = performance.now();
        const res = await c.request('POST', '/login', undefined, { email, password: PASSWORD });
        if (res.status === 200) loginLatencies.push(performance.now() - started);
        else {
          const what = `${res.status} ${res.body?.message ?? ''}`;
          failures.set(what, (failures.get(what) ?? 0) + 1);
        }
      }
    });
    const started = performance.now();
    const busy = await timeTaskList(client, reader.mindKey, started + opts.durationS * 1000);
    const elapsedS = (performance.now() - started) / 1000;
    stop = true;
    await Promise.all(loggingIn);
    for (const c of loginClients) c.close();
    if (failures.size) throw new Error(`logins failed: ${JSON.stringify(Object.fromEntries(failures))}`);

    const logins = sortNumbers(loginLatencies);
    const p50 = percentile(busy, 50);
    const p99 = percentile(busy, 99);
    const label = `GET /mind/tasks while ${opts.clients} clients log in (cost 12)`;
    return [
      row(
        `${label}: p50`,
        kind,
        `${ms(p50)} (idle ${ms(percentile(idle, 50))}; ${count(busy.length)} requests)`,
        { p50_ms: p50, idle_p50_ms: percentile(idle, 50), requests: busy.length },
        { op: '<=', value: TARGET_P50_MS, unit: 'ms' },
        p50,
      ),
      row(`${label}: p99`, kind, `${ms(p99)} (idle ${ms(percentile(idle, 99))}, max ${ms(busy.at(-1)!)})`, {
        p99_ms: p99,
        idle_p99_ms: percentile(idle, 99),
        max_ms: busy.at(-1)!,
      }),
      row(
        'POST /login at cost 12, meanwhile',
        kind,
        `${(logins.length / elapsedS).toFixed(1)} logins/s; p50 ${ms(percentile(logins, 50))}, p99 ${ms(percentile(logins, 99))}`,
        { logins_per_s: logins.length / elapsedS, p50_ms: percentile(logins, 50), p99_ms: percentile(logins, 99) },
      ),
    ];
  });
}

await runAlone(import.meta.url, (kind, quick) => benchLogins(kind, quick ? LOGINS_QUICK : LOGINS_FULL));
