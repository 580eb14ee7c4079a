import assert from 'node:assert/strict';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, test } from 'node:test';
import { computersMigrations } from '../src/computers/migrations.js';
import { bearer, startService, TestClock, useService } from './harness.js';
import {
  AGENT_INFO,
  eventsOf,
  getCommand,
  installCode,
  mindWithComputer,
  PNG_1X1,
  poll,
  postResult,
  queue,
  registerComputer,
  registerWithCode,
} from './computers/helpers.js';

/** Every command type, as the POST body and as the GET query form, with what the agent must receive. */
const CASES = [
  { type: 'screenshot', payload: {}, query: 'type=screenshot' },
  { type: 'click', payload: { x: 10, y: 20 }, query: 'type=click&x=10&y=20' },
  { type: 'click', payload: { x: 5, y: 6, button: 'right', double: true }, query: 'type=click&x=5&y=6&button=right&double=true' },
  { type: 'move', payload: { x: 100, y: 200 }, query: 'type=move&x=100&y=200' },
  { type: 'type', payload: { text: 'hello, world & more' }, query: `type=type&text=${encodeURIComponent('hello, world & more')}` },
  { type: 'key', payload: { keys: ['ctrl', 'c'] }, query: 'type=key&keys=ctrl,c' },
  { type: 'scroll', payload: { deltaX: -40, deltaY: 300 }, query: 'type=scroll&deltaX=-40&deltaY=300' },
  { type: 'drag', payload: { fromX: 1, fromY: 2, toX: 300, toY: 400 }, query: 'type=drag&fromX=1&fromY=2&toX=300&toY=400' },
  // The computer-use types (issue 33).
  { type: 'screenshot', payload: { max_width: 1024, max_height: 768 }, query: 'type=screenshot&max_width=1024&max_height=768' },
  {
    type: 'click',
    payload: { x: 1, y: 2, button: 'back', count: 3, modifiers: ['shift', 'ctrl'] },
    query: 'type=click&x=1&y=2&button=back&count=3&modifiers=shift,ctrl',
  },
  { type: 'click', payload: {}, query: 'type=click' },
  { type: 'move', payload: { x: 3, y: 4, modifiers: ['super'] }, query: 'type=move&x=3&y=4&modifiers=super' },
  {
    type: 'scroll',
    payload: { deltaY: 200, x: 5, y: 6, modifiers: ['ctrl'] },
    query: 'type=scroll&deltaY=200&x=5&y=6&modifiers=ctrl',
  },
  {
    type: 'drag',
    payload: {
      path: [
        { x: 1, y: 2 },
        { x: 3, y: 4 },
        { x: 5, y: 6 },
      ],
      button: 'right',
      modifiers: ['alt'],
    },
    query: 'type=drag&path=1,2;3,4;5,6&button=right&modifiers=alt',
  },
  { type: 'mouse_down', payload: { button: 'left', x: 7, y: 8 }, query: 'type=mouse_down&button=left&x=7&y=8' },
  { type: 'mouse_up', payload: {}, query: 'type=mouse_up' },
  { type: 'hold_key', payload: { keys: ['shift', 'a'], duration_ms: 500 }, query: 'type=hold_key&keys=shift,a&duration_ms=500' },
  {
    type: 'wait',
    payload: { duration_ms: 100, screenshot: true, max_width: 640 },
    query: 'type=wait&duration_ms=100&screenshot=true&max_width=640',
  },
  { type: 'cursor_position', payload: {}, query: 'type=cursor_position' },
  {
    type: 'zoom',
    payload: { x: 0, y: 0, width: 100, height: 50, max_width: 400 },
    query: 'type=zoom&x=0&y=0&width=100&height=50&max_width=400',
  },
] as const;

const resultFor = (type: string) =>
  type === 'screenshot' || type === 'zoom'
    ? { screenshot_b64: PNG_1X1.toString('base64'), width: 1, height: 1 }
    : { ok: true, duration_ms: 3 };

