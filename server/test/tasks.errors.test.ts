import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { createServer } from 'node:http';
import supertest, { type Response } from 'supertest';
import { bearer, useService } from './harness.js';

/** A 400 with the error object whose message and details name the field. */
function assertFieldError(res: Response, path: string, message?: RegExp) {
  assert.equal(res.status, 400, `${path}: ${JSON.stringify(res.body)}`);
  assert.equal(res.body.statusCode, 400);
  assert.equal(res.body.error, 'Bad Request');
  assert.equal(res.body.code, 'validation_failed');
  assert.ok(res.body.message.startsWith(`${path}: `), `message "${res.body.message}" names ${path}`);
  assert.deepEqual(
    res.body.details.map((d: { path: string }) => d.path),
    [path],
  );
  if (message) assert.match(res.body.message, message);
}

describe('tasks: bad input', () => {
  const svc = useService();
  let auth: Record<string, string>;
  let mindKey: string;
  let mindId: string;
  before(async () => {
    ({ mindKey, mindId } = await svc.mind());
    auth = bearer(mindKey);
  });

  const countRows = async (table: string) => Number((await svc.ctx.db(table).where({ mind_id: mindId }).count({ n: '*' }))[0].n);

  const badCreates: Array<[string, Record<string, unknown>, string, RegExp?]> = [
    ['missing title', {}, 'body.title', /^body\.title: is required$/],
    ['empty title', { title: '' }, 'body.title', /must not be empty/],
    ['blank title', { title: '   ' }, 'body.title', /must not be empty/],
    ['title not a string', { title: 42 }, 'body.title', /string/],
    ['title null', { title: null }, 'body.title'],
    ['title over 500', { title: 'x'.repeat(501) }, 'body.title', /500/],
    ['description over 20,000', { title: 't', description: 'x'.repeat(20001) }, 'body.description', /20000/],
    ['description not a string', { title: 't', description: ['a'] }, 'body.description'],
    [
      'unknown priority',
      { title: 't', priority: 'urgent' },
      'body.priority',
      /must be one of: low, normal, high, critical \(got "urgent"\)$/,
    ],
    ['due_at a word', { title: 't', due_at: 'tomorrow' }, 'body.due_at', /ISO 8601/],
    ['due_at empty', { title: 't', due_at: '' }, 'body.due_at'],
    ['due_at no such day', { title: 't', due_at: '2026-02-30' }, 'body.due_at'],
    ['due_at no such month', { title: 't', due_at: '2026-13-01' }, 'body.due_at'],
    ['due_at without a time zone', { title: 't', due_at: '2026-12-01T09:00:00' }, 'body.due_at'],
    ['due_at a timestamp number', { title: 't', due_at: 1796115600 }, 'body.due_at'],
    ['due_at past year 9999 in UTC', { title: 't', due_at: '9999-12-31T23:30:00-01:00' }, 'body.due_at', /10000/],
  ];
  for (const [name, body, path, message] of badCreates) {
    test(`POST /mind/task: ${name} -> 400 naming ${path}, nothing stored`, async () => {
      const res = await svc.http.post('/mind/task').set(auth).send(body);
      assertFieldError(res, path, message);
      assert.equal(await countRows('tasks'), 0);
      assert.equal(await countRows('events'), 0);
    });
  }

  test('POST /mind/task: limits are inclusive (500 and 20,000 characters are accepted)', async () => {
    const res = await svc.http
      .post('/mind/task')
      .set(auth)
      .send({ title: 'x'.repeat(500), description: 'y'.repeat(20000) })
      .expect(201);
    assert.equal(res.body.title.length, 500);
    await svc.http.get(`/mind/task/${res.body.id}/delete`).set(auth).expect(200);
    await svc.ctx.db('events').where({ mind_id: mindId }).delete();
  });

  test('POST /mind/task: malformed JSON -> 400 error object', async () => {
    const res = await svc.http.post('/mind/task').set(auth).set('Content-Type', 'application/json').send('{"title": ');
    assert.equal(res.status, 400);
    assert.match(res.body.message, /not valid JSON/);
    assert.equal(await countRows('tasks'), 0);
  });

  const badQueries: Array<[string, Record<string, string>, string, RegExp?]> = [
    ['missing title', {}, 'query.title', /^query\.title: is required$/],
    ['empty title', { title: '' }, 'query.title', /must not be empty/],
    ['title over 500', { title: 'x'.repeat(501) }, 'query.title', /500/],
    [
      'unknown priority',
      { title: 't', priority: 'urgent' },
      'query.priority',
      /must be one of: low, normal, high, critical \(got "urgent"\)$/,
    ],
    ['bad due_at', { title: 't', due_at: '01.12.2026' }, 'query.due_at', /ISO 8601/],
    ['empty due_at', { title: 't', due_at: '' }, 'query.due_at'],
    ['due_at past year 9999 in UTC', { title: 't', due_at: '9999-12-31T23:30:00-01:00' }, 'query.due_at', /10000/],
  ];
  for (const [name, query, path, message] of badQueries) {
    test(`GET /mind/task (create form): ${name} -> 400 naming ${path}, nothing stored`, async () => {
      const res = await svc.http.get('/mind/task').query({ key: mindKey, ...query });
      assertFieldError(res, path, message);
      assert.equal(await countRows('tasks'), 0);
      assert.equal(await countRows('events'), 0);
    });
  }

  test('GET /mind/task (create form): description over 20,000 -> 400 naming query.description', async () => {
    // Node's default 16 KB header limit answers 431 before the app sees such a URL; a server that
    // allows long URLs (as main.ts should, for this form) lets the app name the field.
    const server = createServer({ maxHeaderSize: 128 * 1024 }, svc.app);
    const long = supertest(server);
    const res = await long.get('/mind/task').query({ key: mindKey, title: 't', description: 'x'.repeat(20001) });
    assertFieldError(res, 'query.description', /20000/);
    const ok = await long
      .get('/mind/task')
      .query({ key: mindKey, title: 't', description: 'é'.repeat(20000) })
      .expect(201);
    assert.equal(ok.body.description.length, 20000);
    await svc.http.get(`/mind/task/${ok.body.id}/delete`).set(auth).expect(200);
    await svc.ctx.db('events').where({ mind_id: mindId }).delete();
  });

  test('GET /mind/task (create form): a repeated title -> 400 naming query.title', async () => {
    assertFieldError(await svc.http.get('/mind/task?title=a&title=b').set(auth), 'query.title');
    assert.equal(await countRows('tasks'), 0);
  });

  test('GET /mind/tasks: unknown status -> 400 naming query.status and listing the values', async () => {
    const res = await svc.http.get('/mind/tasks?status=open').set(auth);
    assertFieldError(res, 'query.status', /must be one of: pending, in_progress, done, cancelled, all \(got "open"\)$/);
  });

  describe('PUT /mind/task/:id', () => {
    let task: Record<string, unknown>;
    before(async () => {
      task = (
        await svc.http.post('/mind/task').set(auth).send({ title: 'Keep me', description: 'as I am', due_at: '2026-12-01' }).expect(201)
      ).body;
    });

    const badUpdates: Array<[string, unknown, string, RegExp?]> = [
      [
        'unknown status',
        { status: 'finished' },
        'body.status',
        /must be one of: pending, in_progress, done, cancelled \(got "finished"\)$/,
      ],
      ['unknown priority', { priority: 'asap' }, 'body.priority', /must be one of: low, normal, high, critical \(got "asap"\)$/],
      ['empty title', { title: '' }, 'body.title', /must not be empty/],
      ['null title', { title: null }, 'body.title'],
      ['title over 500', { title: 'x'.repeat(501) }, 'body.title', /500/],
      ['description over 20,000', { description: 'x'.repeat(20001) }, 'body.description', /20000/],
      ['bad due_at', { due_at: '2026-12-01 09:00' }, 'body.due_at', /ISO 8601/],
      ['due_at past year 9999 in UTC', { due_at: '9999-12-31T23:30:00-01:00' }, 'body.due_at', /10000/],
      ['a valid field with an invalid one', { title: 'Changed', status: 'done', priority: 'urgent' }, 'body.priority'],
    ];
    for (const [name, body, path, message] of badUpdates) {
      test(`${name} -> 400 naming ${path}; the task is unchanged and no event is written`, async () => {
        const eventsBefore = await countRows('events');
        const res = await svc.http
          .put(`/mind/task/${task.id}`)
          .set(auth)
          .send(body as object);
        assertFieldError(res, path, message);
        const now = await svc.http.get(`/mind/task/${task.id}`).set(auth).expect(200);
        assert.deepEqual(now.body, task);
        assert.equal(await countRows('events'), eventsBefore);
      });
    }

    test('a body that is not an object -> 400 naming the body', async () => {
      const res = await svc.http.put(`/mind/task/${task.id}`).set(auth).send(['done']);
      assert.equal(res.status, 400);
      assert.match(res.body.message, /^body: must be an object \(got an array\)$/);
      const now = await svc.http.get(`/mind/task/${task.id}`).set(auth).expect(200);
      assert.deepEqual(now.body, task);
    });
  });

  test('unknown task ids -> 404 on get, update, complete and delete, with no event', async () => {
    const eventsBefore = await countRows('events');
    for (const id of ['0b6f5a62-3f5e-4e8e-9a52-2c7d3f3f1a10', 'not-a-uuid']) {
      for (const req of [
        svc.http.get(`/mind/task/${id}`).set(auth),
        svc.http.put(`/mind/task/${id}`).set(auth).send({ title: 'x' }),
        svc.http.get(`/mind/task/${id}/complete`).set(auth),
        svc.http.get(`/mind/task/${id}/delete`).set(auth),
      ]) {
        const res = await req;
        assert.equal(res.status, 404);
        assert.deepEqual(res.body, {
          statusCode: 404,
          error: 'Not Found',
          message: 'Task not found',
          code: 'task_not_found',
          docs: `${svc.config.publicUrl}/docs/errors#task_not_found`,
        });
      }
    }
    assert.equal(await countRows('events'), eventsBefore);
  });
});

