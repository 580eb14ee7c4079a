// Long-poll benchmark: queue-to-answer latency with 1,000 idle polls held, and the server's RSS with
// 10,000. The server runs as a child process (so its RSS is its own) on a fresh SQLite data dir: a
// first one registers the computers, a second, fresh one over the same data is measured. This
// process plays the agents over keep-alive HTTP.
//
//   node --import tsx bench/computers.ts
//   (env: BENCH_POLLS=10000 BENCH_LATENCY_POLLS=1000 BENCH_COMMANDS=1000 BENCH_LOG_LEVEL=warn)
//
// Each process needs about BENCH_POLLS + 100 file descriptors (`ulimit -n`).
import { fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';

const LATENCY_POLLS = Number(process.env.BENCH_LATENCY_POLLS ?? 1000);
const RSS_POLLS = Number(process.env.BENCH_POLLS ?? 10_000);
const COMMANDS = Number(process.env.BENCH_COMMANDS ?? 1000);
const POLL_WAIT_S = 60;
const TARGETS = { p50: 5, p99: 25, rssMb: 300 };

type Memory = { rss: number; heapUsed: number; heapTotal: number; external: number };
type ServerMessage = { port: number } | Memory;

// ---------------------------------------------------------------- server (child process)

async function runServer() {
  const { createApp } = await import('../server/src/app.js');
  const { loadConfig } = await import('../server/src/config.js');
  const config = loadConfig({
    PORT: '0',
    MIND_DATA_DIR: process.env.BENCH_DATA_DIR,
    LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'warn',
    MIND_BCRYPT_COST: '4',
  });
  const service = await createApp(config);
  const server = service.app.listen(0, '127.0.0.1', () => {
    const address = server.address();
    process.send!({ port: typeof address === 'object' && address ? address.port : 0 } satisfies ServerMessage);
  });
  // The client reuses idle keep-alive sockets for minutes; the default 5 s would race it (ECONNRESET).
  server.keepAliveTimeout = 10 * 60_000;
  process.on('message', async (message) => {
    if (message === 'rss' || message === 'rss-after-gc') {
      if (message === 'rss-after-gc') (globalThis as { gc?: () => void }).gc?.();
      const { rss, heapUsed, heapTotal, external } = process.memoryUsage();
      process.send!({ rss, heapUsed, heapTotal, external } satisfies ServerMessage);
    } else if (message === 'stop') {
      await service.close(); // answers the waiting polls
      server.close();
      server.closeAllConnections();
      process.exit(0);
    }
  });
}

// ---------------------------------------------------------------- client (this process)

const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity, maxFreeSockets: 100_000 });
let port = 0;

function request(method: string, path: string, token?: string, body?: unknown): Promise<{ status: number; body: any }> {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        method,
        path,
        agent,
        headers: {
          ...(token ? { Authorization: `Bearer ${token}` } : {}),
          ...(payload ? { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(payload) } : {}),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString();
          resolve({ status: res.statusCode ?? 0, body: text ? JSON.parse(text) : undefined });
        });
      },
    );
    req.on('error', (err) => reject(new Error(`${method} ${path}: ${err.message}`, { cause: err })));
    req.end(payload);
  });
}

async function inBatches<T>(count: number, concurrency: number, fn: (i: number) => Promise<T>): Promise<T[]> {
  const out: T[] = new Array(count);
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) {
        const i = next++;
        out[i] = await fn(i);
      }
    }),
  );
  return out;
}

interface Computer {
  id: string;
  token: string;
}

async function registerComputers(credential: string, count: number): Promise<Computer[]> {
  return inBatches(count, 32, async (i) => {
    const code = await request('POST', '/computers/install-code', credential, {});
    const res = await request('POST', '/computers/register', undefined, {
      code: code.body.install_code,
      computer_name: `bench-${i}`,
      platform: 'linux',
      platform_release: 'bench',
      python: process.version,
    });
    if (res.status !== 201) throw new Error(`register failed: ${res.status} ${JSON.stringify(res.body)}`);
    return { id: res.body.computer_id as string, token: res.body.computer_token as string };
  });
}

/** Each computer keeps one poll waiting; an answer with commands is reported, then it polls again. */
class Pollers {
  private readonly onCommand = new Map<string, (at: number) => void>();
  /** Answers that arrived before anyone asked for them (before the queue request's response). */
  private readonly seen = new Map<string, number>();
  private stopped = false;
  answered = 0;
  resets = 0;

  /** Starts the polls a hundred at a time: thousands of connects at once overflow the listen backlog. */
  async hold(computers: Computer[]) {
    for (let i = 0; i < computers.length; i += 100) {
      for (const computer of computers.slice(i, i + 100)) void this.loop(computer);
      await sleep(100);
    }
  }

  /** When the poll answer carrying this command arrived. */
  expect(commandId: string): Promise<number> {
    const at = this.seen.get(commandId);
    if (at !== undefined) {
      this.seen.delete(commandId);
      return Promise.resolve(at);
    }
    return new Promise((resolve) => this.onCommand.set(commandId, resolve));
  }

  stop() {
    this.stopped = true;
  }

