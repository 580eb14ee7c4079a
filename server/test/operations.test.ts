// What an operator does (issue 11): the mind-service command, disabled minds, backups, graceful shutdown.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { contract, listRoutes } from '@mindservice/contract';
import Database from 'better-sqlite3';
import knex from 'knex';
import { bearer, freshPostgresSchema, TEST_DATABASE_URL, type TestService, useService } from './harness.js';
import { startServerProcess } from './server-process.js';
import { startReceiver } from './webhooks/receiver.js';

const ROOT = resolve(fileURLToPath(import.meta.url), '../../..');
const SOME_ID = '00000000-0000-4000-8000-000000000000';

/** Runs `mind-service <args>` against a service's database. */
function cli(svc: TestService | { config: { dataDir: string; databaseUrl?: string } }, ...args: string[]) {
  const run = spawnSync(process.execPath, ['server/bin/mind-service.mjs', ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: 60_000,
    env: {
      PATH: process.env.PATH,
      MIND_DATA_DIR: svc.config.dataDir,
      ...(svc.config.databaseUrl ? { DATABASE_URL: svc.config.databaseUrl } : {}),
    },
  });
  return { code: run.status, out: run.stdout, err: run.stderr };
}

const freePort = () =>
  new Promise<number>((done) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => done(port));
    });
  });

