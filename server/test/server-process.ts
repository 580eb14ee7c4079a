// The service as a real operating-system process, started as `pnpm start` starts it (the compiled
// server, server/bin/mind-service.mjs start), for tests of crashes, restarts, signals and several instances.
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { TEST_EMBEDDINGS_CACHE } from './harness.js';

const ROOT = resolve(fileURLToPath(import.meta.url), '../../..');

export interface ServerProcess {
  child: ChildProcess;
  /** Base URL it listens on, from its `Mind Service listening` log line. */
  url: string;
  /** Everything it printed so far. */
  output(): string;
  /** Resolves when the process has exited. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Sends the signal (SIGKILL by default) and waits for the exit. */
  stop(signal?: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export function startServerProcess(env: Record<string, string>, startTimeoutMs = 60_000): Promise<ServerProcess> {
  const child = spawn(process.execPath, ['server/bin/mind-service.mjs', 'start'], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH,
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      MIND_BCRYPT_COST: '4',
      NODE_ENV: 'test',
      MIND_EMBEDDINGS: 'off',
      MIND_EMBEDDINGS_CACHE_DIR: TEST_EMBEDDINGS_CACHE,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) =>
    child.once('exit', (code, signal) => done({ code, signal })),
  );
  const stop = (signal: NodeJS.Signals = 'SIGKILL') => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    return exited;
  };
  return new Promise((resolveStarted, reject) => {
    const timer = setTimeout(() => fail(new Error(`the server did not start within ${startTimeoutMs} ms:\n${output}`)), startTimeoutMs);
    const fail = (err: Error) => {
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(err);
    };
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk));
    child.stdout!.on('data', (chunk: Buffer) => {
      const before = output;
      output += chunk;
      if (before.includes('Mind Service listening')) return;
      for (const line of output.split('\n')) {
        if (!line.includes('Mind Service listening')) continue;
        clearTimeout(timer);
        resolveStarted({ child, url: (JSON.parse(line) as { url: string }).url, output: () => output, exited, stop });
        return;
      }
    });
    void exited.then(({ code }) => fail(new Error(`the server exited (${code}):\n${output}`)));
  });
}

/** A request to a server process; fails the test unless the answer is 2xx. Resolves with its JSON. */
// biome-ignore lint/suspicious/noExplicitAny: the tests read whatever JSON the server answers
export async function callServer(base: string, method: string, path: string, token: string | null, body?: unknown): Promise<any> {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { 'Content-Type': 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = await res.json();
  assert.ok(res.ok, `${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}
