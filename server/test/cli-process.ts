// `mind-service <command>` as a user runs it: its own process on a test service's data (and
// database), with its output piped and collected.
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestService } from './harness.js';

const ROOT = resolve(fileURLToPath(import.meta.url), '../../..');

export function runCli(svc: TestService, args: string[], env: Record<string, string> = {}) {
  const child = spawn(process.execPath, ['server/bin/mind-service.mjs', ...args], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH,
      MIND_DATA_DIR: svc.dataDir,
      ...env,
      ...(svc.config.databaseUrl ? { DATABASE_URL: svc.config.databaseUrl } : {}),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk));
  const exit = new Promise<number | null>((done) => child.once('exit', done));
  return { child, exit, stdout: () => stdout, stderr: () => stderr };
}