describe('mind-service command', () => {
  const svc = useService();

  test('--help on every command; unknown commands and bad arguments are refused clearly', () => {
    const help = cli(svc, '--help');
    assert.equal(help.code, 0);
    for (const word of ['start', 'migrate', 'mind disable', 'mind enable', 'backup']) assert.match(help.out, new RegExp(word));
    for (const command of ['start', 'migrate', 'mind', 'backup']) {
      const run = cli(svc, command, '--help');
      assert.equal(run.code, 0, command);
      assert.match(run.out, new RegExp(`Usage: mind-service ${command}`));
    }
    const unknown = cli(svc, 'frobnicate');
    assert.equal(unknown.code, 2);
    assert.match(unknown.err, /Unknown command "frobnicate"/);
    const bad = cli(svc, 'mind', 'pause', SOME_ID);
    assert.equal(bad.code, 2);
    assert.match(bad.err, /mind disable <mind-id>/);
    const missing = cli(svc, 'backup');
    assert.equal(missing.code, 2);
    assert.match(missing.err, /backup <file>/);
  });

  test('a disabled mind answers 403 on every Mind Key route, keeps its data, and works again after enable', async () => {
    const { jwt, mindId, mindKey } = await svc.mind();
    await svc.http.post('/mind/task').set(bearer(mindKey)).send({ title: 'kept' }).expect(201);

    const unknown = cli(svc, 'mind', 'disable', SOME_ID);
    assert.equal(unknown.code, 1);
    assert.match(unknown.err, new RegExp(`No mind with id ${SOME_ID}`));

    const disabled = cli(svc, 'mind', 'disable', mindId);
    assert.equal(disabled.code, 0, disabled.err);
    const mindRoutes = listRoutes(contract).filter(({ metadata }) => metadata.auth === 'mindKey' || metadata.auth === 'mindKeyOrJwt');
    assert.ok(mindRoutes.length > 30);
    const call = (route: (typeof mindRoutes)[number]['route'], key: string, viaQuery = false) => {
      const path = route.path.replace(/:(\w+)/g, SOME_ID) + (viaQuery ? `?key=${key}` : '');
      const request = svc.http[route.method.toLowerCase() as 'get' | 'post' | 'put' | 'delete'](path);
      if (!viaQuery) request.set(bearer(key));
      return route.method === 'GET' || route.method === 'DELETE' ? request : request.send({});
    };
    for (const { route } of mindRoutes) {
      const res = await call(route, mindKey);
      assert.equal(res.status, 403, `${route.method} ${route.path}`);
      assert.match(res.body.message, /disabled/);
    }
    assert.equal((await call(mindRoutes[0]!.route, mindKey, true)).status, 403, 'also with ?key=');
    const minds = await svc.http.get('/minds').set(bearer(jwt)).expect(200);
    assert.equal(minds.body.minds[0].disabled, true);

    assert.equal(cli(svc, 'mind', 'enable', mindId).code, 0);
    for (const { route } of mindRoutes) {
      const res = await call(route, mindKey);
      assert.doesNotMatch(String(res.body?.message ?? ''), /disabled/, `${route.method} ${route.path}`);
    }
    const tasks = await svc.http.get('/mind/tasks').set(bearer(mindKey)).expect(200);
    assert.deepEqual(
      tasks.body.tasks.map((t: { title: string }) => t.title),
      ['kept'],
    );
    assert.equal((await svc.http.get('/minds').set(bearer(jwt)).expect(200)).body.minds[0].disabled, false);
  });

  test('migrate on an up-to-date database changes nothing', async () => {
    const before = await svc.ctx.db('knex_migrations').orderBy('id').select('name', 'migration_time');
    const run = cli(svc, 'migrate');
    assert.equal(run.code, 0, run.err);
    assert.match(run.out, /up to date; nothing changed/);
    assert.deepEqual(await svc.ctx.db('knex_migrations').orderBy('id').select('name', 'migration_time'), before);
  });

  test('migrate applies every migration to an empty database', async () => {
    const empty = TEST_DATABASE_URL
      ? { dir: mkdtempSync(join(tmpdir(), 'mind-migrate-')), schema: await freshPostgresSchema(TEST_DATABASE_URL) }
      : { dir: mkdtempSync(join(tmpdir(), 'mind-migrate-')), schema: undefined };
    try {
      const run = cli({ config: { dataDir: empty.dir, databaseUrl: empty.schema?.url } }, 'migrate');
      assert.equal(run.code, 0, run.err);
      assert.match(run.out, /Applied \d+ migration\(s\): 0100_users_minds_events/);
    } finally {
      await empty.schema?.drop();
      rmSync(empty.dir, { recursive: true, force: true });
    }
  });

  test('backup writes a consistent copy that opens with the same rows, while the service keeps serving', {
    skip: TEST_DATABASE_URL ? 'SQLite only' : false,
  }, async () => {
    const { mindKey } = await svc.mind();
    for (let i = 0; i < 50; i++)
      await svc.http
        .post('/mind/task')
        .set(bearer(mindKey))
        .send({ title: `task ${i}` })
        .expect(201);
    const target = join(svc.dataDir, 'backup.sqlite');
    // Requests keep being answered while the backup runs in another process.
    let serving = true;
    const served: number[] = [];
    const traffic = (async () => {
      while (serving) served.push((await svc.http.get('/mind/tasks').set(bearer(mindKey))).status);
    })();
    const run = await new Promise<ReturnType<typeof cli>>((done) => setImmediate(() => done(cli(svc, 'backup', target))));
    serving = false;
    await traffic;
    assert.equal(run.code, 0, run.err);
    assert.match(run.out, /Backup written to/);
    assert.ok(served.every((s) => s === 200));

    const copy = new Database(target, { readonly: true });
    try {
      for (const table of ['users', 'minds', 'tasks', 'events']) {
        const live = await svc.ctx.db(table).orderBy('id').select('*');
        const saved = copy.prepare(`select * from ${table} order by id`).all();
        assert.deepEqual(saved, live, table);
      }
    } finally {
      copy.close();
    }
    const again = cli(svc, 'backup', target);
    assert.equal(again.code, 1);
    assert.match(again.err, /already exists/);
  });

  test('backup on PostgreSQL says to use pg_dump', { skip: TEST_DATABASE_URL ? false : 'PostgreSQL only' }, () => {
    const run = cli(svc, 'backup', join(svc.dataDir, 'x.sqlite'));
    assert.equal(run.code, 1);
    assert.match(run.err, /pg_dump/);
  });
});

