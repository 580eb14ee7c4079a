// What a new user meets first, run as they would run it: `pnpm install` building SQLite's driver
// offline, `pnpm start`, the quickstart pasted into a shell (twice), and Ctrl-C.
import assert from 'node:assert/strict';
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(fileURLToPath(import.meta.url), '../../..');
const tmp = mkdtempSync(join(tmpdir(), 'mind-first-run-'));
after(() => rmSync(tmp, { recursive: true, force: true }));

/** pnpm as `pnpm test` was started (npm_execpath), else the one on PATH. */
const pnpm = (args: string[]): [string, string[]] =>
  process.env.npm_execpath?.includes('pnpm') ? [process.execPath, [process.env.npm_execpath, ...args]] : ['pnpm', args];

/** Runs the shell block of the quickstart guide as pasted into bash. */
function runQuickstart(url: string) {
  const guide = readFileSync(join(ROOT, 'docs/getting-started/quickstart.md'), 'utf8');
  const script = /```sh\n([\s\S]*?)```/.exec(guide)?.[1];
  assert.ok(script, 'the quickstart has a sh block');
  return spawnSync('bash', ['--noprofile', '--norc', '-c', script], {
    env: { PATH: process.env.PATH, HOME: tmp, MIND_URL: url },
    encoding: 'utf8',
    timeout: 30_000,
  });
}

describe('pnpm start, the quickstart and Ctrl-C', () => {
  let child: ChildProcess;
  let output = '';
  let url = '';
  let exited: Promise<number | null>;

  before(async () => {
    const [command, args] = pnpm(['start']);
    // A process group of its own, as a terminal's foreground job: Ctrl-C reaches pnpm and the service.
    // On SQLite, as the README's first command: a DATABASE_URL in the caller's shell is not passed on.
    const { DATABASE_URL: _ignored, ...env } = process.env;
    child = spawn(command, args, {
      cwd: ROOT,
      detached: true,
      env: { ...env, PORT: '0', HOST: '127.0.0.1', MIND_DATA_DIR: join(tmp, 'data'), MIND_BCRYPT_COST: '4' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    exited = new Promise((done) => child.once('exit', (code) => done(code)));
    const collect = (chunk: Buffer) => (output += chunk);
    child.stdout!.on('data', collect);
    child.stderr!.on('data', collect);
    const deadline = Date.now() + 60_000;
    while (!url && Date.now() < deadline) {
      url = /"url":"([^"]+)"/.exec(output)?.[1] ?? '';
      await new Promise((r) => setTimeout(r, 50));
    }
    assert.ok(url, `pnpm start did not start:\n${output}`);
  });

  after(() => {
    if (child.exitCode === null) process.kill(-child.pid!, 'SIGKILL');
  });

  test('the quickstart works, and works again when run a second time', () => {
    const first = runQuickstart(url);
    assert.equal(first.status, 0, first.stderr);
    assert.equal(first.stderr, '');
    assert.match(
      first.stdout,
      /^register: 201\nSummarise the three papers\n\{"tasks":\[\{"id":"[^"]+","title":"Summarise the three papers"/,
    );
    const second = runQuickstart(url);
    assert.equal(second.status, 0, second.stderr);
    assert.equal(second.stderr, '');
    assert.match(second.stdout, /^register: 409\nSummarise the three papers\n\{"tasks":\[\{"id"/);
  });

  test('Ctrl-C drains the service and pnpm start ends with 0, without an ELIFECYCLE error', async () => {
    process.kill(-child.pid!, 'SIGINT');
    assert.equal(await exited, 0, output);
    assert.match(output, /"msg":"stopped"/);
    assert.doesNotMatch(output, /ELIFECYCLE|Command failed/);
  });
});

describe('SQLite driver', () => {
  test('pnpm points node-gyp at the Node headers beside the running node when nodedir is not configured', () => {
    const home = join(tmp, 'home');
    const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^npm_config_/i.test(name)));
    const [command, args] = pnpm(['config', 'get', 'nodedir']);
    const run = spawnSync(command, args, { cwd: ROOT, env: { ...env, HOME: home }, encoding: 'utf8' });
    assert.equal(run.stdout.trim(), resolve(dirname(process.execPath), '..'), run.stderr);
  });

  test('a driver that was never built stops the start with one line that says what to run', () => {
    // Makes loading better-sqlite3 fail as it does when its install could not compile it.
    const hook = join(tmp, 'no-driver.cjs');
    writeFileSync(
      hook,
      `const Module = require('node:module'); const load = Module._load;
       Module._load = function (request, ...rest) {
         if (request === 'better-sqlite3') return function Database() { throw new Error('Could not locate the bindings file. Tried:\\n → /x/build/better_sqlite3.node'); };
         return load.call(this, request, ...rest);
       };`,
    );
    const run = spawnSync(process.execPath, ['--require', hook, 'server/bin/mind-service.mjs', 'migrate'], {
      cwd: ROOT,
      env: { PATH: process.env.PATH, MIND_DATA_DIR: join(tmp, 'no-driver') },
      encoding: 'utf8',
    });
    assert.equal(run.status, 1);
    assert.equal(run.stderr.trim().split('\n').length, 1, run.stderr);
    assert.match(run.stderr, /run `pnpm rebuild -r better-sqlite3`/);
  });
});
