// The published form of the SDK: pack it with the command docs/sdk.md gives, install the tarball into a
// project outside the workspace next to its declared dependencies only, type-check a consumer against the
// tarball's declarations with strict flags, and run it (ESM and CJS) against a live service.
//
// The install is offline: the tarball is unpacked as npm would, and each dependency its package.json
// declares is linked from the workspace's installed copy once its version is checked to be the one
// declared, and the `bin` is linked into node_modules/.bin. Nothing else is reachable from the project, so
// a bundle that needed anything more would fail. `mind-mcp`, the package's command, runs from that link.
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import {
  chmodSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  readlinkSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { builtinModules, createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { type LiveServer, startLiveServer } from './live-server.js';

const run = promisify(execFile);
const root = resolve(import.meta.dirname, '../..');
const sdk = join(root, 'sdk');
const tsc = join(root, 'node_modules/typescript/bin/tsc');
const fixtures = join(import.meta.dirname, 'fixtures/consumer');
const { version } = JSON.parse(readFileSync(join(sdk, 'package.json'), 'utf8')) as { version: string };

describe('the packed SDK', { timeout: 300_000 }, () => {
  let live: LiveServer;
  let work: string;
  let project: string;
  let tarball: string;
  let manifestText: string;

  before(async () => {
    live = await startLiveServer();
    work = mkdtempSync(join(tmpdir(), 'mindservice-sdk-pack-'));
    // docs/sdk.md's command; pnpm pack runs the prepack build (tsup) and applies publishConfig.
    await run('pnpm', ['--filter', '@mindservice/sdk', 'pack', '--pack-destination', 'sdk'], { cwd: root, timeout: 240_000 });
    const packed = join(sdk, `mindservice-sdk-${version}.tgz`);
    assert.ok(existsSync(packed), `the tarball is where the docs say: ${packed}`);
    tarball = join(work, 'mindservice-sdk.tgz');
    renameSync(packed, tarball);
    manifestText = (await run('tar', ['-xzOf', tarball, 'package/package.json'])).stdout;
    project = join(work, 'consumer');
    cpSync(fixtures, project, { recursive: true });
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'sdk-consumer', private: true, version: '1.0.0' }));
  });
  after(async () => {
    await live?.stop();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('the tarball holds dist, the README and the licence only', async () => {
    const { stdout } = await run('tar', ['-tzf', tarball]);
    const files = stdout.trim().split('\n').sort();
    for (const file of ['index.js', 'index.cjs', 'index.d.ts', 'index.d.cts', 'mind-mcp.js']) {
      assert.ok(files.includes(`package/dist/${file}`), file);
    }
    const others = files.filter((f) => !f.startsWith('package/dist/'));
    assert.deepEqual(others, ['package/LICENSE', 'package/README.md', 'package/package.json']);
  });

  it('its package.json points at dist and depends on @ts-rest/core and zod only, naming nothing unpublished', async () => {
    for (const name of ['@mindservice/contract', 'zod-to-openapi', 'openapi3-ts', 'yaml', 'workspace:']) {
      assert.ok(!manifestText.includes(name), `the packed package.json mentions ${name}:\n${manifestText}`);
    }
    const pkg = JSON.parse(manifestText);
    assert.equal(pkg.version, version);
    assert.equal(pkg.exports['.'].import.default, './dist/index.js');
    assert.equal(pkg.exports['.'].require.default, './dist/index.cjs');
    assert.equal(pkg.types, './dist/index.d.ts');
    const sdkPkg = JSON.parse(readFileSync(join(sdk, 'package.json'), 'utf8'));
    assert.deepEqual(pkg.dependencies, { '@ts-rest/core': sdkPkg.dependencies['@ts-rest/core'], zod: sdkPkg.dependencies.zod });
    // The agent frameworks' SDKs, whose types the adapters' subpaths name: optional peers, never installed with it.
    assert.deepEqual(Object.keys(pkg.peerDependencies ?? {}).sort(), ['@anthropic-ai/sdk', '@openai/agents-core']);
    assert.deepEqual(pkg.peerDependenciesMeta, { '@anthropic-ai/sdk': { optional: true }, '@openai/agents-core': { optional: true } });
    assert.equal(pkg.optionalDependencies, undefined);
    // The bundle does not load the contract or zod-to-openapi at run time.
    const { stdout: esm } = await run('tar', ['-xzOf', tarball, 'package/dist/index.js'], { maxBuffer: 16 * 1024 * 1024 });
    assert.doesNotMatch(esm, /from ["'](@mindservice\/contract|@asteasolutions\/zod-to-openapi|openapi3-ts|yaml)["']/);
  });

  it('its bin is mind-mcp: dist/mind-mcp.js, a Node script that needs nothing but Node', async () => {
    const pkg = JSON.parse(manifestText);
    assert.deepEqual(pkg.bin, { 'mind-mcp': './dist/mind-mcp.js' });
    const { stdout: bin } = await run('tar', ['-xzOf', tarball, 'package/dist/mind-mcp.js']);
    assert.ok(bin.startsWith('#!/usr/bin/env node\n'), 'it starts with a hashbang');
    const imported = [...bin.matchAll(/^import .* from ["']([^"']+)["'];$/gm)].map((m) => m[1]);
    assert.ok(imported.length > 0);
    for (const name of imported) assert.ok(builtinModules.includes(String(name).replace(/^node:/, '')), `imports ${name}`);
  });

  it('installs outside the workspace, type-checks a strict consumer, and runs it as ESM and CJS', async () => {
    const modules = join(project, 'node_modules');
    const installed = join(modules, '@mindservice/sdk');
    mkdirSync(installed, { recursive: true });
    await run('tar', ['-xzf', tarball, '-C', installed, '--strip-components=1']);
    const pkg = JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
      bin: Record<string, string>;
    };
    for (const [name, spec] of Object.entries(pkg.dependencies)) {
      const source = realpathSync(join(sdk, 'node_modules', name));
      const have = JSON.parse(readFileSync(join(source, 'package.json'), 'utf8')).version;
      assert.equal(have, spec, `the workspace has ${name}@${spec}, as the package declares`);
      mkdirSync(dirname(join(modules, name)), { recursive: true });
      symlinkSync(source, join(modules, name), 'dir');
    }
    // The bin as npm links it.
    mkdirSync(join(modules, '.bin'));
    for (const [command, target] of Object.entries(pkg.bin)) {
      symlinkSync(join('..', '@mindservice/sdk', target), join(modules, '.bin', command));
      chmodSync(join(installed, target), 0o755);
    }
    const consumerRequire = createRequire(join(project, 'package.json'));
    assert.equal(consumerRequire.resolve('@mindservice/sdk'), realpathSync(join(installed, 'dist/index.cjs')));
    for (const unpublished of ['@mindservice/contract', '@asteasolutions/zod-to-openapi']) {
      assert.throws(() => consumerRequire.resolve(unpublished), `${unpublished} is out of the project's reach`);
    }

    // The consumer's expect-error directives prove the types are real and the flags on: with `any` types,
    // or without noUncheckedIndexedAccess, tsc would report an unused directive.
    try {
      await run(process.execPath, [tsc, '-p', 'tsconfig.json'], { cwd: project, timeout: 120_000 });
    } catch (err) {
      const e = err as { stdout?: string; stderr?: string };
      assert.fail(`tsc failed:\n${e.stdout}${e.stderr}`);
    }

    const esm = await run(process.execPath, ['out/consumer.mjs', live.baseUrl], { cwd: project, timeout: 60_000 });
    assert.deepEqual(JSON.parse(esm.stdout), {
      module: 'esm',
      title: 'from the tarball',
      titles: ['from the tarball', 'second', 'third'],
      pages: [2, 1],
      notFound: true,
      signed: false,
      isTasks: true,
      readme: 'http://127.0.0.1:3000',
    });
    const cjs = await run(process.execPath, ['out/consumer.cjs', live.baseUrl], { cwd: project, timeout: 60_000 });
    assert.deepEqual(JSON.parse(cjs.stdout), {
      module: 'cjs',
      category: 'fact',
      recalled: 3,
      isPage: true,
      more: true,
      unauthorized: true,
    });
  });

  it('mind-mcp from node_modules/.bin serves the tools over stdio: a task created through it is there', async () => {
    const command = join(project, 'node_modules/.bin/mind-mcp');
    assert.equal(readlinkSync(command), '../@mindservice/sdk/dist/mind-mcp.js');
    const { client, mindKey } = await live.account();
    const lines = [
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'sh', version: '1' } },
      },
      { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'create_task', arguments: { title: 'over stdio' } } },
    ].map((m) => `${JSON.stringify(m)}\n`);
    // Run as a client launches it: the command itself (hashbang), with only PATH and the two settings.
    const child = spawn(command, [], { cwd: project, env: { PATH: process.env.PATH ?? '', MIND_URL: live.baseUrl, MIND_KEY: mindKey } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.stdin.end(lines.join(''));
    const code = await new Promise((resolve) => child.on('close', resolve));
    assert.equal(code, 0, stderr);
    const answers = stdout
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as { id: number; result?: { serverInfo?: { name: string }; content?: Array<{ text: string }> } });
    const byId = new Map(answers.map((a) => [a.id, a]));
    assert.equal(byId.get(1)?.result?.serverInfo?.name, 'mind-service');
    const task = JSON.parse(byId.get(2)?.result?.content?.at(-1)?.text ?? 'null') as { id: string; title: string };
    assert.equal(task.title, 'over stdio');
    assert.equal((await client.tasks.get(task.id)).title, 'over stdio');
    assert.ok(!stderr.includes(mindKey), 'the key is never logged');
  });
});
