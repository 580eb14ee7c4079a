import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ConfigError, loadConfig } from '../src/lib/config.js';
import { bearer, freshPostgresSchema, startService, TEST_DATABASE_URL, type TestService } from './harness.js';
import { type ServerProcess, startServerProcess } from './server-process.js';

describe('lists: every list is bounded', () => {
  let svc: TestService;
  before(async () => {
    svc = await startService();
  });
  after(() => svc.stop());

  test('GET /mind/scripts pages by name: limit 1..100 (default 100), next_cursor null on the last page', async () => {
    const { mindKey } = await svc.mind();
    const auth = bearer(mindKey);
    const names = Array.from({ length: 105 }, (_, i) => `script-${String(i).padStart(3, '0')}`);
    for (let i = 0; i < names.length; i += 15) {
      await Promise.all(
        names.slice(i, i + 15).map((name) =>
          svc.http
            .post('/mind/scripts')
            .set(auth)
            .send({ name, content: `echo ${name}` })
            .expect(201),
        ),
      );
    }
    const first = await svc.http.get('/mind/scripts').set(auth).expect(200);
    assert.equal(first.body.scripts.length, 100);
    assert.equal(typeof first.body.next_cursor, 'string');
    const rest = await svc.http.get('/mind/scripts').query({ cursor: first.body.next_cursor }).set(auth).expect(200);
    assert.equal(rest.body.next_cursor, null);
    assert.deepEqual(
      [...first.body.scripts, ...rest.body.scripts].map((s: { name: string }) => s.name),
      names,
    );

    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { body: { scripts: Array<{ name: string }>; next_cursor: string | null } } = await svc.http
        .get('/mind/scripts')
        .query({ limit: '7', ...(cursor ? { cursor } : {}) })
        .set(auth)
        .expect(200);
      assert.ok(page.body.scripts.length <= 7);
      seen.push(...page.body.scripts.map((s) => s.name));
      cursor = page.body.next_cursor;
    } while (cursor);
    assert.deepEqual(seen, names);

    for (const limit of ['0', '101', '1e1', '-3']) await svc.http.get('/mind/scripts').query({ limit }).set(auth).expect(400);
    const bad = await svc.http.get('/mind/scripts').query({ cursor: 'not-a-cursor' }).set(auth).expect(400);
    assert.match(bad.body.message, /cursor/);
  });

  test('GET /mind/chat takes at most 100 messages a page', async () => {
    const { mindKey } = await svc.mind();
    const auth = bearer(mindKey);
    await svc.http.get('/mind/chat').query({ limit: '100' }).set(auth).expect(200);
    for (const limit of ['101', '500', '0', '2.5']) await svc.http.get('/mind/chat').query({ limit }).set(auth).expect(400);
  });

  test('GET /webhooks/:id/deliveries takes at most 100 a page', async () => {
    const { mindKey } = await svc.mind();
    const auth = bearer(mindKey);
    const hook = await svc.http
      .post('/webhooks')
      .set(auth)
      .send({ url: 'https://example.com/hook', events: '*', secret: 'long-enough-secret' })
      .expect(201);
    await svc.http.get(`/webhooks/${hook.body.id}/deliveries`).query({ limit: '100' }).set(auth).expect(200);
    await svc.http.get(`/webhooks/${hook.body.id}/deliveries`).query({ limit: '101' }).set(auth).expect(400);
  });

  test('the growth caps have documented defaults and refuse bad values', () => {
    const config = loadConfig({});
    assert.equal(config.maxMindsPerUser, 100);
    assert.equal(config.maxPendingDeliveriesPerWebhook, 1000);
    assert.equal(config.mindDeleteChunkSize, 500);
    assert.equal(config.pageMaxBytes, 1024 * 1024);
    assert.equal(loadConfig({ MIND_PAGE_MAX_BYTES: '4096' }).pageMaxBytes, 4096);
    assert.throws(
      () => loadConfig({ MIND_PAGE_MAX_BYTES: '1000' }),
      (err: Error) => err instanceof ConfigError && err.message.includes('MIND_PAGE_MAX_BYTES'),
    );
    for (const name of ['MIND_MAX_MINDS_PER_USER', 'MIND_MAX_PENDING_DELIVERIES_PER_WEBHOOK', 'MIND_DELETE_CHUNK_SIZE']) {
      assert.throws(
        () => loadConfig({ [name]: '0' }),
        (err: Error) => err instanceof ConfigError && err.message.includes(name),
      );
    }
  });
});