describe('computers: the whole loop', () => {
  const clock = new TestClock();
  const svc = useService({}, { clock });

  for (const form of ['POST', 'GET'] as const) {
    for (const c of CASES) {
      test(`${form} form, ${c.type} ${JSON.stringify(c.payload)}: queued, polled, reported, done with its result`, async () => {
        const { mindKey, computerId, token } = await mindWithComputer(svc);
        const queued =
          form === 'POST'
            ? await svc.http
                .post(`/computers/${computerId}/commands`)
                .set(bearer(mindKey))
                .send({ type: c.type, payload: c.payload })
                .expect(201)
            : await svc.http.get(`/computers/${computerId}/command?${c.query}`).set(bearer(mindKey)).expect(201);
        assert.equal(queued.body.status, 'queued');
        const commandId = queued.body.command_id as string;
        assert.equal((await getCommand(svc, mindKey, computerId, commandId)).status, 'queued');

        const polled = await poll(svc, token, 5);
        assert.deepEqual(
          polled.map(({ command_id, type, payload }) => ({ command_id, type, payload })),
          [{ command_id: commandId, type: c.type, payload: c.payload }],
        );
        const sent = await getCommand(svc, mindKey, computerId, commandId);
        assert.equal(sent.status, 'sent');
        assert.equal(sent.attempts, 1);
        assert.ok(sent.sent_at);

        const ack = await postResult(svc, token, commandId, { status: 'done', result: resultFor(c.type) });
        assert.deepEqual(ack.body, { command_id: commandId, status: 'done' });
        const done = await getCommand(svc, mindKey, computerId, commandId);
        assert.equal(done.status, 'done');
        const shot = `/computers/${computerId}/commands/${commandId}/screenshot`;
        const withPng = c.type === 'screenshot' || c.type === 'zoom';
        const expected = withPng ? { ...resultFor(c.type), screenshot: { bytes: PNG_1X1.length, url: shot } } : resultFor(c.type);
        assert.deepEqual(done.result, expected);
        assert.equal(done.error, null);
        assert.ok(done.completed_at);
        assert.deepEqual(await poll(svc, token, 0), [], 'a finished command is never handed out again');
      });
    }
  }

  test('a poll with wait=10 answers within 100 ms of a command being queued', async () => {
    const { mindKey, computerId, token } = await mindWithComputer(svc);
    const startedAt = performance.now();
    const answered = svc.http
      .get('/computers/me/poll?wait=10')
      .set(bearer(token))
      .then((res) => ({ res, at: performance.now() }));
    await sleep(300); // the poll is waiting now
    const queuedAt = performance.now();
    const commandId = await queue(svc, mindKey, computerId, { type: 'move', payload: { x: 1, y: 1 } });
    const { res, at } = await answered;
    assert.equal(res.status, 200);
    assert.deepEqual(
      res.body.commands.map((c: { command_id: string }) => c.command_id),
      [commandId],
    );
    assert.ok(queuedAt - startedAt >= 250, 'the poll was already waiting');
    assert.ok(at - queuedAt < 100, `answered ${Math.round(at - queuedAt)} ms after queueing`);
  });

  test('a poll answers at once with every waiting command, oldest first, and waits the full time when there is none', async () => {
    const { jwt, computerId, token } = await mindWithComputer(svc);
    const ids = [];
    for (let i = 0; i < 5; i++) ids.push(await queue(svc, jwt, computerId, { type: 'type', payload: { text: `t${i}` } }));
    const startedAt = performance.now();
    assert.deepEqual(
      (await poll(svc, token, 30)).map((c) => c.command_id),
      ids,
    );
    assert.ok(performance.now() - startedAt < 1000);

    const emptyAt = performance.now();
    assert.deepEqual(await poll(svc, token, 1), []);
    assert.ok(performance.now() - emptyAt >= 950, 'an empty poll waits its `wait`');
  });

  test('a newer poll from the same computer ends the older one with an empty answer', async () => {
    const { jwt, computerId, token } = await mindWithComputer(svc);
    const older = svc.http
      .get('/computers/me/poll?wait=20')
      .set(bearer(token))
      .then((r) => r);
    await sleep(200);
    const newer = svc.http
      .get('/computers/me/poll?wait=20')
      .set(bearer(token))
      .then((r) => r);
    const olderRes = await older;
    assert.equal(olderRes.status, 200);
    assert.deepEqual(olderRes.body, { commands: [] });
    await sleep(100);
    const commandId = await queue(svc, jwt, computerId, { type: 'key', payload: { keys: ['enter'] } });
    assert.deepEqual(
      (await newer).body.commands.map((c: { command_id: string }) => c.command_id),
      [commandId],
    );
  });

  test('the screenshot endpoint answers exactly the PNG bytes the agent posted', async () => {
    const { mindKey, computerId, token } = await mindWithComputer(svc);
    const png = Buffer.concat([PNG_1X1, Buffer.from([0, 1, 2, 253, 254, 255])]);
    const shot = svc.http
      .get(`/computers/${computerId}/screenshot`)
      .set(bearer(mindKey))
      .buffer(true)
      .parse((res, done) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => done(null, Buffer.concat(chunks)));
      })
      .then((r) => r);
    const [command] = await poll(svc, token, 10);
    assert.equal(command?.type, 'screenshot');
    await postResult(svc, token, command!.command_id, {
      status: 'done',
      result: { screenshot_b64: png.toString('base64'), width: 1, height: 1 },
    });
    const res = await shot;
    assert.equal(res.status, 200);
    assert.equal(res.headers['content-type'], 'image/png');
    assert.ok(Buffer.isBuffer(res.body));
    assert.equal(Buffer.compare(res.body as Buffer, png), 0);
    assert.equal((await getCommand(svc, mindKey, computerId, command!.command_id)).status, 'done');
  });

  test('the screenshot endpoint hands max_width and max_height to the agent as the payload', async () => {
    const { mindKey, computerId, token } = await mindWithComputer(svc);
    const shot = svc.http
      .get(`/computers/${computerId}/screenshot?max_width=1280&max_height=800`)
      .set(bearer(mindKey))
      .then((r) => r);
    const [command] = await poll(svc, token, 10);
    assert.deepEqual(
      { type: command?.type, payload: command?.payload },
      { type: 'screenshot', payload: { max_width: 1280, max_height: 800 } },
    );
    await postResult(svc, token, command!.command_id, { status: 'done', result: { screenshot_b64: PNG_1X1.toString('base64') } });
    assert.equal((await shot).status, 200);
  });

  test('the screen: reported at registration, changed by PUT /computers/me/screen, shown by get and list', async () => {
    const mind = await svc.mind();
    const code = await installCode(svc, mind.mindKey);
    const registered = await svc.http
      .post('/computers/register')
      .send({ code, computer_name: 'wide', ...AGENT_INFO, screen: { width: 2560, height: 1440, scale_factor: 2 } })
      .expect(201);
    const id = registered.body.computer_id as string;
    const shown = async () => (await svc.http.get(`/computers/${id}`).set(bearer(mind.mindKey)).expect(200)).body.screen;
    assert.deepEqual(await shown(), { width: 2560, height: 1440, scale_factor: 2 });
    const put = await svc.http
      .put('/computers/me/screen')
      .set(bearer(registered.body.computer_token))
      .send({ width: 1600, height: 1000 })
      .expect(200);
    assert.deepEqual(put.body, { computer_id: id, screen: { width: 1600, height: 1000 } });
    assert.deepEqual(await shown(), { width: 1600, height: 1000 }, 'a report without scale_factor clears it');
    const list = await svc.http.get('/computers/list').set(bearer(mind.mindKey)).expect(200);
    assert.deepEqual(list.body.computers[0].screen, { width: 1600, height: 1000 });
    // A computer whose agent never reported one shows null.
    const other = await mindWithComputer(svc);
    assert.equal((await svc.http.get(`/computers/${other.computerId}`).set(bearer(other.mindKey)).expect(200)).body.screen, null);
  });

  test('commands are listed newest first, `limit` of them', async () => {
    const { jwt, computerId } = await mindWithComputer(svc);
    const ids = [];
    for (let i = 0; i < 4; i++) ids.push(await queue(svc, jwt, computerId, { type: 'move', payload: { x: i, y: i } }));
    const all = await svc.http.get(`/computers/${computerId}/commands`).set(bearer(jwt)).expect(200);
    assert.deepEqual(
      all.body.commands.map((c: { command_id: string }) => c.command_id),
      [...ids].reverse(),
    );
    const two = await svc.http.get(`/computers/${computerId}/commands?limit=2`).set(bearer(jwt)).expect(200);
    assert.deepEqual(
      two.body.commands.map((c: { command_id: string }) => c.command_id),
      [ids[3], ids[2]],
    );
  });

  test('a queued command can be cancelled and is then never handed out', async () => {
    const { mindKey, computerId, token } = await mindWithComputer(svc);
    const commandId = await queue(svc, mindKey, computerId, { type: 'click', payload: { x: 1, y: 1 } });
    const res = await svc.http.delete(`/computers/${computerId}/commands/${commandId}`).set(bearer(mindKey)).expect(200);
    assert.equal(res.body.status, 'cancelled');
    assert.ok(res.body.completed_at);
    assert.deepEqual(await poll(svc, token, 0), []);
  });

  test('list and get show the computer with its agent details and whether it is online', async () => {
    const { jwt, mindKey, mindId, computerId, token } = await mindWithComputer(svc);
    const list = await svc.http.get('/computers/list').set(bearer(mindKey)).expect(200);
    assert.equal(list.body.computers.length, 1);
    const computer = list.body.computers[0];
    assert.equal(computer.id, computerId);
    assert.equal(computer.computer_name, 'test-pc');
    assert.equal(computer.platform, 'linux');
    assert.equal(computer.status, 'active');
    assert.equal(computer.mind_id, mindId);
    assert.equal(computer.online, true, 'registering counts as being seen');

    clock.advance(91_000);
    assert.equal((await svc.http.get(`/computers/${computerId}`).set(bearer(jwt)).expect(200)).body.online, false);
    const waiting = svc.http
      .get('/computers/me/poll?wait=2')
      .set(bearer(token))
      .then((r) => r);
    await sleep(200);
    clock.advance(91_000); // last seen at the poll's start, long ago: online because it is polling now
    assert.equal((await svc.http.get(`/computers/${computerId}`).set(bearer(jwt)).expect(200)).body.online, true);
    await waiting;
  });

  test('the name given to the install code wins over the name the agent reports, and registration answers it', async () => {
    const { jwt } = await svc.mind();
    const code = await installCode(svc, jwt, { computer_name: 'office desktop' });
    const { computerId, name } = await registerWithCode(svc, code, 'DESKTOP-4711');
    assert.equal(name, 'office desktop');
    assert.equal((await svc.http.get(`/computers/${computerId}`).set(bearer(jwt)).expect(200)).body.computer_name, 'office desktop');
  });

  test('disable revokes the token at once, ends a waiting poll, keeps the record and refuses commands', async () => {
    const { jwt, computerId, token } = await mindWithComputer(svc);
    const waiting = svc.http
      .get('/computers/me/poll?wait=20')
      .set(bearer(token))
      .then((r) => ({ r, at: performance.now() }));
    await sleep(200);
    const disabledAt = performance.now();
    const res = await svc.http.post(`/computers/${computerId}/disable`).set(bearer(jwt)).expect(200);
    assert.equal(res.body.status, 'disabled');
    assert.equal(res.body.online, false);
    const { r, at } = await waiting;
    assert.deepEqual(r.body, { commands: [] });
    assert.ok(at - disabledAt < 1000, 'the waiting poll ended with the disable');

    await svc.http.get('/computers/me/poll?wait=0').set(bearer(token)).expect(401);
    assert.equal((await svc.http.get(`/computers/${computerId}`).set(bearer(jwt)).expect(200)).body.status, 'disabled');
    await svc.http.post(`/computers/${computerId}/commands`).set(bearer(jwt)).send({ type: 'screenshot' }).expect(409);
  });

  test('delete removes the computer and its commands; its token stops working', async () => {
    const { jwt, computerId, token } = await mindWithComputer(svc);
    await queue(svc, jwt, computerId, { type: 'screenshot' });
    await svc.http.delete(`/computers/${computerId}`).set(bearer(jwt)).expect(204);
    await svc.http.get(`/computers/${computerId}`).set(bearer(jwt)).expect(404);
    assert.equal(Number((await svc.ctx.db('commands').where({ computer_id: computerId }).count({ n: '*' }))[0]!.n), 0);
    await svc.http.get('/computers/me/poll?wait=0').set(bearer(token)).expect(401);
  });

  test('deleting the mind deletes the computers tied to it', async () => {
    const { jwt, mindId, computerId, token } = await mindWithComputer(svc);
    await svc.http.delete(`/minds/${mindId}`).set(bearer(jwt)).expect(204);
    // Its token is refused at once; the computer's row goes with the rest in the background.
    await svc.http.get('/computers/me/poll?wait=0').set(bearer(token)).expect(401);
    // The rows go in the background (minds/purge.ts); the mind's own row goes last.
    for (let i = 0; i < 500 && (await svc.ctx.db('minds').where({ id: mindId }).first('id')); i++)
      await new Promise((r) => setTimeout(r, 10));
    await svc.http.get(`/computers/${computerId}`).set(bearer(jwt)).expect(404);
  });

  test('events: computer.registered, and computer.command_finished without the screenshot bytes', async () => {
    const { mindKey, mindId, computerId, token } = await mindWithComputer(svc);
    const commandId = await queue(svc, mindKey, computerId, { type: 'screenshot' });
    await poll(svc, token, 0);
    await postResult(svc, token, commandId, { status: 'done', result: resultFor('screenshot') });

    const events = await eventsOf(svc, mindId);
    const registered = events.filter((e) => e.type === 'computer.registered');
    assert.equal(registered.length, 1);
    assert.equal(registered[0]!.data.id, computerId);
    assert.equal('token_hash' in registered[0]!.data, false);
    const finished = events.filter((e) => e.type === 'computer.command_finished');
    assert.equal(finished.length, 1);
    assert.equal(finished[0]!.data.command_id, commandId);
    assert.equal(finished[0]!.data.status, 'done');
    const url = `/computers/${computerId}/commands/${commandId}/screenshot`;
    assert.deepEqual(finished[0]!.data.result, { width: 1, height: 1, screenshot: { bytes: PNG_1X1.length, url } });
  });

  test('a computer registered with a JWT and no mind records no events', async () => {
    const { jwt, mindId } = await svc.mind();
    const { computerId, token } = await registerComputer(svc, jwt);
    const commandId = await queue(svc, jwt, computerId, { type: 'move', payload: { x: 1, y: 1 } });
    await poll(svc, token, 0);
    await postResult(svc, token, commandId, { status: 'done' });
    assert.equal((await getCommand(svc, jwt, computerId, commandId)).status, 'done');
    assert.deepEqual(await eventsOf(svc, mindId), []);
  });

  test('an install code made with a JWT and mind_id ties the computer to that mind', async () => {
    const { jwt, mindId, mindKey } = await svc.mind();
    const { computerId } = await registerComputer(svc, jwt, { mind_id: mindId });
    const res = await svc.http.get(`/computers/${computerId}`).set(bearer(mindKey)).expect(200);
    assert.equal(res.body.mind_id, mindId);
  });

  test('a sent click, type or key that never reports becomes failed and is never handed out again', async () => {
    const { mindKey, computerId, token } = await mindWithComputer(svc);
    const ids = [
      await queue(svc, mindKey, computerId, { type: 'click', payload: { x: 1, y: 1 } }),
      await queue(svc, mindKey, computerId, { type: 'type', payload: { text: 'rm -rf' } }),
      await queue(svc, mindKey, computerId, { type: 'key', payload: { keys: ['enter'] } }),
    ];
    assert.equal((await poll(svc, token, 0)).length, 3);
    clock.advance(59_000);
    await svc.computers.sweep();
    assert.equal((await getCommand(svc, mindKey, computerId, ids[0]!)).status, 'sent', 'still within its 60 s lease');
    clock.advance(2_000);
    await svc.computers.sweep();
    for (const id of ids) {
      const command = await getCommand(svc, mindKey, computerId, id);
      assert.equal(command.status, 'failed');
      assert.equal(command.error, 'agent did not report');
      assert.equal(command.attempts, 1);
    }
    assert.deepEqual(await poll(svc, token, 0), []);
    await postResult(svc, token, ids[0]!, { status: 'done' }, 409);
  });

  test('a sent screenshot that never reports is handed out again, three times at most', async () => {
    const { mindKey, computerId, token } = await mindWithComputer(svc);
    const commandId = await queue(svc, mindKey, computerId, { type: 'screenshot' });
    for (let attempt = 1; attempt <= 3; attempt++) {
      assert.deepEqual(
        (await poll(svc, token, 0)).map((c) => c.command_id),
        [commandId],
        `hand-over ${attempt}`,
      );
      assert.equal((await getCommand(svc, mindKey, computerId, commandId)).attempts, attempt);
      clock.advance(61_000);
      await svc.computers.sweep();
    }
    const command = await getCommand(svc, mindKey, computerId, commandId);
    assert.equal(command.status, 'failed');
    assert.equal(command.error, 'agent did not report (3 attempts)');
    assert.deepEqual(await poll(svc, token, 0), []);
  });

  test('a re-queued screenshot wakes a waiting poll', async () => {
    const { mindKey, computerId, token } = await mindWithComputer(svc);
    const commandId = await queue(svc, mindKey, computerId, { type: 'screenshot' });
    await poll(svc, token, 0);
    const waiting = svc.http
      .get('/computers/me/poll?wait=10')
      .set(bearer(token))
      .then((r) => r);
    await sleep(200);
    clock.advance(61_000);
    await svc.computers.sweep();
    assert.deepEqual(
      (await waiting).body.commands.map((c: { command_id: string }) => c.command_id),
      [commandId],
    );
  });

  test('a command not finished within 10 minutes expires, queued or sent', async () => {
    const { mindKey, computerId, token } = await mindWithComputer(svc);
    const sentId = await queue(svc, mindKey, computerId, { type: 'screenshot' });
    await poll(svc, token, 0);
    const queuedId = await queue(svc, mindKey, computerId, { type: 'move', payload: { x: 3, y: 4 } });
    clock.advance(9 * 60_000 + 59_000);
    await svc.computers.sweep();
    assert.equal((await getCommand(svc, mindKey, computerId, queuedId)).status, 'queued');
    clock.advance(2_000);
    await svc.computers.sweep();
    for (const id of [sentId, queuedId]) {
      const command = await getCommand(svc, mindKey, computerId, id);
      assert.equal(command.status, 'expired');
      assert.equal(command.error, 'not finished within 10 minutes');
    }
    assert.deepEqual(await poll(svc, token, 0), []);
  });

  test('the sweeper runs by itself', async () => {
    const { mindKey, computerId, token } = await mindWithComputer(svc);
    const commandId = await queue(svc, mindKey, computerId, { type: 'drag', payload: { fromX: 0, fromY: 0, toX: 1, toY: 1 } });
    await poll(svc, token, 0);
    clock.advance(61_000);
    const deadline = Date.now() + 3000;
    while ((await getCommand(svc, mindKey, computerId, commandId)).status === 'sent' && Date.now() < deadline) await sleep(100);
    assert.equal((await getCommand(svc, mindKey, computerId, commandId)).status, 'failed');
  });

  test('the agent can report a failure with its reason', async () => {
    const { jwt, computerId, token } = await mindWithComputer(svc);
    const commandId = await queue(svc, jwt, computerId, { type: 'click', payload: { x: 1, y: 1 } });
    await poll(svc, token, 0);
    await postResult(svc, token, commandId, { status: 'failed', error: 'no display' });
    const command = await getCommand(svc, jwt, computerId, commandId);
    assert.equal(command.status, 'failed');
    assert.equal(command.error, 'no display');
  });
});

describe('computers: migration', () => {
  test('goes down and up again', async () => {
    const svc = await startService();
    try {
      for (const migration of [...computersMigrations].reverse()) await migration.down(svc.ctx.db, svc.ctx.dialect);
      assert.equal(await svc.ctx.db.schema.hasTable('commands'), false);
      for (const migration of computersMigrations) await migration.up(svc.ctx.db, svc.ctx.dialect);
      const { mindKey } = await svc.mind();
      await registerComputer(svc, mindKey);
    } finally {
      await svc.stop();
    }
  });
});
