// Webhook delivery benchmark: deliveries per second to a local receiver and event-to-receipt latency.
// Run: node --import tsx bench/webhooks.ts   (BENCH_EVENTS, BENCH_WEBHOOKS, BENCH_RATE to change the load)
// Targets (issue 4): at least 500 deliveries/s, p50 latency at most 50 ms.
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp } from '../server/src/app.js';
import { loadConfig } from '../server/src/config.js';

const EVENTS = Number(process.env.BENCH_EVENTS ?? 300);
const WEBHOOKS = Number(process.env.BENCH_WEBHOOKS ?? 10);
/** Events per second in the paced phase (each fans out to every webhook). */
const RATE = Number(process.env.BENCH_RATE ?? 25);
const PACED_SECONDS = 4;

const listen = (server: Server) =>
  new Promise<string>((resolve) => server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)));

async function main() {
  const dataDir = mkdtempSync(join(tmpdir(), 'mind-bench-webhooks-'));
  const config = loadConfig({ MIND_DATA_DIR: dataDir, LOG_LEVEL: 'silent', MIND_BCRYPT_COST: '4', PORT: '0' });
  const service = await createApp(config);
  const api = createServer(service.app);
  const base = await listen(api);

  // The receiver notes when each (event, webhook) arrived.
  const sentAt = new Map<string, number>();
  const latencies: number[] = [];
  let received = 0;
  let lastReceipt = 0;
  let onReceipt = () => {};
  const receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const now = performance.now();
      const { id } = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { id: string };
      const t0 = sentAt.get(id);
      if (t0 !== undefined) latencies.push(now - t0);
      received++;
      lastReceipt = now;
      res.writeHead(200).end();
      onReceipt();
    });
  });
  const receiverUrl = await listen(receiver);

  const call = async (path: string, token: string | null, body: unknown) => {
    const res = await fetch(`${base}${path}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
    return res.json() as Promise<Record<string, string>>;
  };
  const { jwt } = await call('/register', null, { email: 'bench@example.com', password: 'correct horse' });
  const mind = await call('/minds', jwt!, { name: 'bench' });
  for (let i = 0; i < WEBHOOKS; i++) {
    await call('/webhooks', mind.mind_key!, { url: `${receiverUrl}/hook-${i}`, events: 'task.*', secret: 'bench-secret-123' });
  }

  const { ctx } = service;
  const record = async (n: number) => {
    const t0 = performance.now();
    await ctx.db.transaction(async (trx) => {
      const event = await ctx.events.record(trx, mind.id!, 'task.created', { id: `bench-${n}`, title: `Task ${n}` });
      sentAt.set(event.id, t0);
    });
  };
  const waitForAll = (expected: number) =>
    new Promise<void>((resolve) => {
      onReceipt = () => received >= expected && resolve();
      onReceipt();
    });
  const percentile = (values: number[], p: number) => {
    const sorted = [...values].sort((a, b) => a - b);
    return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
  };
  const report = (label: string) => {
    console.log(
      `${label}: latency p50 ${percentile(latencies, 50).toFixed(1)} ms, p99 ${percentile(latencies, 99).toFixed(1)} ms, max ${Math.max(...latencies).toFixed(1)} ms`,
    );
  };

  // Phase 1, burst: every event recorded as fast as possible; throughput from first event to last receipt.
  const burstTotal = EVENTS * WEBHOOKS;
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  for (let n = 0; n < EVENTS; n++) await record(n);
  const recorded = performance.now();
  await waitForAll(burstTotal);
  const seconds = (lastReceipt - started) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  const cpuSeconds = (cpu.user + cpu.system) / 1e6;
  console.log(`webhooks bench: ${EVENTS} events x ${WEBHOOKS} webhooks = ${burstTotal} deliveries (SQLite, 16 in flight)`);
  console.log(`burst: ${(burstTotal / seconds).toFixed(0)} deliveries/s (${seconds.toFixed(2)} s; events recorded in ${((recorded - started) / 1000).toFixed(2)} s)`);
  report('burst');
  // On a shared machine wall time depends on the neighbours; CPU time per delivery does not (much).
  console.log(`burst: ${cpuSeconds.toFixed(2)} s CPU for service + receiver = ${(burstTotal / cpuSeconds).toFixed(0)} deliveries per CPU-second; load average ${loadavg()[0]!.toFixed(1)} on ${cpus().length} cores`);

  // Phase 2, paced: a steady stream below capacity, the latency a receiver sees in normal operation.
  latencies.length = 0;
  received = 0;
  const pacedEvents = RATE * PACED_SECONDS;
  const pacedStart = performance.now();
  for (let n = 0; n < pacedEvents; n++) {
    const due = pacedStart + (n * 1000) / RATE;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    await record(EVENTS + n);
  }
  await waitForAll(pacedEvents * WEBHOOKS);
  console.log(`paced: ${RATE} events/s x ${WEBHOOKS} webhooks = ${RATE * WEBHOOKS} deliveries/s offered for ${PACED_SECONDS} s`);
  report('paced');

  api.closeAllConnections();
  api.close();
  receiver.closeAllConnections();
  receiver.close();
  await service.close();
  rmSync(dataDir, { recursive: true, force: true });
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
