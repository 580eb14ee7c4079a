import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { firstPageStatement } from '../src/tasks/store.js';
import { bearer, startService, TestClock, type TestService } from './harness.js';

describe('tasks: GET /mind/tasks pages', () => {
  let svc: TestService;
  const clock = new TestClock();
  before(async () => {
    svc = await startService({}, { clock });
  });
  after(() => svc.stop());

  async function mind() {
    const m = await svc.mind();
    return { ...m, auth: bearer(m.mindKey) };
  }

  /** Follows next_cursor from the first page to the last; returns the ids in order and the page count. */
  async function allPages(auth: Record<string, string>, query: Record<string, string>) {
    const ids: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res: { body: { tasks: Array<{ id: string; title: string }>; next_cursor: string | null } } = await svc.http
        .get('/mind/tasks')
        .query({ ...query, ...(cursor ? { cursor } : {}) })
        .set(auth)
        .expect(200);
      assert.ok(res.body.tasks.length <= Number(query.limit ?? 100));
      ids.push(...res.body.tasks.map((t: { id: string }) => t.id));
      cursor = res.body.next_cursor;
      pages++;
      assert.ok(pages < 1000, 'paging does not end');
    } while (cursor);
    return { ids, pages };
  }

  test('the default page is 100 tasks, then next_cursor leads to the rest; the last page has next_cursor null', async () => {
    const { auth } = await mind();
    for (let i = 0; i < 130; i += 10) {
      await Promise.all(
        Array.from({ length: 10 }, (_, j) =>
          svc.http
            .post('/mind/task')
            .set(auth)
            .send({ title: `t${i + j}` })
            .expect(201),
        ),
      );
    }
    const first = await svc.http.get('/mind/tasks').set(auth).expect(200);
    assert.equal(first.body.tasks.length, 100);
    assert.equal(typeof first.body.next_cursor, 'string');
    const second = await svc.http.get('/mind/tasks').query({ cursor: first.body.next_cursor }).set(auth).expect(200);
    assert.equal(second.body.tasks.length, 30);
    assert.equal(second.body.next_cursor, null);
    const ids = new Set([...first.body.tasks, ...second.body.tasks].map((t: { id: string }) => t.id));
    assert.equal(ids.size, 130);
  });

  test('pages of any size follow the list order exactly (in_progress, priority, due_at with none last, creation, id)', async () => {
    const { auth } = await mind();
    const priorities = ['low', 'normal', 'high', 'critical'] as const;
    const dues = [null, '2026-12-01', '2026-12-01T09:00:00Z', '2027-01-15'];
    let n = 0;
    for (const priority of priorities) {
      for (const due_at of dues) {
        for (let copy = 0; copy < 3; copy++) {
          // Several tasks share a created_at (the clock moves only every third task): id breaks the tie.
          if (n % 3 === 0) clock.advance(1);
          const res = await svc.http
            .post('/mind/task')
            .set(auth)
            .send({ title: `task ${n}`, priority, due_at })
            .expect(201);
          if (n % 5 === 0) await svc.http.put(`/mind/task/${res.body.id}`).set(auth).send({ status: 'in_progress' }).expect(200);
          if (n % 7 === 0) await svc.http.put(`/mind/task/${res.body.id}`).set(auth).send({ status: 'done' }).expect(200);
          n++;
        }
      }
    }
    for (const status of [undefined, 'all', 'pending']) {
      const query: Record<string, string> = status ? { status } : {};
      const whole = await svc.http.get('/mind/tasks').query(query).set(auth).expect(200);
      assert.equal(whole.body.next_cursor, null);
      const expected = whole.body.tasks.map((t: { id: string }) => t.id);
      assert.ok(expected.length > 10);
      for (const limit of [1, 2, 3, 7, 100]) {
        const { ids, pages } = await allPages(auth, { ...query, limit: String(limit) });
        assert.deepEqual(ids, expected, `status=${status} limit=${limit}`);
        assert.equal(pages, Math.max(1, Math.ceil(expected.length / limit)));
      }
    }
  });

  test('completing tasks of earlier pages skips none of the later ones (keyset, not offset)', async () => {
    const { auth } = await mind();
    for (let i = 0; i < 9; i++) {
      clock.advance(1);
      await svc.http
        .post('/mind/task')
        .set(auth)
        .send({ title: `step ${i}` })
        .expect(201);
    }
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const res: { body: { tasks: Array<{ id: string; title: string }>; next_cursor: string | null } } = await svc.http
        .get('/mind/tasks')
        .query({ limit: '2', ...(cursor ? { cursor } : {}) })
        .set(auth)
        .expect(200);
      for (const task of res.body.tasks) {
        seen.push(task.title);
        await svc.http.get(`/mind/task/${task.id}/complete`).set(auth).expect(200);
      }
      cursor = res.body.next_cursor;
    } while (cursor);
    assert.deepEqual(
      seen,
      Array.from({ length: 9 }, (_, i) => `step ${i}`),
    );
    const open = await svc.http.get('/mind/tasks').set(auth).expect(200);
    assert.deepEqual(open.body, { tasks: [], next_cursor: null });
  });

  test('limit must be decimal digits within 1..100; a cursor must be one the list gave', async () => {
    const { auth } = await mind();
    for (const limit of ['0', '101', '-1', '1e2', '0x10', ' 5', '5.0', '']) {
      const res = await svc.http.get('/mind/tasks').query({ limit }).set(auth).expect(400);
      assert.match(JSON.stringify(res.body), /limit/);
    }
    await svc.http.get('/mind/tasks').query({ limit: '100' }).set(auth).expect(200);
    for (const cursor of ['nope', Buffer.from('[2,0,0,null,"x","y"]').toString('base64url'), Buffer.from('{}').toString('base64url')]) {
      const res = await svc.http.get('/mind/tasks').query({ cursor }).set(auth).expect(400);
      assert.match(res.body.message, /cursor/);
    }
  });
  test("SQLite reads the first page in list order from the index, without sorting the mind's tasks", async (t) => {
    if (svc.ctx.db.client.config.client !== 'better-sqlite3') return t.skip('PostgreSQL sorts NULLs last in the index already');
    const { mindId } = await mind();
    for (const statuses of [undefined, ['pending' as const]]) {
      const { sql, bindings } = firstPageStatement(svc.ctx.db, mindId, { statuses, limit: 20 });
      const plan = (await svc.ctx.db.raw(`EXPLAIN QUERY PLAN ${sql}`, bindings)) as Array<{ detail: string }>;
      const text = plan.map((row) => row.detail).join('\n');
      assert.match(text, /USING INDEX tasks_list_order/, text);
      assert.doesNotMatch(text, /TEMP B-TREE/, text);
    }
  });
});
