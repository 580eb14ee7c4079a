// Long-poll benchmark: queue-to-answer latency with 1,000 idle polls held, and the server's RSS with
// 10,000. A first service registers the computers; a second, fresh one over the same data is measured
// (so its RSS holds nothing from the registrations). This process plays the agents over keep-alive HTTP.
//
//   node --import tsx bench/computers.ts   (BENCH_QUICK=1 for a small run; DATABASE_URL: also PostgreSQL)
//
// Each process needs about `idlePolls` + 100 file descriptors (`ulimit -n`).
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { Client, inBatches } from './lib/client.js';
import { markdownTable, ms, percentile, type Row, row, sortNumbers } from './lib/report.js';
import { createDataPlace, type DatabaseKind, databaseKinds, startMindService } from './lib/servers.js';

export interface ComputersOptions {
  /** Polls held while commands are timed. */
  latencyPolls: number;
  /** Commands timed, one at a time. */
  commands: number;
  /** Polls held when the RSS is read. */
  idlePolls: number;
}

export const COMPUTERS_FULL: ComputersOptions = { latencyPolls: 1000, commands: 1000, idlePolls: 10_000 };
export const COMPUTERS_QUICK: ComputersOptions = { latencyPolls: 100, commands: 100, idlePolls: 500 };
const TARGETS = { p50: 5, p99: 25, rssMb: 300 };
/** Issue 32: on PostgreSQL the p50 must be at most this (the scale-out path must not be the slow path). */
const POSTGRES_P50_MS = 3;
const POLL_WAIT_S = 60;

export interface Computer {
  id: string;
  token: string;
}

export async function registerComputers(client: Client, mindKey: string, n: number): Promise<Computer[]> {
  return inBatches(n, 32, async (i) => {
    const code = await client.ok('POST', '/computers/install-code', mindKey, {});
    const body = await client.ok('POST', '/computers/register', undefined, {
      code: code.install_code,
      computer_name: `bench-${i}`,
      platform: 'linux',
      platform_release: 'bench',
      python: process.version,
    });
    return { id: body.computer_id as string, token: body.computer_token as string };
  });
}

const isReset = (err: Error) => /ECONNRESET|EPIPE/.test(err.message);

/** Each computer keeps one poll waiting; an answer with commands is reported, then it polls again. */
export class Pollers {
  private readonly onCommand = new Map<string, (at: number) => void>();
  /** Answers that arrived before anyone asked for them (before the queue request's response). */
  private readonly seen = new Map<string, number>();
  private stopped = false;
  resets = 0;
  failure: Error | undefined;

  constructor(private readonly client: Client) {}

  /** Starts the polls a hundred at a time: thousands of connects at once overflow the listen backlog. */
  async hold(computers: Computer[]) {
    for (let i = 0; i < computers.length; i += 100) {
      for (const computer of computers.slice(i, i + 100)) {
        this.loop(computer).catch((err: Error) => (this.failure ??= err));
      }
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
      const res = await this.client.request('GET', `/computers/me/poll?wait=${POLL_WAIT_S}`, computer.token).catch((err: Error) => {
        if (this.stopped) return 'stopped' as const; // the server is shutting down
        if (!isReset(err)) throw err;
        this.resets++; // a connect the loaded server did not accept in time: poll again, like an agent
        return 'reset' as const;
      });
      const at = performance.now();
      if (res === 'stopped' || this.stopped) return;
      if (res === 'reset') continue;
      if (res.status !== 200) throw new Error(`poll answered ${res.status}: ${JSON.stringify(res.body)}`);
      for (const command of res.body.commands as Array<{ command_id: string }>) {
        const waiting = this.onCommand.get(command.command_id);
        if (waiting) waiting(at);
        else this.seen.set(command.command_id, at);
        this.onCommand.delete(command.command_id);
      }
    }
  }
}

/**
 * One command at a time, each to a different waiting computer, timed from sending the queue request
 * to the agent receiving the poll's answer.
 */
