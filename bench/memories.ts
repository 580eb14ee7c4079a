// Memory benchmark: recall latency over 100,000 memories in one mind, and POST /memory writes per second.
// Run: node --import tsx bench/memories.ts   (MEMORIES=20000 for a quicker run)
// The service runs in process on port 0 with production settings (no response validation, silent log).
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import autocannon from 'autocannon';
import type { Memory } from '@mindservice/contract';
import { createApp } from '../server/src/app.js';
import { loadConfig } from '../server/src/config.js';
import { newId } from '../server/src/lib/secrets.js';
import { ContentCipher } from '../server/src/memories/crypto.js';
import { MemoriesStore } from '../server/src/memories/store.js';

const TOTAL = Number(process.env.MEMORIES ?? 100_000);
const QUERIES = Number(process.env.QUERIES ?? 500);
const CATEGORIES = ['identity', 'preference', 'fact', 'project', 'skill', 'mistake', 'context', 'note'] as const;

// Deterministic pseudo-random numbers, so runs compare.
let seed = 42;
const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);

// A 10,000-word vocabulary drawn with Zipf's law (as natural text is): a few words are very common.
const VOCABULARY = Array.from({ length: 10_000 }, (_, i) => `w${i.toString(36)}x${(i * 7919).toString(36).slice(-3)}`);
const zipfCumulative: number[] = [];
{
  const total = VOCABULARY.reduce((sum, _, i) => sum + 1 / (i + 1), 0);
  let running = 0;
  VOCABULARY.forEach((_, i) => zipfCumulative.push((running += 1 / (i + 1) / total)));
}
function word(): string {
  const r = random();
  let lo = 0;
  let hi = zipfCumulative.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (zipfCumulative[mid]! < r) lo = mid + 1;
    else hi = mid;
  }
  return VOCABULARY[lo]!;
}
const sentence = (n: number) => Array.from({ length: n }, word).join(' ');

function percentile(sorted: number[], p: number) {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}
const ms = (n: number) => `${n.toFixed(2)} ms`;

async function main() {
  const dataDir = mkdtempSync(join(tmpdir(), 'mind-bench-'));
  const config = loadConfig({ MIND_DATA_DIR: dataDir, LOG_LEVEL: 'silent', PORT: '0', MIND_BCRYPT_COST: '4' });
  const service = await createApp(config);
  const server = service.app.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  // Seeding leaves the client's socket idle for a while: keep it open so fetch does not reuse a closed one.
  server.keepAliveTimeout = 600_000;
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  try {
    const json = async (path: string, init: RequestInit & { body?: string }) => {
      const res = await fetch(base + path, { ...init, headers: { 'content-type': 'application/json', ...(init.headers ?? {}) } });
      if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
      return res.json() as Promise<Record<string, unknown>>;
    };
    const { jwt } = (await json('/register', { method: 'POST', body: JSON.stringify({ email: 'bench@example.com', password: 'benchmark' }) })) as { jwt: string };
    const mind = (await json('/minds', { method: 'POST', body: JSON.stringify({ name: 'bench' }), headers: { authorization: `Bearer ${jwt}` } })) as {
      id: string;
      mind_key: string;
    };
    const auth = { authorization: `Bearer ${mind.mind_key}` };

    // Seed through the store (same code path as the API's writes, minus HTTP), in transactions of 5,000.
    const store = new MemoriesStore(ContentCipher.fromConfig(config));
    const started = performance.now();
    const t0 = Date.now() - TOTAL * 1000;
    for (let done = 0; done < TOTAL; ) {
      const batch: Memory[] = [];
      for (let i = 0; i < 5000 && done < TOTAL; i++, done++) {
        const at = new Date(t0 + done * 1000).toISOString();
        batch.push({
          id: newId(),
          category: CATEGORIES[done % CATEGORIES.length]!,
          key: done % 10 === 0 ? `key-${done}` : null,
          content: sentence(15 + Math.floor(random() * 30)),
          tags: [word(), word()],
          verified: done % 20 === 0,
          verified_at: done % 20 === 0 ? at : null,
          source: null,
          created_at: at,
          updated_at: at,
        });
      }
      await service.ctx.db.transaction((trx) => store.insertMany(trx, mind.id, batch));
    }
    console.log(`seeded ${TOTAL.toLocaleString('en')} memories in ${((performance.now() - started) / 1000).toFixed(1)} s`);

    // Recall: sequential requests over HTTP, each timed end to end.
    const timeQueries = async (label: string, makeQuery: () => string) => {
      for (let i = 0; i < 20; i++) await fetch(`${base}/memory/recall?${makeQuery()}`, { headers: auth }).then((r) => r.arrayBuffer()); // warm-up
      const times: number[] = [];
      let hits = 0;
      for (let i = 0; i < QUERIES; i++) {
        const t = performance.now();
        const res = await fetch(`${base}/memory/recall?${makeQuery()}`, { headers: auth });
        const body = (await res.json()) as { memories: unknown[] };
        times.push(performance.now() - t);
        if (res.status !== 200) throw new Error(`recall answered ${res.status}`);
        hits += body.memories.length;
      }
      times.sort((a, b) => a - b);
      console.log(
        `recall ${label}: p50 ${ms(percentile(times, 50))}, p90 ${ms(percentile(times, 90))}, p99 ${ms(percentile(times, 99))}, max ${ms(times.at(-1)!)} (${QUERIES} queries, ${(hits / QUERIES).toFixed(1)} hits each)`,
      );
      return times;
    };
    const words = (n: number) => Array.from({ length: n }, word).join(' ');
    const all = [
      ...(await timeQueries('q = 1..3 Zipf-distributed words', () => new URLSearchParams({ q: words(1 + Math.floor(random() * 3)) }).toString())),
      ...(await timeQueries('q = 1 word + category filter', () => new URLSearchParams({ q: words(1), category: CATEGORIES[Math.floor(random() * 8)]! }).toString())),
      ...(await timeQueries('no q (newest first)', () => '')),
      ...(await timeQueries('no q, tag filter', () => new URLSearchParams({ tags: word() }).toString())),
    ].sort((a, b) => a - b);
    console.log(`recall overall: p50 ${ms(percentile(all, 50))}, p99 ${ms(percentile(all, 99))}  (targets: p50 <= 10 ms, p99 <= 50 ms)`);

    // Writes: POST /memory over HTTP with autocannon, 10 connections, a different text each request.
    const result = await autocannon({
      url: `${base}/memory`,
      method: 'POST',
      connections: 10,
      duration: 8,
      headers: { ...auth, 'content-type': 'application/json' },
      requests: [{ setupRequest: (req) => ({ ...req, body: JSON.stringify({ category: 'note', content: sentence(25), tags: [word()] }) }) }],
    });
    const non2xx = result.non2xx + result.errors;
    console.log(
      `POST /memory: ${Math.round(result.requests.average).toLocaleString('en')} writes/s (p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, ${non2xx} errors or non-2xx)  (target: >= 2,000 writes/s)`,
    );
  } finally {
    await new Promise((r) => server.close(r));
    await service.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
