import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ConfigError, loadConfig } from '../src/lib/config.js';
import { bearer, freshPostgresSchema, startService, TEST_DATABASE_URL, type TestService, useService } from './harness.js';
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

// Recall and chat search by meaning page by an offset in a ranked window, then by keyset past it: the
// byte bound ends a page in either part, and the next page starts right after its last hit.
describe('lists: recall and chat search by meaning are bounded in bytes too', () => {
  const BOUND = 4096;
  const svc = useService({ MIND_EMBEDDINGS: 'local', MIND_PAGE_MAX_BYTES: String(BOUND) });

  const walk = async (auth: Record<string, string>, path: string, query: Record<string, string>, items: string) => {
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res: { text: string; body: Record<string, unknown> } = await svc.http
        .get(path)
        .query({ ...query, ...(cursor ? { cursor } : {}) })
        .set(auth)
        .expect(200);
      const hits = res.body[items] as Array<{ id: string; content: string }>;
      assert.ok(hits.length >= 1);
      assert.ok(Buffer.byteLength(res.text) <= BOUND + 2500 + 512, `a page of ${Buffer.byteLength(res.text)} bytes`);
      seen.push(...hits.map((h) => h.id));
      cursor = res.body.next_cursor as string | null;
      pages++;
    } while (cursor && pages < 50);
    return { seen, pages };
  };

  test('GET /memory/recall in modes hybrid and semantic, GET /mind/chat/search in mode hybrid', async () => {
    const { auth } = await svc.mind();
    const ids: string[] = [];
    const chatIds: string[] = [];
    for (let i = 0; i < 8; i++) {
      const content = `guitar lessons and music practice ${i} ${'x'.repeat(1500)}`;
      ids.push(
        (
          await svc.http
            .post('/memory')
            .set(auth)
            .send({ category: 'fact', key: `music-${i}`, content })
            .expect(201)
        ).body.id,
      );
      chatIds.push((await svc.http.post('/mind/chat').set(auth).send({ role: 'human', content }).expect(201)).body.id);
    }
    await svc.http.get('/memory/recall').query({ q: 'guitar', wait_ms: '2000' }).set(auth).expect(200);
    for (const mode of ['hybrid', 'semantic']) {
      const { seen, pages } = await walk(auth, '/memory/recall', { q: 'guitar music', mode, limit: '100' }, 'memories');
      assert.ok(pages > 1, `${mode}: the bound split the hits`);
      assert.equal(new Set(seen).size, seen.length, `${mode}: no hit twice`);
      assert.deepEqual([...seen].sort(), [...ids].sort(), `${mode}: every memory once`);
    }
    // Past the fused window (50 keyword hits) hybrid pages go on by keyword: the bound ends pages there too.
    const many = await svc.mind();
    const manyIds: string[] = [];
    for (let i = 0; i < 60; i++) {
      const body = { category: 'fact', key: `tune-${i}`, content: `guitar tune ${i} ${'y'.repeat(300)}` };
      manyIds.push((await svc.http.post('/memory').set(many.auth).send(body).expect(201)).body.id);
    }
    await svc.http.get('/memory/recall').query({ q: 'guitar', wait_ms: '2000' }).set(many.auth).expect(200);
    const tail = await walk(many.auth, '/memory/recall', { q: 'guitar tune', mode: 'hybrid', limit: '100' }, 'memories');
    assert.equal(new Set(tail.seen).size, tail.seen.length, 'hybrid past the window: no hit twice');
    assert.deepEqual([...tail.seen].sort(), [...manyIds].sort(), 'hybrid past the window: every memory once');
    const chat = await walk(auth, '/mind/chat/search', { q: 'guitar music', mode: 'hybrid', limit: '100' }, 'messages');
    assert.ok(chat.pages > 1);
    assert.equal(new Set(chat.seen).size, chat.seen.length);
    assert.deepEqual([...chat.seen].sort(), [...chatIds].sort());
  });
});
