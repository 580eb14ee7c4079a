// Servers under test, each in its own child process: the client (autocannon, the pollers, the
// webhook receiver) runs in the bench process, so client and server never share one event loop.
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { Client } from './client.js';

export const ROOT = resolve(fileURLToPath(import.meta.url), '../../..');

/** A port free right now (the child binds it a moment later; good enough on a bench machine). */
export function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const probe = createServer();
    probe.once('error', fail);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => done(port));
    });
  });
}

export interface ChildServer {
  url: string;
  pid: number;
  /** Resident set size of the server process, from /proc (Linux). */
  rssBytes(): number;
  /** SIGTERM (the service drains), SIGKILL if it has not exited within 20 s. */
  stop(): Promise<void>;
}

/** Starts `node <args>` with PORT set and waits until `readyPath` answers 200. stdout is discarded. */
export async function startChild(args: string[], env: Record<string, string>, readyPath = '/'): Promise<ChildServer> {
  const port = await freePort();
  const child: ChildProcess = spawn(process.execPath, args, {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', HOST: '127.0.0.1', ...env, PORT: String(port) },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk).slice(-4000);
  });
  let exited = false;
  const exit = new Promise<void>((done) =>
    child.once('exit', () => {
      exited = true;
      done();
    }),
  );
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (exited) throw new Error(`${args.join(' ')} exited before it was ready:\n${stderr}`);
    const ok = await fetch(url + readyPath).then(
      (r) => {
        void r.body?.cancel();
        return r.status === 200;
      },
      () => false,
    );
    if (ok) break;
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`${args.join(' ')} was not ready within 60 s:\n${stderr}`);
    }
    await sleep(100);
  }
  return {
    url,
    pid: child.pid!,
    rssBytes() {
      const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'));
      return match ? Number(match[1]) * 1024 : NaN;
    },
    async stop() {
      if (exited) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
      await exit;
      clearTimeout(timer);
    },
  };
}

export type DatabaseKind = 'sqlite' | 'postgresql';

/** Where a Mind Service keeps its data: a temp SQLite dir, or a fresh PostgreSQL schema dropped afterwards. */
export interface DataPlace {
  kind: DatabaseKind;
  /** MIND_DATA_DIR, DATABASE_URL (when PostgreSQL), MIND_ENCRYPTION_KEY. */
  env: Record<string, string>;
  remove(): Promise<void>;
}

export async function createDataPlace(kind: DatabaseKind): Promise<DataPlace> {
  const dataDir = mkdtempSync(join(tmpdir(), 'mind-bench-'));
  // Given explicitly so the bench process can write memories the service can read.
  const env: Record<string, string> = { MIND_DATA_DIR: dataDir, MIND_ENCRYPTION_KEY: randomBytes(32).toString('hex') };
  let dropSchema = async () => {};
  if (kind === 'postgresql') {
    const base = process.env.DATABASE_URL;
    if (!base) throw new Error('DATABASE_URL is not set');
    const { freshPostgresSchema } = await import('../../server/test/harness.js');
    const schema = await freshPostgresSchema(base);
    env.DATABASE_URL = schema.url;
    dropSchema = () => schema.drop();
  }
  return {
    kind,
    env,
    async remove() {
      await dropSchema();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The databases to run the Mind Service parts on: SQLite, and PostgreSQL when DATABASE_URL is set. */
export function databaseKinds(): DatabaseKind[] {
  return process.env.DATABASE_URL ? ['sqlite', 'postgresql'] : ['sqlite'];
}

/**
 * The Mind Service as operators start it (`pnpm start`: the compiled server through
 * server/bin/mind-service.mjs, rebuilt first if older than its sources), default logging (info) into
 * /dev/null; bcrypt cost 4 only so that seeding accounts is fast.
 */
export function startMindService(place: DataPlace, extraEnv: Record<string, string> = {}): Promise<ChildServer> {
  return startChild(
    ['server/bin/mind-service.mjs', 'start'],
    { LOG_LEVEL: 'info', MIND_BCRYPT_COST: '4', ...place.env, ...extraEnv },
    '/health',
  );
}

/**
 * A fresh Mind Service on `kind` (`env` added to its environment) and a client for it, given to `fn`;
 * afterwards, however `fn` ends, the client is closed, the service stopped, `afterStop` run and the
 * data removed.
 */
export async function withMindService<T>(
  kind: DatabaseKind,
  env: Record<string, string>,
  fn: (server: ChildServer, client: Client) => Promise<T>,
  afterStop: () => Promise<void> = async () => {},
): Promise<T> {
  const place = await createDataPlace(kind);
  const server = await startMindService(place, env);
  const client = new Client(server.url);
  try {
    return await fn(server, client);
  } finally {
    client.close();
    await server.stop();
    await afterStop();
    await place.remove();
  }
}
