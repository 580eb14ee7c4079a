// The README's install line: `npm install -g ./agent` puts the command on PATH from this checkout.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, test } from 'node:test';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(fileURLToPath(import.meta.url), '../../..');
const prefix = mkdtempSync(join(tmpdir(), 'agent-global-'));
after(() => rmSync(prefix, { recursive: true, force: true }));

test('npm install -g ./agent gives a screen-remote-agent command that runs from anywhere', () => {
  const npm = spawnSync('npm', ['install', '-g', '--prefix', prefix, '--no-audit', '--no-fund', './agent'], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: 120_000,
  });
  assert.equal(npm.status, 0, npm.stderr);
  const version = JSON.parse(readFileSync(join(ROOT, 'agent/package.json'), 'utf8')).version as string;
  const run = spawnSync(join(prefix, 'bin', 'screen-remote-agent'), ['--version'], { cwd: tmpdir(), encoding: 'utf8' });
  assert.equal(run.status, 0, run.stderr);
  assert.equal(run.stdout.trim(), version);
  const help = spawnSync(join(prefix, 'bin', 'screen-remote-agent'), ['register', '--help'], { cwd: tmpdir(), encoding: 'utf8' });
  assert.match(help.stdout, /--install-code XXXX-XXXX/);
});
