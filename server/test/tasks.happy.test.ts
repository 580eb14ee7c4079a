import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { bearer, TestClock, useService } from './harness.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('tasks: happy paths', () => {
  const clock = new TestClock();
  const svc = useService({}, { clock });

  /** Events of a mind in order; tests move the clock between changes so created_at orders them. */
  const events = (mindId: string) => svc.ctx.db('events').where({ mind_id: mindId }).orderBy('created_at').select('type', 'data');

  test('POST /mind/task creates a pending, normal task and records task.created with the task', async () => {
    const { auth, mindId } = await svc.mind();
    const res = await svc.http.post('/mind/task').set(auth).send({ title: '  Summarise the papers  ' }).expect(201);
    const task = res.body;
    assert.match(task.id, UUID);
    assert.deepEqual(
      { ...task, id: undefined, created_at: undefined, updated_at: undefined },
      {
        id: undefined,
        title: 'Summarise the papers',
        description: null,
        priority: 'normal',
        status: 'pending',
        due_at: null,
        created_at: undefined,
        updated_at: undefined,
        completed_at: null,
      },
    );
    assert.equal(task.created_at, task.updated_at);
    assert.ok(Math.abs(Date.parse(task.created_at) - clock.now().getTime()) < 5000);

    const rows = await events(mindId);
    assert.equal(rows.length, 1);
    assert.equal(rows[0].type, 'task.created');
    assert.deepEqual(JSON.parse(rows[0].data), task);
  });

  test('POST /mind/task stores every given field; unknown fields are ignored', async () => {
    const { auth } = await svc.mind();
    const res = await svc.http
      .post('/mind/task')
      .set(auth)
      .send({
        title: 'Ship',
        description: 'All of it',
        priority: 'critical',
        due_at: '2026-12-01',
        status: 'done',
        id: 'mine',
        mind_id: 'x',
      })
      .expect(201);
    assert.equal(res.body.description, 'All of it');
    assert.equal(res.body.priority, 'critical');
    assert.equal(res.body.status, 'pending');
    assert.notEqual(res.body.id, 'mine');
    assert.equal(res.body.due_at, '2026-12-01T00:00:00.000Z');
    const got = await svc.http.get(`/mind/task/${res.body.id}`).set(auth).expect(200);
    assert.deepEqual(got.body, res.body);
  });

  test('due_at is stored as a UTC date-time with milliseconds', async () => {
    const { auth } = await svc.mind();
    const cases: Array<[string, string]> = [
      ['2026-12-01', '2026-12-01T00:00:00.000Z'],
      ['2026-12-01T09:00:00Z', '2026-12-01T09:00:00.000Z'],
      ['2026-12-01T09:00+02:00', '2026-12-01T07:00:00.000Z'],
      ['2026-12-01T01:30:00.5-02:00', '2026-12-01T03:30:00.500Z'],
      ['2026-12-31T23:00:00-02:00', '2027-01-01T01:00:00.000Z'],
      ['2028-02-29', '2028-02-29T00:00:00.000Z'],
    ];
    for (const [given, stored] of cases) {
      const res = await svc.http.post('/mind/task').set(auth).send({ title: given, due_at: given }).expect(201);
      assert.equal(res.body.due_at, stored, given);
    }
  });

  test('GET /mind/task creates from query parameters, with ?key= or the header', async () => {
    const { mindKey, auth, mindId } = await svc.mind();
    const viaKey = await svc.http
      .get('/mind/task')
      .query({ key: mindKey, title: 'Buy milk', description: 'Two litres', priority: 'high', due_at: '2026-12-01' })
      .expect(201);
    assert.equal(viaKey.headers['x-ratelimit-limit'], '60');
    assert.deepEqual(
      [viaKey.body.title, viaKey.body.description, viaKey.body.priority, viaKey.body.status, viaKey.body.due_at],
      ['Buy milk', 'Two litres', 'high', 'pending', '2026-12-01T00:00:00.000Z'],
    );
    const viaHeader = await svc.http.get('/mind/task?title=Call+Ada&due_at=2026-12-01T09:00:00%2B02:00').set(auth).expect(201);
    assert.equal(viaHeader.body.title, 'Call Ada');
    assert.equal(viaHeader.body.priority, 'normal');
    assert.equal(viaHeader.body.description, null);
    assert.equal(viaHeader.body.due_at, '2026-12-01T07:00:00.000Z');

    const list = await svc.http.get('/mind/tasks').set(auth).expect(200);
    assert.deepEqual(list.body.tasks.map((t: { title: string }) => t.title).sort(), ['Buy milk', 'Call Ada']);
    assert.deepEqual(
      (await events(mindId)).map((e) => e.type),
      ['task.created', 'task.created'],
    );
  });

  test('?key= works on every task route', async () => {
    const { mindKey } = await svc.mind();
    const created = await svc.http.post(`/mind/task?key=${mindKey}`).send({ title: 'Via key' }).expect(201);
    const id = created.body.id;
    await svc.http.get(`/mind/task/${id}?key=${mindKey}`).expect(200);
    await svc.http.put(`/mind/task/${id}?key=${mindKey}`).send({ priority: 'low' }).expect(200);
    await svc.http.get(`/mind/tasks?key=${mindKey}&status=all`).expect(200);
    const done = await svc.http.get(`/mind/task/${id}/complete?key=${mindKey}`).expect(200);
    assert.equal(done.body.status, 'done');
    const deleted = await svc.http.get(`/mind/task/${id}/delete?key=${mindKey}`).expect(200);
    assert.deepEqual(deleted.body, { deleted: true, id });
  });

  test('GET /mind/tasks: default lists the open tasks; each status filter and all', async () => {
    const { auth } = await svc.mind();
    const ids: Record<string, string> = {};
    for (const status of ['pending', 'in_progress', 'done', 'cancelled'] as const) {
      const res = await svc.http.post('/mind/task').set(auth).send({ title: status }).expect(201);
      ids[status] = res.body.id;
      if (status !== 'pending') await svc.http.put(`/mind/task/${res.body.id}`).set(auth).send({ status }).expect(200);
    }
    const titles = async (query: string) => {
      const res = await svc.http.get(`/mind/tasks${query}`).set(auth).expect(200);
      return res.body.tasks.map((t: { title: string; status: string }) => {
        assert.equal(t.title, t.status);
        return t.status;
      });
    };
    assert.deepEqual(await titles(''), ['in_progress', 'pending']);
    assert.deepEqual(await titles('?status=pending'), ['pending']);
    assert.deepEqual(await titles('?status=in_progress'), ['in_progress']);
    assert.deepEqual(await titles('?status=done'), ['done']);
    assert.deepEqual(await titles('?status=cancelled'), ['cancelled']);
    assert.deepEqual((await titles('?status=all')).sort(), ['cancelled', 'done', 'in_progress', 'pending']);
  });

  test('list order: in_progress first, then priority, then due_at (none last), then creation', async () => {
    const { auth } = await svc.mind();
    // Created in an order that differs from the expected one; the clock moves so creation times differ.
    const specs: Array<{ title: string; priority?: string; due_at?: string; status?: string }> = [
      { title: 'low', priority: 'low' },
      { title: 'normal, no due date, older' },
      { title: 'normal, due late', due_at: '2027-06-01' },
      { title: 'normal, no due date, newer' },
      { title: 'normal, due early', due_at: '2026-01-01T10:00:00+05:00' },
      { title: 'critical', priority: 'critical', due_at: '2030-01-01' },
      { title: 'in progress, low', priority: 'low', status: 'in_progress' },
      { title: 'high', priority: 'high' },
      { title: 'in progress, high', priority: 'high', status: 'in_progress' },
      { title: 'done, critical', priority: 'critical', status: 'done' },
      { title: 'cancelled, critical, due early', priority: 'critical', due_at: '2020-01-01', status: 'cancelled' },
    ];
    for (const { status, ...body } of specs) {
      clock.advance(1000);
      const res = await svc.http.post('/mind/task').set(auth).send(body).expect(201);
      if (status) await svc.http.put(`/mind/task/${res.body.id}`).set(auth).send({ status }).expect(200);
    }
    const open = await svc.http.get('/mind/tasks').set(auth).expect(200);
    assert.deepEqual(
      open.body.tasks.map((t: { title: string }) => t.title),
      [
        'in progress, high',
        'in progress, low',
        'critical',
        'high',
        'normal, due early',
        'normal, due late',
        'normal, no due date, older',
        'normal, no due date, newer',
        'low',
      ],
    );
    const all = await svc.http.get('/mind/tasks?status=all').set(auth).expect(200);
    assert.deepEqual(all.body.tasks.map((t: { title: string }) => t.title).slice(0, 5), [
      'in progress, high',
      'in progress, low',
      'cancelled, critical, due early',
      'critical',
      'done, critical',
    ]);
  });

  test('PUT /mind/task/:id changes the given fields, null clears, and records one task.updated', async () => {
    const { auth, mindId } = await svc.mind();
    const created = (
      await svc.http.post('/mind/task').set(auth).send({ title: 'Draft', description: 'old', due_at: '2026-12-01' }).expect(201)
    ).body;
    clock.advance(1000);
    const res = await svc.http
      .put(`/mind/task/${created.id}`)
      .set(auth)
      .send({ title: 'Final', priority: 'high', status: 'in_progress', description: null })
      .expect(200);
    assert.deepEqual(res.body, {
      ...created,
      title: 'Final',
      priority: 'high',
      status: 'in_progress',
      description: null,
      updated_at: res.body.updated_at,
    });
    assert.ok(res.body.updated_at > created.updated_at);
    assert.equal(res.body.due_at, '2026-12-01T00:00:00.000Z');

    clock.advance(1000);
    const cleared = await svc.http.put(`/mind/task/${created.id}`).set(auth).send({ due_at: null }).expect(200);
    assert.equal(cleared.body.due_at, null);
    assert.equal(cleared.body.title, 'Final');
    clock.advance(1000);
    const moved = await svc.http.put(`/mind/task/${created.id}`).set(auth).send({ due_at: '2027-01-02T03:04:05+01:00' }).expect(200);
    assert.equal(moved.body.due_at, '2027-01-02T02:04:05.000Z');

    const rows = await events(mindId);
    assert.deepEqual(
      rows.map((e) => e.type),
      ['task.created', 'task.updated', 'task.updated', 'task.updated'],
    );
    assert.deepEqual(JSON.parse(rows[3].data), moved.body);
    const got = await svc.http.get(`/mind/task/${created.id}`).set(auth).expect(200);
    assert.deepEqual(got.body, moved.body);
  });

  test('a PUT that changes nothing answers the task as it is and records no event', async () => {
    const { auth, mindId } = await svc.mind();
    const created = (await svc.http.post('/mind/task').set(auth).send({ title: 'Same', due_at: '2026-12-01' }).expect(201)).body;
    clock.advance(1000);
    const same = await svc.http
      .put(`/mind/task/${created.id}`)
      .set(auth)
      .send({ title: 'Same', due_at: '2026-12-01T00:00:00Z' })
      .expect(200);
    assert.deepEqual(same.body, created);
    // An update must name a field: an empty one is a 400 (the document says so), still no event.
    const empty = await svc.http.put(`/mind/task/${created.id}`).set(auth).send({}).expect(400);
    assert.match(empty.body.message, /at least one of: title/);
    assert.deepEqual(
      (await events(mindId)).map((e) => e.type),
      ['task.created'],
    );
  });

  test('completed_at is set when the status becomes done and cleared when it leaves done', async () => {
    const { auth, mindId } = await svc.mind();
    const { id } = (await svc.http.post('/mind/task').set(auth).send({ title: 'Finish' }).expect(201)).body;

    clock.advance(1000);
    const viaPut = await svc.http.put(`/mind/task/${id}`).set(auth).send({ status: 'done', priority: 'low' }).expect(200);
    assert.equal(viaPut.body.status, 'done');
    assert.equal(viaPut.body.priority, 'low');
    assert.equal(viaPut.body.completed_at, viaPut.body.updated_at);
    assert.ok(Math.abs(Date.parse(viaPut.body.completed_at) - clock.now().getTime()) < 5000);

    // Changing another field of a done task keeps completed_at.
    clock.advance(1000);
    const renamed = await svc.http.put(`/mind/task/${id}`).set(auth).send({ title: 'Finished' }).expect(200);
    assert.equal(renamed.body.completed_at, viaPut.body.completed_at);

    clock.advance(1000);
    const reopened = await svc.http.put(`/mind/task/${id}`).set(auth).send({ status: 'pending' }).expect(200);
    assert.equal(reopened.body.completed_at, null);

    clock.advance(1000);
    const viaGet = await svc.http.get(`/mind/task/${id}/complete`).set(auth).expect(200);
    assert.equal(viaGet.body.status, 'done');
    assert.ok(viaGet.body.completed_at > viaPut.body.completed_at);

    // Completing a done task changes nothing.
    clock.advance(1000);
    const again = await svc.http.get(`/mind/task/${id}/complete`).set(auth).expect(200);
    assert.deepEqual(again.body, viaGet.body);

    clock.advance(1000);
    const cancelled = await svc.http.put(`/mind/task/${id}`).set(auth).send({ status: 'cancelled' }).expect(200);
    assert.equal(cancelled.body.completed_at, null);

    const rows = await events(mindId);
    assert.deepEqual(
      rows.map((e) => e.type),
      [
        'task.created',
        'task.updated',
        'task.completed', // PUT status done
        'task.updated', // rename
        'task.updated', // reopen
        'task.updated',
        'task.completed', // GET complete
        'task.updated', // cancel
      ],
    );
    assert.deepEqual(JSON.parse(rows[1].data), viaPut.body);
    assert.deepEqual(JSON.parse(rows[2].data), viaPut.body);
    assert.deepEqual(JSON.parse(rows[6].data), viaGet.body);
  });

  test('concurrent completions of one task record one completion', async () => {
    const { auth, mindId } = await svc.mind();
    const { id } = (await svc.http.post('/mind/task').set(auth).send({ title: 'Race' }).expect(201)).body;
    const answers = await Promise.all(Array.from({ length: 5 }, () => svc.http.get(`/mind/task/${id}/complete`).set(auth)));
    assert.deepEqual(
      answers.map((r) => r.status),
      [200, 200, 200, 200, 200],
    );
    assert.equal(new Set(answers.map((r) => r.body.completed_at)).size, 1);
    assert.deepEqual((await events(mindId)).map((e) => e.type).sort(), ['task.completed', 'task.created', 'task.updated']);
  });

  test('GET /mind/task/:id/delete removes the task permanently and records task.deleted {id}', async () => {
    const { auth, mindId } = await svc.mind();
    const { id } = (await svc.http.post('/mind/task').set(auth).send({ title: 'Temporary' }).expect(201)).body;
    clock.advance(1000);
    const res = await svc.http.get(`/mind/task/${id}/delete`).set(auth).expect(200);
    assert.deepEqual(res.body, { deleted: true, id });
    await svc.http.get(`/mind/task/${id}`).set(auth).expect(404);
    await svc.http.get(`/mind/task/${id}/delete`).set(auth).expect(404);
    const all = await svc.http.get('/mind/tasks?status=all').set(auth).expect(200);
    assert.deepEqual(all.body.tasks, []);
    const rows = await events(mindId);
    assert.deepEqual(
      rows.map((e) => e.type),
      ['task.created', 'task.deleted'],
    );
    assert.deepEqual(JSON.parse(rows[1].data), { id });
  });

  test('each change moves the mind last_activity', async () => {
    const { auth, jwt, mindId } = await svc.mind();
    const lastActivity = async () => {
      const res = await svc.http.get('/minds').set(bearer(jwt)).expect(200);
      return res.body.minds.find((m: { id: string }) => m.id === mindId).last_activity as string;
    };
    const steps: Array<() => Promise<unknown>> = [];
    let id = '';
    steps.push(async () => (id = (await svc.http.post('/mind/task').set(auth).send({ title: 'Track' }).expect(201)).body.id));
    steps.push(() => svc.http.put(`/mind/task/${id}`).set(auth).send({ priority: 'high' }).expect(200));
    steps.push(() => svc.http.get(`/mind/task/${id}/complete`).set(auth).expect(200));
    steps.push(() => svc.http.get(`/mind/task/${id}/delete`).set(auth).expect(200));
    let previous = await lastActivity();
    for (const step of steps) {
      clock.advance(60_000);
      await step();
      const now = await lastActivity();
      assert.ok(now > previous, `${now} > ${previous}`);
      previous = now;
    }
  });

  test('deleting the mind deletes its tasks', async () => {
    const { auth, jwt, mindId } = await svc.mind();
    await svc.http.post('/mind/task').set(auth).send({ title: 'Goes with the mind' }).expect(201);
    await svc.http.delete(`/minds/${mindId}`).set(bearer(jwt)).expect(204);
    // The rows go in the background (minds/purge.ts); the mind's own row goes last.
    for (let i = 0; i < 500 && (await svc.ctx.db('minds').where({ id: mindId }).first('id')); i++)
      await new Promise((r) => setTimeout(r, 10));
    assert.equal(Number((await svc.ctx.db('tasks').where({ mind_id: mindId }).count({ n: '*' }))[0].n), 0);
  });

  test('the task examples of the served OpenAPI document work as they are', async () => {
    const { auth } = await svc.mind();
    const doc = (await svc.http.get('/openapi.json').expect(200)).body;
    const schemas = doc.components.schemas;

    const created = await svc.http.post('/mind/task').set(auth).send(schemas.CreateTaskBody.example).expect(201);
    assert.equal(created.body.title, schemas.CreateTaskBody.example.title);
    const updated = await svc.http.put(`/mind/task/${created.body.id}`).set(auth).send(schemas.UpdateTaskBody.example).expect(200);
    assert.equal(updated.body.status, schemas.UpdateTaskBody.example.status);

    // Swagger UI fills each field from its own example when there is no object example.
    const fromFields = (schema: { properties: Record<string, { example?: unknown; $ref?: string }> }) =>
      Object.fromEntries(
        Object.entries(schema.properties).map(([name, prop]) => [
          name,
          prop.$ref ? schemas[prop.$ref.split('/').pop()!].example : prop.example,
        ]),
      );
    await svc.http.post('/mind/task').set(auth).send(fromFields(schemas.CreateTaskBody)).expect(201);
    await svc.http.put(`/mind/task/${created.body.id}`).set(auth).send(fromFields(schemas.UpdateTaskBody)).expect(200);

    // A required parameter carries its example; an optional one says it in words (Swagger UI would send it unasked).
    const params = doc.paths['/mind/task'].get.parameters as Array<{
      name: string;
      required?: boolean;
      description: string;
      schema: { example?: string };
    }>;
    const query = Object.fromEntries(
      params.map((p) => [p.name, p.required ? p.schema.example : /Example: `([^`]+)`/.exec(p.description)?.[1]]),
    );
    assert.deepEqual(Object.keys(query).sort(), ['description', 'due_at', 'priority', 'title']);
    for (const [name, value] of Object.entries(query)) assert.equal(typeof value, 'string', `the example of ${name}`);
    await svc.http.get('/mind/task').query(query).set(auth).expect(201);

    const statusParam = doc.paths['/mind/tasks'].get.parameters[0];
    for (const status of statusParam.schema.enum) await svc.http.get('/mind/tasks').query({ status }).set(auth).expect(200);
  });

  test('the tasks guide is served at /docs/tasks', async () => {
    const res = await svc.http.get('/docs/tasks').expect(200);
    assert.match(res.text, /in_progress<\/code> first/);
  });
});
