// GET /downloads/mindservice-sdk.tgz: the SDK's stdio bridge as a tarball npm installs, served without
// a credential, with a length, an ETag and a revalidating cache policy; the tarball `pnpm install` /
// `pnpm build` packs from the current sources (sdk/build-bridge.mjs), and a change of them changes it.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import * as esbuild from 'esbuild';
import express from 'express';
import supertest from 'supertest';
import { buildBridgeTarball as build } from '../../sdk/build-bridge.mjs';
import { downloadsRouter } from '../src/system/downloads.js';
import { useService } from './harness.js';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const PATH = '/downloads/mindservice-sdk.tgz';
const work = mkdtempSync(join(tmpdir(), 'mind-download-'));
after(() => rmSync(work, { recursive: true, force: true }));

/** A file of the tarball, as tar itself reads it. */
async function entry(tarball: string, name: string): Promise<string> {
  return (await run('tar', ['-xzOf', tarball, `package/${name}`])).stdout;
}

describe('the mind-mcp tarball at /downloads/mindservice-sdk.tgz', () => {
  const svc = useService();
  /** The tarball as bytes (supertest would parse it as text otherwise). */
  const download = () =>
    svc.http
      .get(PATH)
      .buffer(true)
      .parse((res, done) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => done(null, Buffer.concat(chunks)));
      });

  test('no credential needed: a gzip tarball with a length, an ETag and a cache policy that revalidates', async () => {
    const res = await download().expect(200);
    const body = res.body as Buffer;
    assert.equal(res.headers['content-type'], 'application/gzip');
    assert.equal(Number(res.headers['content-length']), body.length);
    assert.deepEqual([...body.subarray(0, 2)], [0x1f, 0x8b], 'gzip magic');
    assert.match(res.headers.etag ?? '', /^"[\w-]{43}"$/);
    assert.equal(res.headers['cache-control'], 'public, no-cache');
    assert.match(res.headers['content-disposition'] ?? '', /filename="mindservice-sdk\.tgz"/);

    const tarball = join(work, 'served.tgz');
    writeFileSync(tarball, body);
    const { stdout: listing } = await run('tar', ['-tvzf', tarball]);
    assert.match(listing, /^-rwxr-xr-x .* package\/dist\/mind-mcp\.js$/m, 'the bin is executable');
    const manifest = JSON.parse(await entry(tarball, 'package.json'));
    assert.deepEqual(manifest.bin, { 'mind-mcp': 'dist/mind-mcp.js' });
    assert.equal(manifest.name, '@mindservice/sdk');
    assert.equal(manifest.dependencies, undefined, 'nothing for npm to fetch from elsewhere');
    const bin = await entry(tarball, 'dist/mind-mcp.js');
    assert.ok(bin.startsWith('#!/usr/bin/env node\n'));
    assert.doesNotMatch(bin, /from ["']@mindservice\//, 'no workspace package is imported');

    // A cache that holds it asks again with the ETag and gets 304, no body; HEAD answers the headers.
    const again = await svc.http.get(PATH).set('If-None-Match', res.headers.etag!).expect(304);
    assert.equal(again.text ?? '', '');
    const head = await svc.http.head(PATH).expect(200);
    assert.equal(head.headers['content-length'], res.headers['content-length']);
    assert.equal(head.headers.etag, res.headers.etag);
  });

  test('what is served is the build of the current sources (pnpm install / pnpm build packs it)', async () => {
    const served = (await download().expect(200)).body as Buffer;
    const fresh = join(work, 'fresh.tgz');
    await build(esbuild, ROOT, fresh);
    assert.ok(readFileSync(fresh).equals(served), 'the served tarball is the current sources packed');
  });

  test("a change of the bridge's sources or version changes the tarball", async () => {
    // A copy of what the pack reads, with the version moved on in the package and in the source.
    const copy = join(work, 'repo');
    cpSync(join(ROOT, 'sdk/src'), join(copy, 'sdk/src'), { recursive: true });
    cpSync(join(ROOT, 'LICENSE'), join(copy, 'LICENSE'));
    const pkg = JSON.parse(readFileSync(join(ROOT, 'sdk/package.json'), 'utf8'));
    writeFileSync(join(copy, 'sdk/package.json'), JSON.stringify({ ...pkg, version: '9.8.7' }));
    const options = join(copy, 'sdk/src/core/options.ts');
    writeFileSync(options, readFileSync(options, 'utf8').replace(/SDK_VERSION = '[^']+'/, "SDK_VERSION = '9.8.7'"));
    const changed = join(work, 'changed.tgz');
    await build(esbuild, copy, changed);
    assert.equal(JSON.parse(await entry(changed, 'package.json')).version, '9.8.7');
    assert.match(await entry(changed, 'dist/mind-mcp.js'), /SDK_VERSION = "9\.8\.7"/);
  });

  test('a path beside it is the 404 error object', async () => {
    const res = await svc.http.get('/downloads/other.tgz').expect(404);
    assert.equal(res.body.code, 'route_not_found');
  });

  test('not built: a 404 error that says to run pnpm install', async () => {
    const app = express();
    app.use(downloadsRouter(join(work, 'missing.tgz')));
    app.use(
      (
        err: { statusCode: number; code: string; message: string },
        _req: express.Request,
        res: express.Response,
        _next: express.NextFunction,
      ) => {
        res.status(err.statusCode).json({ code: err.code, message: err.message });
      },
    );
    const res = await supertest(app).get(PATH).expect(404);
    assert.equal(res.body.code, 'route_not_found');
    assert.match(res.body.message, /pnpm install/);
  });
});
