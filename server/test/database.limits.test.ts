// PostgreSQL cannot be held (DESIGN section 13): a statement timeout and a pool acquire timeout, each
// answered 503 with Retry-After while the pool goes on serving.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import knex, { type Knex } from 'knex';
import { loadConfig } from '../src/lib/config.js';
import { isDatabaseBusy } from '../src/db/errors.js';
import { ApiError } from '../src/http/api-error.js';
import { apiErrorOf } from '../src/http/errors.js';
import { bearer, startService, TEST_DATABASE_URL, type TestService } from './harness.js';

const POSTGRES_ONLY = { skip: TEST_DATABASE_URL ? false : 'PostgreSQL only' };

function assertBusy(res: {
  status: number;
  headers: Record<string, string>;
  body: { statusCode: number; error: string; message: string };
}) {
  assert.equal(res.status, 503);
  assert.equal(res.headers['retry-after'], '5');
  assert.equal(res.body.statusCode, 503);
  assert.equal(res.body.error, 'Service Unavailable');
  assert.match(res.body.message, /database is busy/);
}

describe('database limits: the settings and the error translation', () => {
  test('defaults: 30 s per statement, 10 s to get a connection, 10 connections', () => {
    const config = loadConfig({});
    assert.equal(config.dbStatementTimeoutMs, 30_000);
    assert.equal(config.dbAcquireTimeoutMs, 10_000);
    assert.equal(config.dbPoolSize, 10);
    const set = loadConfig({ MIND_DB_STATEMENT_TIMEOUT: '0', MIND_DB_ACQUIRE_TIMEOUT: '500ms', MIND_DB_POOL_SIZE: '3' });
    assert.deepEqual([set.dbStatementTimeoutMs, set.dbAcquireTimeoutMs, set.dbPoolSize], [0, 500, 3]);
    assert.throws(() => loadConfig({ MIND_DB_POOL_SIZE: '0' }), /MIND_DB_POOL_SIZE/);
    assert.throws(() => loadConfig({ MIND_DB_STATEMENT_TIMEOUT: 'soon' }), /MIND_DB_STATEMENT_TIMEOUT/);
  });

  test('a cancelled statement and a pool acquire timeout are 503 with Retry-After; other database errors are not', () => {
    const cancelled = Object.assign(new Error('select 1 - canceling statement due to statement timeout'), { code: '57014' });
    const pool = Object.assign(new Error('Knex: Timeout acquiring a connection. The pool is probably full.'), { name: 'KnexTimeoutError' });
    for (const err of [cancelled, pool]) {
      assert.equal(isDatabaseBusy(err), true);
      const error = apiErrorOf(err);
      assert.ok(error instanceof ApiError);
      assert.equal(error.statusCode, 503);
      assert.deepEqual(error.extra.headers, { 'Retry-After': '5' });
    }
    for (const err of [Object.assign(new Error('duplicate key'), { code: '23505' }), new Error('boom'), null, undefined, 'text']) {
      assert.equal(isDatabaseBusy(err), false);
    }
    assert.equal(apiErrorOf(new Error('boom')), undefined);
  });
});

describe('database limits on PostgreSQL', POSTGRES_ONLY, () => {
  test('a statement longer than MIND_DB_STATEMENT_TIMEOUT is 503 with Retry-After; other tables keep being served', async () => {
    const svc = await startService({ MIND_DB_STATEMENT_TIMEOUT: '300ms' });
    // Another client holds a lock on tasks: a wait for a lock counts towards the statement timeout.
    const other = knex({ client: 'pg', connection: svc.config.databaseUrl });
    let trx: Knex.Transaction | undefined;
    try {
      const { mindKey } = await svc.mind();
      await svc.http.post('/mind/task').set(bearer(mindKey)).send({ title: 'before the lock' }).expect(201);
      trx = await other.transaction();
      await trx.raw('lock table tasks in access exclusive mode');

      const started = Date.now();
      // The list is served before Express (direct route), the create through it: both translate.
      const [list, create, memory] = await Promise.all([
        svc.http.get('/mind/tasks').set(bearer(mindKey)),
        svc.http.post('/mind/task').set(bearer(mindKey)).send({ title: 'during the lock' }),
        svc.http.post('/memory').set(bearer(mindKey)).send({ category: 'note', key: 'k', content: 'memories are not locked' }),
      ]);
      assertBusy(list);
      assertBusy(create);
      assert.equal(memory.status, 201, 'another table is served meanwhile');
      assert.ok(Date.now() - started < 5000, `answered within the statement timeout (${Date.now() - started} ms)`);
      // The app's own connection: a slow statement is cancelled by the server, and recognised.
      await assert.rejects(
        svc.ctx.db.raw('select pg_sleep(2)'),
        (err: unknown) => isDatabaseBusy(err) && (err as { code: string }).code === '57014',
      );

      await trx.rollback();
      trx = undefined;
      const after = await svc.http.get('/mind/tasks').set(bearer(mindKey)).expect(200);
      assert.deepEqual(
        after.body.tasks.map((t: { title: string }) => t.title),
        ['before the lock'],
      );
    } finally {
      await trx?.rollback().catch(() => undefined);
      await other.destroy();
      await svc.stop();
    }
  });

  describe('with every pool connection held', () => {
    let svc: TestService;
    before(async () => {
      svc = await startService({ MIND_DB_POOL_SIZE: '2', MIND_DB_ACQUIRE_TIMEOUT: '500ms' });
    });
    after(() => svc.stop());

    test('a request is 503 with Retry-After within the acquire timeout, and served again once they are released', async () => {
      const { mindKey } = await svc.mind();
      await svc.http.get('/mind/tasks').set(bearer(mindKey)).expect(200);
      const pool = (svc.ctx.db.client as { pool: { numUsed(): number } }).pool;
      // A knex query starts when it is awaited (then): start both now, answer later.
      const holds = [1, 2].map(() => svc.ctx.db.raw('select pg_sleep(2)').then(() => undefined));
      const deadline = Date.now() + 2000;
      while (pool.numUsed() < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
      assert.equal(pool.numUsed(), 2, 'both connections are held');

      const started = Date.now();
      const [list, create] = await Promise.all([
        svc.http.get('/mind/tasks').set(bearer(mindKey)),
        svc.http.post('/mind/task').set(bearer(mindKey)).send({ title: 'while held' }),
      ]);
      const elapsed = Date.now() - started;
      assertBusy(list);
      assertBusy(create);
      assert.ok(elapsed >= 400 && elapsed < 1500, `answered after the acquire timeout, before the holds ended (${elapsed} ms)`);

      await Promise.all(holds);
      await svc.http.post('/mind/task').set(bearer(mindKey)).send({ title: 'after release' }).expect(201);
      const after = await svc.http.get('/mind/tasks').set(bearer(mindKey)).expect(200);
      assert.deepEqual(
        after.body.tasks.map((t: { title: string }) => t.title),
        ['after release'],
      );
    });
  });
});