export async function timeDispatch(
  commander: Client,
  pollers: Pollers,
  computers: Computer[],
  mindKey: string,
  commands: number,
  /** When given, each queue request's answer time too. */
  queueTimes?: number[],
): Promise<number[]> {
  const latencies: number[] = [];
  for (let i = 0; i < commands; i++) {
    if (pollers.failure) throw pollers.failure;
    const computer = computers[i % computers.length]!;
    const t0 = performance.now();
    const queue = () =>
      commander.ok('POST', `/computers/${computer.id}/commands`, mindKey, { type: 'move', payload: { x: i % 1000, y: 1 } });
    // A keep-alive socket the server closed while idle is reset before the request reached it.
    const body = await queue().catch((err: Error) => (isReset(err) ? queue() : Promise.reject(err)));
    queueTimes?.push(performance.now() - t0);
    latencies.push((await pollers.expect(body.command_id)) - t0);
    if (i % computers.length === computers.length - 1) await sleep(200); // let the re-polls arrive before reusing computers
  }
  return latencies;
}

const mb = (bytes: number) => bytes / 1024 / 1024;

export async function benchComputers(kind: DatabaseKind, opts: ComputersOptions): Promise<Row[]> {
  const place = await createDataPlace(kind);
  // One account with 10,000 computers: a fleet far past the default caps, which an operator raises.
  const fleet = { MIND_MAX_COMPUTERS_PER_USER: '100000', MIND_MAX_COMPUTERS_PER_MIND: '100000', MIND_MAX_INSTALL_CODES_PER_MIND: '10000' };
  let server = await startMindService(place, fleet);
  let client = new Client(server.url);
  try {
    const mind = await client.newMind('bench-computers');
    const computers = await registerComputers(client, mind.mindKey, Math.max(opts.idlePolls, opts.latencyPolls));
    client.close();
    await server.stop();

    server = await startMindService(place, fleet);
    client = new Client(server.url);
    const commander = new Client(server.url);
    const freshRss = server.rssBytes();
    const pollers = new Pollers(client);
    const latencyComputers = computers.slice(0, opts.latencyPolls);
    await pollers.hold(latencyComputers);
    await sleep(1000); // every poll is waiting now

    const latencies = await timeDispatch(commander, pollers, latencyComputers, mind.mindKey, opts.commands);
    const sorted = sortNumbers(latencies);

    // Memory: every computer holds an idle poll.
    await pollers.hold(computers.slice(opts.latencyPolls, opts.idlePolls));
    await sleep(3000);
    if (pollers.failure) throw pollers.failure;
    const heldRss = server.rssBytes();
    pollers.stop();
    commander.close();

    const p50 = percentile(sorted, 50);
    const p99 = percentile(sorted, 99);
    const label = `command dispatch, ${opts.latencyPolls.toLocaleString('en')} idle polls held`;
    const resets = pollers.resets ? `; ${pollers.resets} poll connects reset and retried` : '';
    return [
      row(
        `${label}: p50`,
        kind,
        `${ms(p50)} (${opts.commands.toLocaleString('en')} commands, max ${ms(sorted.at(-1)!)})`,
        { p50_ms: p50, p99_ms: p99, max_ms: sorted.at(-1)! },
        { op: '<=', value: kind === 'postgresql' ? POSTGRES_P50_MS : TARGETS.p50, unit: 'ms' },
        p50,
      ),
      row(`${label}: p99`, kind, ms(p99), { p99_ms: p99 }, { op: '<=', value: TARGETS.p99, unit: 'ms' }, p99),
      row(
        `server RSS, ${opts.idlePolls.toLocaleString('en')} idle polls`,
        kind,
        `${mb(heldRss).toFixed(0)} MB (${mb(freshRss).toFixed(0)} MB before any poll${resets})`,
        { rss_mb: mb(heldRss), fresh_rss_mb: mb(freshRss), resets: pollers.resets },
        { op: '<=', value: TARGETS.rssMb, unit: 'MB' },
        mb(heldRss),
      ),
    ];
  } finally {
    client.close();
    await server.stop();
    await place.remove();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const rows: Row[] = [];
  for (const kind of databaseKinds())
    rows.push(...(await benchComputers(kind, process.env.BENCH_QUICK ? COMPUTERS_QUICK : COMPUTERS_FULL)));
  console.log(markdownTable(rows));
}