describe('graceful shutdown', () => {
  test('SIGTERM ends a held long-poll empty within 1 s, answers 503 with Retry-After during the drain, lets in-flight work finish, exits 0', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'mind-shutdown-'));
    const schema = TEST_DATABASE_URL ? await freshPostgresSchema(TEST_DATABASE_URL) : undefined;
    const receiver = await startReceiver();
    const server = await startServerProcess({
      MIND_DATA_DIR: dataDir,
      MIND_SHUTDOWN_TIMEOUT: '10s',
      ...(schema ? { DATABASE_URL: schema.url } : {}),
    });
    const statuses: number[] = [];
    const call = async (path: string, init: { method?: string; token?: string; body?: unknown } = {}) => {
      const res = await fetch(`${server.url}${path}`, {
        method: init.method ?? 'GET',
        headers: { 'content-type': 'application/json', ...(init.token ? { authorization: `Bearer ${init.token}` } : {}) },
        body: init.body === undefined ? undefined : JSON.stringify(init.body),
      });
      statuses.push(res.status);
      const text = await res.text();
      return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
    };
    try {
      const user = await call('/register', { method: 'POST', body: { email: 'ops@example.com', password: 'secret-pw' } });
      const mind = await call('/minds', { method: 'POST', token: user.body.jwt, body: { name: 'ops' } });
      const mindKey = mind.body.mind_key;
      const code = await call('/computers/install-code', { method: 'POST', token: mindKey, body: {} });
      const computer = await call('/computers/register', {
        method: 'POST',
        body: { code: code.body.install_code, computer_name: 'pc', platform: 'linux', platform_release: '6', python: 'node' },
      });
      // A webhook whose receiver takes 1.5 s: its test call is in flight when the signal comes.
      receiver.respond((_req, res) => setTimeout(() => res.writeHead(200).end('ok'), 1500));
      const hook = await call('/webhooks', {
        method: 'POST',
        token: mindKey,
        body: { url: `${receiver.url}/slow`, events: '*', secret: 'shutdown-secret' },
      });

      const poll = call('/computers/me/poll?wait=30', { token: computer.body.computer_token }).then((r) => ({ ...r, at: Date.now() }));
      const slow = call(`/webhooks/${hook.body.id}/test`, { method: 'POST', token: mindKey });
      await new Promise((r) => setTimeout(r, 300)); // both are being served now
      const signalled = Date.now();
      server.child.kill('SIGTERM');

      const polled = await poll;
      assert.equal(polled.status, 200);
      assert.deepEqual(polled.body, { commands: [] });
      assert.ok(polled.at - signalled < 1000, `the poll ended ${polled.at - signalled} ms after SIGTERM`);

      const during = await call('/mind/tasks', { token: mindKey });
      assert.equal(during.status, 503);
      assert.equal(during.body.statusCode, 503);
      assert.ok(Number(during.headers.get('retry-after')) > 0);
      const health = await call('/health');
      assert.equal(health.status, 503);
      assert.equal(health.body.status, 'draining');

      const finished = await slow;
      assert.equal(finished.status, 200, 'the request in flight finished');
      assert.equal(finished.body.delivered, true);

      const exit = await server.exited;
      assert.deepEqual(exit, { code: 0, signal: null });
      const fiveHundreds = statuses.filter((s) => s >= 500);
      assert.deepEqual(fiveHundreds, [503, 503], 'no 5xx but the documented 503s');
    } finally {
      await server.stop();
      await receiver.close();
      await schema?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  // On PostgreSQL the migration waits for a lock asynchronously, so the test can hold it there; SQLite
  // (better-sqlite3) waits for locks synchronously, blocking the process, so the state cannot be seen.
  test('while migrations run, /health answers 503 starting, then 200', {
    skip: TEST_DATABASE_URL ? false : 'needs PostgreSQL (MIND_TEST_DATABASE_URL)',
  }, async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'mind-starting-'));
    const schema = await freshPostgresSchema(TEST_DATABASE_URL!);
    const port = await freePort();
    assert.equal(cli({ config: { dataDir, databaseUrl: schema.url } }, 'migrate').code, 0);
    // Holding the migrations table keeps the starting server's migration step waiting.
    const locker = knex({ client: 'pg', connection: schema.url, pool: { min: 1, max: 1 } });
    let release!: () => void;
    const released = new Promise<void>((r) => (release = r));
    const holding = locker.transaction(async (trx) => {
      await trx.raw('LOCK TABLE knex_migrations IN ACCESS EXCLUSIVE MODE');
      await released;
    });
    const server = startServerProcess({ MIND_DATA_DIR: dataDir, DATABASE_URL: schema.url, PORT: String(port) });
    try {
      let starting: { status: number; body: { status: string } } | undefined;
      for (let i = 0; i < 400 && !starting; i++) {
        try {
          const res = await fetch(`http://127.0.0.1:${port}/health`);
          starting = { status: res.status, body: (await res.json()) as { status: string } };
        } catch {
          await new Promise((r) => setTimeout(r, 25));
        }
      }
      assert.equal(starting?.status, 503);
      assert.equal(starting?.body.status, 'starting');
      const other = await fetch(`http://127.0.0.1:${port}/mind/tasks`);
      assert.equal(other.status, 503);
      assert.ok(Number(other.headers.get('retry-after')) > 0);
      assert.equal(((await other.json()) as { statusCode: number }).statusCode, 503);
      release();
      await holding;
      const running = await server;
      const ready = await fetch(`${running.url}/health`);
      assert.equal(ready.status, 200);
      assert.equal(((await ready.json()) as { status: string }).status, 'ok');
    } finally {
      release();
      await holding.catch(() => undefined);
      await locker.destroy();
      await (await server.catch(() => undefined))?.stop();
      await schema.drop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