// F2: GET /mind/scripts answered up to 100 scripts with their content in one page (100 MB, 5.6 s; 20
// at once took the server to 3.7 GB). The same with smaller numbers, on a real server process: 20
// scripts of 500,000 characters, 10 lists at once.
describe('lists: a page of large scripts stays within MIND_PAGE_MAX_BYTES (a server process)', () => {
  const SCRIPTS = 20;
  const CHARS = 500_000;
  const BOUND = 1024 * 1024;
  let server: ServerProcess;
  let schema: { url: string; drop(): Promise<void> } | undefined;
  let dir: string;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'mind-f2-'));
    schema = TEST_DATABASE_URL ? await freshPostgresSchema(TEST_DATABASE_URL) : undefined;
    server = await startServerProcess({ MIND_DATA_DIR: dir, ...(schema ? { DATABASE_URL: schema.url } : {}) });
  });
  after(async () => {
    await server?.stop();
    await schema?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  test('20 lists at once: each page within the bound and one script, every script once, /health answers meanwhile', async (t) => {
    const call = async (path: string, init: { method?: string; token?: string; body?: unknown } = {}) => {
      const res = await fetch(`${server.url}${path}`, {
        method: init.method ?? 'GET',
        headers: { 'content-type': 'application/json', ...(init.token ? { authorization: `Bearer ${init.token}` } : {}) },
        body: init.body === undefined ? undefined : JSON.stringify(init.body),
      });
      const text = await res.text();
      assert.ok(res.status < 300, `${path}: ${res.status} ${text.slice(0, 200)}`);
      return { text, body: JSON.parse(text || 'null') };
    };
    const user = await call('/register', { method: 'POST', body: { email: `f2-${Date.now()}@example.com`, password: 'correct horse' } });
    const mind = await call('/minds', { method: 'POST', token: user.body.jwt, body: { name: 'f2' } });
    const key: string = mind.body.mind_key;
    for (let i = 0; i < SCRIPTS; i++) {
      const name = `script-${String(i).padStart(2, '0')}`;
      await call('/mind/scripts', { method: 'POST', token: key, body: { name, content: `${name} ${'x'.repeat(CHARS)}` } });
    }

    const rss = () => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${server.child.pid}/status`, 'utf8'))![1]) * 1024;
    const baseline = rss();
    let peak = baseline;
    const sampler = setInterval(() => (peak = Math.max(peak, rss())), 10);
    let slowestHealth = 0;
    let listing = true;
    const health = (async () => {
      while (listing) {
        const started = performance.now();
        await call('/health');
        slowestHealth = Math.max(slowestHealth, performance.now() - started);
        await new Promise((r) => setTimeout(r, 50));
      }
    })();
    const started = performance.now();
    const answers = await Promise.all(Array.from({ length: 20 }, () => call('/mind/scripts', { token: key })));
    const elapsed = performance.now() - started;
    listing = false;
    await health;
    clearInterval(sampler);

    const largest = Math.max(...answers.map((a) => Buffer.byteLength(a.text)));
    t.diagnostic(
      `largest answer ${largest} bytes, 20 lists in ${Math.round(elapsed)} ms, RSS ${Math.round(baseline / 2 ** 20)} MB -> peak ${Math.round(peak / 2 ** 20)} MB, slowest /health ${Math.round(slowestHealth)} ms`,
    );
    for (const answer of answers) {
      assert.ok(answer.body.scripts.length >= 1);
      assert.ok(Buffer.byteLength(answer.text) <= BOUND + CHARS + 1000, `a page of ${Buffer.byteLength(answer.text)} bytes`);
      assert.equal(typeof answer.body.next_cursor, 'string', 'the first page is not the whole list');
    }
    // Generous margins (a busy 2-core box): before the bound, 20 answers of 10 MB each.
    assert.ok(peak - baseline < 400 * 2 ** 20, `RSS grew by ${Math.round((peak - baseline) / 2 ** 20)} MB`);
    assert.ok(slowestHealth < 5000, `/health took ${Math.round(slowestHealth)} ms`);

    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { body: { scripts: Array<{ name: string; content: string }>; next_cursor: string | null } } = await call(
        `/mind/scripts${cursor ? `?cursor=${cursor}` : ''}`,
        { token: key },
      );
      for (const script of page.body.scripts) {
        assert.equal(script.content.length, script.name.length + 1 + CHARS, 'each script comes with its whole content');
        seen.push(script.name);
      }
      cursor = page.body.next_cursor;
    } while (cursor);
    assert.deepEqual(
      seen,
      Array.from({ length: SCRIPTS }, (_, i) => `script-${String(i).padStart(2, '0')}`),
    );
  });
});
