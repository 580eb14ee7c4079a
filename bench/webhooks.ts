// Webhook delivery benchmark: deliveries per second to a local receiver, and event-to-receipt latency.
// The service runs in its own process; this process creates tasks over HTTP (each `task.created`
// event fans out to every webhook) and runs the receiver, which notes when each delivery arrived.
// Latency is from sending POST /mind/task to the receiver having read the delivery's body.
//
//   node --import tsx bench/webhooks.ts   (BENCH_QUICK=1 for a small run; DATABASE_URL: also PostgreSQL)
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { Client } from './lib/client.js';
import { count, markdownTable, ms, percentile, type Row, row, sortNumbers } from './lib/report.js';
import { createDataPlace, type DatabaseKind, databaseKinds, startMindService } from './lib/servers.js';

export interface WebhooksOptions {
  webhooks: number;
  /** Events created as fast as possible (the throughput phase). */
  burstEvents: number;
  /** Events per second in the paced phase (the latency a receiver sees below capacity). */
  rate: number;
  pacedSeconds: number;
}

export const WEBHOOKS_FULL: WebhooksOptions = { webhooks: 10, burstEvents: 300, rate: 25, pacedSeconds: 4 };
export const WEBHOOKS_QUICK: WebhooksOptions = { webhooks: 10, burstEvents: 50, rate: 25, pacedSeconds: 1 };
const TARGETS = { perSecond: 500, p50: 50 };

const listen = (server: Server) =>
  new Promise<string>((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)),
  );

export async function benchWebhooks(kind: DatabaseKind, opts: WebhooksOptions): Promise<Row[]> {
  // The receiver: when each delivery of each event (by task title) arrived.
  const sentAt = new Map<string, number>();
  let latencies: number[] = [];
  let received = 0;
  let lastReceipt = 0;
  let onReceipt = () => {};
  const receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const now = performance.now();
      const { data } = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { data: { title: string } };
      const t0 = sentAt.get(data.title);
      if (t0 !== undefined) latencies.push(now - t0);
      received++;
      lastReceipt = now;
      res.writeHead(200).end();
      onReceipt();
    });
  });
  const receiverUrl = await listen(receiver);

  const place = await createDataPlace(kind);
  const server = await startMindService(place);
  const client = new Client(server.url);
  try {
    const mind = await client.newMind('bench-webhooks');
    for (let i = 0; i < opts.webhooks; i++) {
      await client.ok('POST', '/webhooks', mind.mindKey, { url: `${receiverUrl}/hook-${i}`, events: 'task.*', secret: 'bench-secret-123' });
    }
    let n = 0;
    const createTask = async () => {
      const title = `bench task ${n++}`;
      sentAt.set(title, performance.now());
      await client.ok('POST', '/mind/task', mind.mindKey, { title });
    };
    const allDelivered = (expected: number, what: string) =>
      new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`${what}: ${received} of ${expected} deliveries within 120 s`)), 120_000);
        onReceipt = () => {
          if (received < expected) return;
          clearTimeout(timer);
          resolve();
        };
        onReceipt();
      });

    // Phase 1, burst: events one after another as fast as possible; throughput from the first
    // request to the last receipt.
    const burstDeliveries = opts.burstEvents * opts.webhooks;
    const started = performance.now();
    for (let i = 0; i < opts.burstEvents; i++) await createTask();
    await allDelivered(burstDeliveries, 'burst');
    const perSecond = burstDeliveries / ((lastReceipt - started) / 1000);
    const burst = sortNumbers(latencies);

    // Phase 2, paced: a steady stream below capacity.
    latencies = [];
    received = 0;
    const pacedEvents = opts.rate * opts.pacedSeconds;
    const pacedStart = performance.now();
    for (let i = 0; i < pacedEvents; i++) {
      const wait = pacedStart + (i * 1000) / opts.rate - performance.now();
      if (wait > 0) await sleep(wait);
      await createTask();
    }
    await allDelivered(pacedEvents * opts.webhooks, 'paced');
    const paced = sortNumbers(latencies);
    const p50 = percentile(paced, 50);

    return [
      row(
        `webhook deliveries/s (burst of ${count(opts.burstEvents)} events x ${opts.webhooks} webhooks)`,
        kind,
        `${count(perSecond)} deliveries/s (latency in the burst: p50 ${ms(percentile(burst, 50))}, p99 ${ms(percentile(burst, 99))})`,
        { deliveries_per_s: perSecond, burst_p50_ms: percentile(burst, 50), burst_p99_ms: percentile(burst, 99) },
        { op: '>=', value: TARGETS.perSecond, unit: 'deliveries/s' },
        perSecond,
      ),
      row(
        `webhook event-to-receipt p50 (paced, ${count(opts.rate * opts.webhooks)} deliveries/s offered)`,
        kind,
        `${ms(p50)} (p99 ${ms(percentile(paced, 99))}, ${count(paced.length)} deliveries)`,
        { p50_ms: p50, p99_ms: percentile(paced, 99) },
        { op: '<=', value: TARGETS.p50, unit: 'ms' },
        p50,
      ),
    ];
  } finally {
    client.close();
    await server.stop();
    receiver.closeAllConnections();
    receiver.close();
    await place.remove();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const rows: Row[] = [];
  for (const kind of databaseKinds()) rows.push(...(await benchWebhooks(kind, process.env.BENCH_QUICK ? WEBHOOKS_QUICK : WEBHOOKS_FULL)));
  console.log(markdownTable(rows));
}