describe('tasks: the change and its event share one transaction', () => {
  const svc = useService();
  let failHooks = false;
  before(async () => {
    // A hook runs inside the change's transaction (as webhook deliveries do): make it fail on demand.
    svc.ctx.events.addHook(async () => {
      if (failHooks) throw new Error('hook failed');
    });
  });

  test('when recording the event fails, the change is rolled back and the answer is a plain 500', async () => {
    const { mindKey, mindId } = await svc.mind();
    const auth = bearer(mindKey);
    const task = (await svc.http.post('/mind/task').set(auth).send({ title: 'Stable' }).expect(201)).body;
    const snapshot = async () => ({
      tasks: await svc.ctx.db('tasks').where({ mind_id: mindId }).select('id', 'title', 'status', 'completed_at').orderBy('id'),
      events: await svc.ctx.db('events').where({ mind_id: mindId }).select('id', 'type').orderBy('id'),
      mind: await svc.ctx.db('minds').where({ id: mindId }).first('last_activity'),
    });
    const before = await snapshot();

    failHooks = true;
    try {
      for (const req of [
        svc.http.post('/mind/task').set(auth).send({ title: 'New' }),
        svc.http.get('/mind/task?title=New').set(auth),
        svc.http.put(`/mind/task/${task.id}`).set(auth).send({ title: 'Changed' }),
        svc.http.get(`/mind/task/${task.id}/complete`).set(auth),
        svc.http.get(`/mind/task/${task.id}/delete`).set(auth),
      ]) {
        const res = await req;
        assert.equal(res.status, 500);
        assert.equal(JSON.stringify(res.body).includes('hook failed'), false);
      }
    } finally {
      failHooks = false;
    }
    assert.deepEqual(await snapshot(), before);
  });
});
