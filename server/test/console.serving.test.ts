// The console's files (issue 34): /console/ is index.html, not cached, under a CSP that allows only the
// service itself; its hashed assets are immutable; /console redirects; a missing file or build is the
// error object (404), never a stack trace.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import express from 'express';
import supertest from 'supertest';
import { consoleRouter } from '../src/system/console.js';
import { useService } from './harness.js';

const INDEX = new URL('../../console/dist/index.html', import.meta.url);
const CSP =
  "default-src 'none';script-src 'self';style-src 'self';img-src 'self' blob:;connect-src 'self';base-uri 'none';form-action 'self';frame-ancestors 'none'";

describe('the console is served at /console', () => {
  const svc = useService();

  test('/console redirects to /console/', async () => {
    const res = await svc.http.get('/console').expect(301);
    assert.equal(res.headers.location, '/console/');
  });

  test('index.html: no-cache, the strict CSP, its script and style sheet by hashed names', async () => {
    const res = await svc.http.get('/console/').expect(200);
    assert.match(res.headers['content-type'], /^text\/html/);
    assert.equal(res.headers['cache-control'], 'no-cache');
    assert.equal(res.headers['content-security-policy'], CSP);
    assert.equal(res.headers['x-frame-options'], 'DENY');
    assert.equal(res.text, readFileSync(INDEX, 'utf8'));
    assert.doesNotMatch(res.text, /<script>|<style>|https?:\/\//, 'no inline script or style, nothing from elsewhere');
    const script = /src="(assets\/app-[A-Z0-9]+\.js)"/.exec(res.text)?.[1];
    const style = /href="(assets\/app-[A-Z0-9]+\.css)"/.exec(res.text)?.[1];
    assert.ok(script && style, 'index.html names a hashed script and style sheet');

    for (const [asset, type] of [
      [script, /javascript/],
      [style, /text\/css/],
    ] as const) {
      const file = await svc.http.get(`/console/${asset}`).expect(200);
      assert.match(file.headers['content-type'], type);
      assert.equal(file.headers['cache-control'], 'public, max-age=31536000, immutable');
      assert.equal(file.headers['content-security-policy'], CSP);
    }
  });

  test('a missing asset or page is the 404 error object', async () => {
    for (const path of ['/console/assets/app-NOPE.js', '/console/assets/../../package.json', '/console/minds']) {
      const res = await svc.http.get(path).expect(404);
      assert.equal(res.body.code, 'route_not_found', path);
    }
  });

  test('without a build: a 404 error object that says to run pnpm install', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'console-missing-'));
    try {
      const app = express();
      app.use(consoleRouter(empty));
      app.use(
        (
          err: { statusCode: number; message: string; code: string },
          _req: express.Request,
          res: express.Response,
          _next: express.NextFunction,
        ) => {
          res.status(err.statusCode).json({ code: err.code, message: err.message });
        },
      );
      const res = await supertest(app).get('/console/').expect(404);
      assert.equal(res.body.code, 'route_not_found');
      assert.match(res.body.message, /pnpm install/);
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });
});
