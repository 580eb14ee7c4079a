// The server's memory at idle and its time to start, as `pnpm start` runs it (`node
// server/bin/mind-service.mjs start`, default configuration and logging, a fresh data directory; the
// RSS is the node process's own, not pnpm's wrapper around it).
//
//   node --import tsx bench/idle-rss.ts [runs] [repository]
//
// `runs` services (default 5) are started one after another, each timed from spawn to its first 200 on
// /health while the others only idle; each one's RSS (/proc, so Linux only) is read 15 s and 60 s
// after its spawn, and the medians are printed. `repository` runs another checkout's bin (an older
// commit, to compare on the same machine); default this one. On SQLite, or on PostgreSQL as well
// when DATABASE_URL is set (a fresh schema each).
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { percentile, sortNumbers } from './lib/report.js';
import { createDataPlace, type DatabaseKind, type DataPlace, databaseKinds, freePort, ROOT } from './lib/servers.js';

const SAMPLE_AFTER_S = [15, 60];

interface Run {
  startMs: number;
  rssMb: number[];
}

const rssMb = (pid: number) => {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (!match) throw new Error(`no VmRSS for process ${pid}`);
  return Number(match[1]) / 1024;
};

async function isHealthy(url: string): Promise<boolean> {
  try {
    const res = await fetch(`${url}/health`);
    await res.body?.cancel();
    return res.status === 200;
  } catch {
    return false;
  }
}

/** Starts one service; resolves once it is healthy, with its start time and a promise of its samples. */
async function startOne(repository: string, place: DataPlace): Promise<{ child: ChildProcess; run: Promise<Run> }> {
  const port = await freePort();
  const spawnedAt = performance.now();
  const child = spawn(process.execPath, ['server/bin/mind-service.mjs', 'start'], {
    cwd: repository,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', PORT: String(port), ...place.env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  let exited = false;
  child.once('exit', () => {
    exited = true;
  });
  const url = `http://127.0.0.1:${port}`;
  while (!(await isHealthy(url))) {
    if (exited) throw new Error('the service exited before it was healthy');
    if (performance.now() - spawnedAt > 60_000) throw new Error('the service was not healthy within 60 s');
    await sleep(10);
  }
  const startMs = performance.now() - spawnedAt;
  const run = (async () => {
    const samples: number[] = [];
    for (const after of SAMPLE_AFTER_S) {
      await sleep(Math.max(0, spawnedAt + after * 1000 - performance.now()));
      if (exited) throw new Error('the service exited while idle');
      samples.push(rssMb(child.pid!));
    }
    return { startMs, rssMb: samples };
  })();
  return { child, run };
}

async function measure(kind: DatabaseKind, runs: number, repository: string): Promise<Run[]> {
  const places: DataPlace[] = [];
  const children: ChildProcess[] = [];
  try {
    const pending: Promise<Run>[] = [];
    for (let i = 0; i < runs; i++) {
      const place = await createDataPlace(kind);
      places.push(place);
      const { child, run } = await startOne(repository, place);
      children.push(child);
      pending.push(run);
    }
    return await Promise.all(pending);
  } finally {
    await Promise.all(
      children.map((child) => (child.exitCode === null ? new Promise((done) => child.once('exit', done).kill('SIGTERM')) : null)),
    );
    for (const place of places) await place.remove();
  }
}

const runs = Number(process.argv[2] ?? 5);
const repository = resolve(process.argv[3] ?? ROOT);
const median = (values: number[]) => percentile(sortNumbers(values), 50);
for (const kind of databaseKinds()) {
  const results = await measure(kind, runs, repository);
  const column = (values: number[], digits: number, unit: string) =>
    `${median(values).toFixed(digits)} ${unit} (${values.map((value) => value.toFixed(digits)).join(', ')})`;
  console.log(`${kind}, ${runs} runs of ${repository}, median (each run):`);
  const starts = results.map((result) => result.startMs);
  console.log(`  spawn to healthy: ${column(starts, 0, 'ms')}`);
  SAMPLE_AFTER_S.forEach((after, i) => {
    const samples = results.map((result) => result.rssMb[i]!);
    console.log(`  RSS ${after} s after spawn: ${column(samples, 1, 'MB')}`);
  });
}