  private async loop(computer: Computer) {
    while (!this.stopped) {
      const res = await request('GET', `/computers/me/poll?wait=${POLL_WAIT_S}`, computer.token).catch((err: Error) => {
        if (this.stopped) return 'stopped' as const; // the server is shutting down
        if (!/ECONNRESET|EPIPE/.test(err.message)) throw err;
        this.resets++; // a connect the loaded server did not accept in time: poll again, like an agent
        return 'reset' as const;
      });
      const at = performance.now();
      if (res === 'stopped') return;
      if (res === 'reset') continue;
      if (res.status !== 200) throw new Error(`poll failed: ${res.status} ${JSON.stringify(res.body)}`);
      this.answered++;
      for (const command of res.body.commands as Array<{ command_id: string }>) {
        const waiting = this.onCommand.get(command.command_id);
        if (waiting) waiting(at);
        else this.seen.set(command.command_id, at);
        this.onCommand.delete(command.command_id);
      }
    }
  }
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
const ms = (n: number) => `${n.toFixed(2)} ms`;

/** The server as a child process on `dataDir`, spoken to over IPC (its port, its memory). */
async function startServer(dataDir: string) {
  const child = fork(fileURLToPath(import.meta.url), ['--server'], {
    execArgv: ['--import', 'tsx', '--expose-gc'],
    env: { ...process.env, BENCH_DATA_DIR: dataDir },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const messages: ServerMessage[] = [];
  const waiters: Array<() => void> = [];
  let stopping = false;
  child.on('exit', (code, signal) => {
    if (!stopping) console.error(`the server exited unexpectedly (code ${code}, signal ${signal})`);
  });
  child.on('message', (m: ServerMessage) => {
    messages.push(m);
    waiters.splice(0).forEach((w) => w());
  });
  const nextMessage = async (): Promise<ServerMessage> => {
    while (messages.length === 0) await new Promise<void>((r) => waiters.push(r));
    return messages.shift()!;
  };
  port = ((await nextMessage()) as { port: number }).port;
  return {
    async memory(gc: boolean) {
      child.send(gc ? 'rss-after-gc' : 'rss');
      return (await nextMessage()) as Memory;
    },
    async stop() {
      stopping = true;
      child.send('stop');
      await new Promise((r) => child.once('exit', r));
    },
  };
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;

async function runClient() {
  const dataDir = mkdtempSync(join(tmpdir(), 'mind-bench-'));
  try {
    // 1. Register every computer on a first server, so the measured server holds no garbage from it.
    let server = await startServer(dataDir);
    const user = await request('POST', '/register', undefined, { email: 'bench@example.com', password: 'correct horse' });
    const mind = await request('POST', '/minds', user.body.jwt, { name: 'bench' });
    const mindKey = mind.body.mind_key as string;
    const started = performance.now();
    const computers = await registerComputers(mindKey, RSS_POLLS);
    console.log(`registered ${RSS_POLLS} computers in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    await server.stop();

    // 2. A fresh server process on the same data.
    server = await startServer(dataDir);
    const fresh = await server.memory(true);
    const pollers = new Pollers();
    const latencyComputers = computers.slice(0, LATENCY_POLLS);
    await pollers.hold(latencyComputers);
    await sleep(2000); // every poll is waiting now

    // Latency: one command at a time, each to a different waiting computer, measured from sending
    // the queue request to receiving the poll's answer on the agent's side.
    const latencies: number[] = [];
    const queueTimes: number[] = [];
    for (let i = 0; i < COMMANDS; i++) {
      const computer = latencyComputers[i % latencyComputers.length]!;
      const t0 = performance.now();
      const { body } = await request('POST', `/computers/${computer.id}/commands`, mindKey, { type: 'move', payload: { x: i % 1000, y: 1 } });
      const queuedAt = performance.now();
      const answeredAt = await pollers.expect(body.command_id);
      latencies.push(answeredAt - t0);
      queueTimes.push(queuedAt - t0);
      if (i % latencyComputers.length === latencyComputers.length - 1) await sleep(200); // let re-polls settle before reusing computers
    }
    latencies.sort((a, b) => a - b);
    queueTimes.sort((a, b) => a - b);

    // Memory: every computer holds an idle poll.
    await pollers.hold(computers.slice(LATENCY_POLLS));
    await sleep(5000);
    const held = await server.memory(false);
    const collected = await server.memory(true);
    pollers.stop();
    await server.stop();

    const p50 = percentile(latencies, 50);
    const p99 = percentile(latencies, 99);
    const verdict = (ok: boolean) => (ok ? 'ok' : 'MISSED');
    console.log('');
    console.log(`queue -> poll answer, ${COMMANDS} commands, ${LATENCY_POLLS} idle polls held:`);
    console.log(`  p50 ${ms(p50)}  (target <= ${TARGETS.p50} ms)  ${verdict(p50 <= TARGETS.p50)}`);
    console.log(`  p99 ${ms(p99)}  (target <= ${TARGETS.p99} ms)  ${verdict(p99 <= TARGETS.p99)}`);
    console.log(`  max ${ms(latencies.at(-1)!)}; the queue request alone: p50 ${ms(percentile(queueTimes, 50))}, p99 ${ms(percentile(queueTimes, 99))}`);
    if (pollers.resets) console.log(`(${pollers.resets} poll connections were reset while connecting and polled again)`);
    console.log(`server RSS with ${RSS_POLLS} idle polls: ${mb(held.rss)} (target <= ${TARGETS.rssMb} MB)  ${verdict(held.rss / 1024 / 1024 <= TARGETS.rssMb)}`);
    console.log(`  after a full GC: ${mb(collected.rss)} (V8 heap ${mb(collected.heapUsed)} used of ${mb(collected.heapTotal)}, external ${mb(collected.external)})`);
    console.log(`  the fresh server before any poll: ${mb(fresh.rss)} (V8 heap ${mb(fresh.heapUsed)} used of ${mb(fresh.heapTotal)})`);
  } finally {
    agent.destroy();
    rmSync(dataDir, { recursive: true, force: true });
  }
  process.exit(0);
}

if (process.argv.includes('--server')) await runServer();
else await runClient();
