// The published form of the SDK: pack it, install the tarball with npm into a project outside the workspace,
// type-check a consumer against the tarball's declarations, and run it (ESM and CJS) against a live service.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { startLiveServer, type LiveServer } from './live-server.js';

const run = promisify(execFile);
const root = resolve(import.meta.dirname, '../..');
const tsc = join(root, 'node_modules/typescript/bin/tsc');
const fixtures = join(import.meta.dirname, 'fixtures/consumer');

describe('the packed SDK', { timeout: 300_000 }, () => {
  let live: LiveServer;
  let work: string;
  let project: string;
  let tarball: string;

  before(async () => {
    live = await startLiveServer();
    work = mkdtempSync(join(tmpdir(), 'mindservice-sdk-pack-'));
    // pnpm pack runs the prepack build (tsup) and applies publishConfig.
    await run('pnpm', ['--filter', '@mindservice/sdk', 'pack', '--pack-destination', work], { cwd: root, timeout: 240_000 });
    const [file] = readdirSync(work).filter((f) => f.endsWith('.tgz'));
    assert.ok(file, 'pnpm pack wrote a tarball');
    tarball = join(work, file);
    project = join(work, 'consumer');
    cpSync(fixtures, project, { recursive: true });
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'sdk-consumer', private: true, version: '1.0.0' }));
  });
  after(async () => {
    await live?.stop();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('the tarball holds dist, the README and the licence only, and its package.json has no workspace links and points at dist', async () => {
    const { stdout } = await run('tar', ['-tzf', tarball]);
    const files = stdout.trim().split('\n').sort();
    assert.ok(files.includes('package/dist/index.js'));
    assert.ok(files.includes('package/dist/index.cjs'));
    assert.ok(files.includes('package/dist/index.d.ts'));
    assert.ok(files.includes('package/dist/index.d.cts'));
    const others = files.filter((f) => !f.startsWith('package/dist/'));
    assert.deepEqual(
      others.filter((f) => !['package/package.json', 'package/README.md', 'package/LICENSE'].includes(f)),
      [],
    );
    assert.ok(others.includes('package/README.md'));

    const { stdout: manifest } = await run('tar', ['-xzOf', tarball, 'package/package.json']);
    assert.doesNotMatch(manifest, /workspace:/);
    const pkg = JSON.parse(manifest);
    assert.equal(pkg.exports['.'].import.default, './dist/index.js');
    assert.equal(pkg.exports['.'].require.default, './dist/index.cjs');
    assert.equal(pkg.types, './dist/index.d.ts');
    assert.equal(pkg.dependencies['@mindservice/contract'], undefined, 'the contract is bundled, not a dependency');
    assert.deepEqual(Object.keys(pkg.dependencies).sort(), ['@ts-rest/core', 'zod']);
    // The bundle must not import the contract at run time.
    const { stdout: esm } = await run('tar', ['-xzOf', tarball, 'package/dist/index.js'], { maxBuffer: 16 * 1024 * 1024 });
    assert.doesNotMatch(esm, /from ["']@mindservice\/contract["']/);
  });

  it('installs with npm outside the workspace, type-checks a consumer, and runs it as ESM and CJS', async () => {
    await run('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', tarball], { cwd: project, timeout: 180_000 });
    const installed = JSON.parse(readFileSync(join(project, 'node_modules/@mindservice/sdk/package.json'), 'utf8'));
    assert.equal(installed.name, '@mindservice/sdk');

    // Type-check (and compile) against the tarball's declarations; @ts-expect-error in the consumer proves the
    // types are real: with `any` types tsc would report the unused directive.
    try {
      await run(process.execPath, [tsc, '-p', 'tsconfig.json'], { cwd: project, timeout: 120_000 });
    } catch (err) {
      const e = err as { stdout?: string; stderr?: string };
      assert.fail(`tsc failed:\n${e.stdout}${e.stderr}`);
    }

    const esm = await run(process.execPath, ['out/consumer.mjs', live.baseUrl], { cwd: project, timeout: 60_000 });
    assert.deepEqual(JSON.parse(esm.stdout), { module: 'esm', title: 'from the tarball', listed: 1, notFound: true, signed: false });
    const cjs = await run(process.execPath, ['out/consumer.cjs', live.baseUrl], { cwd: project, timeout: 60_000 });
    assert.deepEqual(JSON.parse(cjs.stdout), { module: 'cjs', category: 'fact', unauthorized: true });
  });
});
