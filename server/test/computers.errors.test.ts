import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { bearer, TestClock, useService } from './harness.js';
import { AGENT_INFO, getCommand, installCode, mindWithComputer, poll, postResult, queue, registerWithCode } from './computers/helpers.js';

/** The error object, with the fields its message and details name. */
function assertError(res: { status: number; body: Record<string, unknown> }, status: number, ...fields: string[]) {
  assert.equal(res.status, status, JSON.stringify(res.body));
  assert.equal(res.body.statusCode, status);
  assert.equal(typeof res.body.error, 'string');
  assert.equal(typeof res.body.message, 'string');
  assert.equal('stack' in res.body, false);
  for (const field of fields) assert.match(res.body.message as string, new RegExp(field.replace(/\./g, '\\.')), `message names ${field}`);
}

describe('computers: errors', () => {
  const clock = new TestClock();
  const svc = useService({ MIND_SCREENSHOT_WAIT: '300ms' }, { clock });

  const register = (code: string) => svc.http.post('/computers/register').send({ code, computer_name: 'pc', ...AGENT_INFO });

  describe('install codes', () => {
    test('a code looks like XXXX-XXXX and works in any case and without the dash', async () => {
      const { jwt } = await svc.mind();
      const code = await installCode(svc, jwt);
      assert.match(code, /^[A-HJKMNP-Z2-9]{4}-[A-HJKMNP-Z2-9]{4}$/);
      await registerWithCode(svc, code.replace('-', '').toLowerCase());
    });

    test('a code used twice gives 400', async () => {
      const { jwt } = await svc.mind();
      const code = await installCode(svc, jwt);
      await register(code).expect(201);
      const res = await register(code);
      assertError(res, 400, 'body.code', 'already been used');
    });

    test('an expired code gives 400', async () => {
      const { jwt } = await svc.mind();
      const code = await installCode(svc, jwt);
      clock.advance(15 * 60_000 + 1000);
      assertError(await register(code), 400, 'body.code', 'expired');
    });

    test('a code is still good just before its 15 minutes are over', async () => {
      const { jwt } = await svc.mind();
      const code = await installCode(svc, jwt);
      clock.advance(14 * 60_000 + 50_000);
      await register(code).expect(201);
    });

    test('a made-up code gives 400, whatever its shape', async () => {
      for (const code of ['ABCD-EFGH', 'nonsense', '0000-0000'])
        assertError(await register(code), 400, 'body.code', 'unknown install code');
    });

    test('registering without the agent fields gives 400 naming them', async () => {
      const res = await svc.http.post('/computers/register').send({ code: 'ABCD-EFGH' });
      assertError(res, 400, 'body.computer_name', 'body.platform');
    });

    test("a mind_id that is not one of the user's minds gives 404", async () => {
      const owner = await svc.mind();
      const other = await svc.mind();
      assertError(await svc.http.post('/computers/install-code').set(bearer(other.jwt)).send({ mind_id: owner.mindId }), 404, 'Mind');
      assertError(await svc.http.post('/computers/install-code').set(bearer(other.jwt)).send({ mind_id: 'nope' }), 404, 'Mind');
    });

    test('a Mind Key cannot make a code for another mind', async () => {
      const { jwt, mindKey } = await svc.mind();
      const second = await svc.addMind(jwt, 'second');
      assertError(await svc.http.post('/computers/install-code').set(bearer(mindKey)).send({ mind_id: second.mindId }), 404, 'Mind');
    });

    test('a computer_name that is empty or too long gives 400', async () => {
      const { jwt } = await svc.mind();
      assertError(await svc.http.post('/computers/install-code').set(bearer(jwt)).send({ computer_name: ' ' }), 400, 'body.computer_name');
      assertError(
        await svc.http
          .post('/computers/install-code')
          .set(bearer(jwt))
          .send({ computer_name: 'x'.repeat(201) }),
        400,
        'body.computer_name',
      );
    });
  });

  describe('queueing', () => {
    const BAD_BODIES: Array<[Record<string, unknown>, string]> = [
      [{}, 'body.type'],
      [{ type: 'teleport', payload: {} }, 'body.type'],
      [{ type: 'click', payload: { x: 1 } }, 'body.payload.y'],
      [{ type: 'click', payload: { x: -1, y: 1 } }, 'body.payload.x'],
      [{ type: 'click', payload: { x: 1.5, y: 1 } }, 'body.payload.x'],
      [{ type: 'click', payload: { x: '1', y: 1 } }, 'body.payload.x'],
      [{ type: 'click', payload: { x: 1, y: 1, button: 'thumb' } }, 'body.payload.button'],
      [{ type: 'move' }, 'body.payload'],
      [{ type: 'type', payload: { text: '' } }, 'body.payload.text'],
      [{ type: 'key', payload: { keys: [] } }, 'body.payload.keys'],
      [{ type: 'key', payload: { keys: 'ctrl+c' } }, 'body.payload.keys'],
      [{ type: 'scroll', payload: {} }, 'body.payload.deltaY'],
      [{ type: 'drag', payload: { fromX: 1, fromY: 1, toX: 2 } }, 'body.payload.toY'],
      // The computer-use types (issue 33).
      [{ type: 'drag', payload: { path: Array.from({ length: 101 }, (_, i) => ({ x: i, y: i })) } }, 'body.payload.path'],
      [{ type: 'drag', payload: { path: [{ x: 1, y: 1 }] } }, 'body.payload.path'],
      [
        {
          type: 'drag',
          payload: {
            path: [
              { x: 1, y: 1 },
              { x: 2, y: -2 },
            ],
          },
        },
        'body.payload.path.1.y',
      ],
      [
        {
          type: 'drag',
          payload: {
            path: [
              { x: 1, y: 1 },
              { x: 2, y: 2 },
            ],
            fromX: 1,
          },
        },
        'body.payload.fromX',
      ],
      [{ type: 'hold_key', payload: { keys: ['shift'], duration_ms: 60_000 } }, 'body.payload.duration_ms'],
      [{ type: 'hold_key', payload: { keys: ['shift'] } }, 'body.payload.duration_ms'],
      [{ type: 'wait', payload: { duration_ms: 60_000 } }, 'body.payload.duration_ms'],
      [{ type: 'wait', payload: { duration_ms: 10, max_width: 640 } }, 'body.payload.max_width'],
      [{ type: 'click', payload: { x: 1, y: 1, modifiers: ['hyper'] } }, 'body.payload.modifiers.0'],
      [{ type: 'click', payload: { x: 1, y: 1, modifiers: ['shift', 'ctrl', 'alt', 'super', 'shift'] } }, 'body.payload.modifiers'],
      [{ type: 'click', payload: { x: 1, y: 1, count: 4 } }, 'body.payload.count'],
      [{ type: 'click', payload: { x: 1, y: 1, double: true, count: 3 } }, 'body.payload.count'],
      [{ type: 'scroll', payload: { deltaY: 100, x: 5 } }, 'body.payload.y'],
      [{ type: 'mouse_down', payload: { y: 5 } }, 'body.payload.x'],
      [{ type: 'mouse_up', payload: { button: 'thumb' } }, 'body.payload.button'],
      [{ type: 'zoom', payload: { x: 0, y: 0, width: 0, height: 10 } }, 'body.payload.width'],
      [{ type: 'zoom', payload: { x: 0, y: 0, width: 10 } }, 'body.payload.height'],
      [{ type: 'screenshot', payload: { max_width: 8 } }, 'body.payload.max_width'],
    ];
    for (const [body, field] of BAD_BODIES) {
      test(`POST ${JSON.stringify(body)} gives 400 naming ${field}`, async () => {
        const { jwt, computerId } = await mindWithComputer(svc);
        assertError(await svc.http.post(`/computers/${computerId}/commands`).set(bearer(jwt)).send(body), 400, field);
        const list = await svc.http.get(`/computers/${computerId}/commands`).set(bearer(jwt)).expect(200);
        assert.deepEqual(list.body.commands, [], 'nothing was queued');
      });
    }

    const BAD_QUERIES: Array<[string, string]> = [
      ['', 'query.type'],
      ['type=teleport', 'query.type'],
      ['type=click&x=1', 'query.y'],
      ['type=click&x=abc&y=1', 'query.x'],
      ['type=click&x=-5&y=1', 'query.x'],
      ['type=click&x=1&y=1&double=maybe', 'query.double'],
      ['type=type', 'query.text'],
      ['type=type&text=hi&x=1', 'query.x'],
      ['type=key&keys=', 'query.keys'],
      ['type=key&keys=ctrl,,c', 'query.keys'],
      ['type=scroll', 'query.deltaY'],
      ['type=scroll&deltaY=1.5', 'query.deltaY'],
      ['type=drag&fromX=1&fromY=1&toX=1', 'query.toY'],
      ['type=screenshot&text=x', 'query.text'],
      ['type=drag&path=1,1', 'query.path'],
      [`type=drag&path=${Array.from({ length: 101 }, (_, i) => `${i},${i}`).join(';')}`, 'query.path'],
      ['type=drag&path=1,1;2,2&toX=3', 'query.toX'],
      ['type=hold_key&keys=shift&duration_ms=60000', 'query.duration_ms'],
      ['type=click&x=1&y=1&modifiers=hyper', 'query.modifiers'],
      ['type=click&count=2&double=false', 'query.count'],
      ['type=zoom&x=0&y=0&width=10', 'query.height'],
      ['type=wait&duration_ms=10&max_width=100', 'query.max_width'],
      ['type=cursor_position&x=1', 'query.x'],
      ['type=move&x=1&y=1&count=2', 'query.count'],
    ];
    for (const [query, field] of BAD_QUERIES) {
      test(`GET ?${query} gives 400 naming ${field}`, async () => {
        const { jwt, computerId } = await mindWithComputer(svc);
        assertError(await svc.http.get(`/computers/${computerId}/command?${query}`).set(bearer(jwt)), 400, field);
        const list = await svc.http.get(`/computers/${computerId}/commands`).set(bearer(jwt)).expect(200);
        assert.deepEqual(list.body.commands, [], 'nothing was queued');
      });
    }

    test("a zoom's region must lie on the screen the agent reported: 400 naming the field that leaves it, in both forms", async () => {
      const { mindKey, computerId, token } = await mindWithComputer(svc);
      const zoom = (payload: Record<string, unknown>) =>
        svc.http.post(`/computers/${computerId}/commands`).set(bearer(mindKey)).send({ type: 'zoom', payload });
      // No screen reported yet: the agent checks the region against the screen it has.
      await zoom({ x: 5000, y: 0, width: 10, height: 10 }).expect(201);
      await svc.http.put('/computers/me/screen').set(bearer(token)).send({ width: 1024, height: 768 }).expect(200);
      assertError(await zoom({ x: 1000, y: 0, width: 100, height: 10 }), 400, 'body.payload.width');
      assertError(await zoom({ x: 0, y: 700, width: 10, height: 100 }), 400, 'body.payload.height');
      assertError(await zoom({ x: 1024, y: 0, width: 1, height: 1 }), 400, 'body.payload.x');
      assertError(await zoom({ x: 0, y: 768, width: 1, height: 1 }), 400, 'body.payload.y');
      const query = await svc.http.get(`/computers/${computerId}/command?type=zoom&x=1000&y=0&width=100&height=10`).set(bearer(mindKey));
      assertError(query, 400, 'query.width');
      assert.match(query.body.message, /past the screen's width 1024/);
      await zoom({ x: 1014, y: 758, width: 10, height: 10 }).expect(201);
      const list = await svc.http.get(`/computers/${computerId}/commands`).set(bearer(mindKey)).expect(200);
      assert.equal(list.body.commands.length, 2, 'only the zooms on the screen (and the one before any screen) were queued');
    });

    test('a screen report must be whole: 400 naming the field; a revoked token cannot report', async () => {
      const { jwt, computerId, token } = await mindWithComputer(svc);
      assertError(await svc.http.put('/computers/me/screen').set(bearer(token)).send({ width: 1024 }), 400, 'body.height');
      assertError(await svc.http.put('/computers/me/screen').set(bearer(token)).send({ width: 0, height: 10 }), 400, 'body.width');
      assertError(
        await svc.http.put('/computers/me/screen').set(bearer(token)).send({ width: 10, height: 10, scale_factor: 20 }),
        400,
        'body.scale_factor',
      );
      assert.equal((await svc.http.get(`/computers/${computerId}`).set(bearer(jwt)).expect(200)).body.screen, null);
      await svc.http.post(`/computers/${computerId}/disable`).set(bearer(jwt)).expect(200);
      const revoked = await svc.http.put('/computers/me/screen').set(bearer(token)).send({ width: 10, height: 10 });
      assertError(revoked, 401);
      assert.equal(revoked.body.code, 'computer_token_invalid');
    });

    test('a disabled computer refuses commands with 409 in every form', async () => {
      const { jwt, computerId } = await mindWithComputer(svc);
      await svc.http.post(`/computers/${computerId}/disable`).set(bearer(jwt)).expect(200);
      assertError(await svc.http.post(`/computers/${computerId}/commands`).set(bearer(jwt)).send({ type: 'screenshot' }), 409, 'disabled');
      assertError(await svc.http.get(`/computers/${computerId}/command?type=screenshot`).set(bearer(jwt)), 409, 'disabled');
      assertError(await svc.http.get(`/computers/${computerId}/screenshot`).set(bearer(jwt)), 409, 'disabled');
    });

    test('a bad limit gives 400', async () => {
      const { jwt, computerId } = await mindWithComputer(svc);
      for (const limit of ['0', '201', 'ten'])
        assertError(await svc.http.get(`/computers/${computerId}/commands?limit=${limit}`).set(bearer(jwt)), 400, 'query.limit');
    });

    test('unknown computer or command ids give 404', async () => {
      const { jwt, computerId } = await mindWithComputer(svc);
      assertError(await svc.http.get('/computers/00000000-0000-0000-0000-000000000000').set(bearer(jwt)), 404, 'Computer');
      assertError(await svc.http.get(`/computers/${computerId}/commands/nope`).set(bearer(jwt)), 404, 'Command');
      assertError(await svc.http.delete(`/computers/${computerId}/commands/nope`).set(bearer(jwt)), 404, 'Command');
    });

    test('only a queued command can be cancelled (409 otherwise)', async () => {
      const { jwt, computerId, token } = await mindWithComputer(svc);
      const commandId = await queue(svc, jwt, computerId, { type: 'screenshot' });
      await poll(svc, token, 0);
      assertError(await svc.http.delete(`/computers/${computerId}/commands/${commandId}`).set(bearer(jwt)), 409, 'sent');
      assert.equal((await getCommand(svc, jwt, computerId, commandId)).status, 'sent');
    });
  });

  describe('agent side', () => {
    test('wait must be a whole number from 0 to 60', async () => {
      const { token } = await mindWithComputer(svc);
      for (const wait of ['61', '-1', 'soon', '1.5'])
        assertError(await svc.http.get(`/computers/me/poll?wait=${wait}`).set(bearer(token)), 400, 'query.wait');
    });

    test('a result for an unknown command is 404, for a finished one 409', async () => {
      const { jwt, computerId, token } = await mindWithComputer(svc);
      assertError(await postResult(svc, token, '00000000-0000-0000-0000-000000000000', { status: 'done' }, 404), 404, 'Command');
      const commandId = await queue(svc, jwt, computerId, { type: 'move', payload: { x: 1, y: 1 } });
      await poll(svc, token, 0);
      await postResult(svc, token, commandId, { status: 'done', result: { ok: true } });
      assertError(await postResult(svc, token, commandId, { status: 'failed', error: 'again' }, 409), 409, 'already done');
      const command = await getCommand(svc, jwt, computerId, commandId);
      assert.equal(command.status, 'done');
      assert.deepEqual(command.result, { ok: true });
    });

    test('a result for a cancelled command is 409', async () => {
      const { jwt, computerId, token } = await mindWithComputer(svc);
      const commandId = await queue(svc, jwt, computerId, { type: 'move', payload: { x: 1, y: 1 } });
      await svc.http.delete(`/computers/${computerId}/commands/${commandId}`).set(bearer(jwt)).expect(200);
      assertError(await postResult(svc, token, commandId, { status: 'done' }, 409), 409, 'cancelled');
    });

    test('a malformed result gives 400 naming the field and changes nothing', async () => {
      const { jwt, computerId, token } = await mindWithComputer(svc);
      const commandId = await queue(svc, jwt, computerId, { type: 'screenshot' });
      await poll(svc, token, 0);
      assertError(await postResult(svc, token, commandId, { status: 'finished' }, 400), 400, 'body.status');
      assertError(await postResult(svc, token, commandId, { status: 'done', result: 'yes' }, 400), 400, 'body.result');
      assertError(await postResult(svc, token, commandId, { status: 'done', result: {} }, 400), 400, 'body.result.screenshot_b64');
      assertError(
        await postResult(svc, token, commandId, { status: 'done', result: { screenshot_b64: 'not base64!' } }, 400),
        400,
        'body.result.screenshot_b64',
      );
      const bad = await svc.http
        .post(`/computers/me/commands/${commandId}/result`)
        .set(bearer(token))
        .set('Content-Type', 'application/json')
        .send('{"status": "done",');
      assertError(bad, 400, 'not valid JSON');
      assert.equal((await getCommand(svc, jwt, computerId, commandId)).status, 'sent');
    });
  });

  describe('screenshot', () => {
    test('no answer within the wait gives 504 with the error object and the command expires', async () => {
      const { mindKey, computerId, token } = await mindWithComputer(svc);
      const startedAt = Date.now();
      const res = await svc.http.get(`/computers/${computerId}/screenshot`).set(bearer(mindKey));
      assertError(res, 504, 'did not send a screenshot within 300 ms');
      assert.match(String(res.headers['content-type']), /application\/json/);
      assert.ok(Date.now() - startedAt >= 280, 'it waited');
      const list = await svc.http.get(`/computers/${computerId}/commands`).set(bearer(mindKey)).expect(200);
      assert.equal(list.body.commands.length, 1);
      assert.equal(list.body.commands[0].type, 'screenshot');
      assert.equal(list.body.commands[0].status, 'expired');
      assert.deepEqual(await poll(svc, token, 0), [], 'an expired screenshot is not handed out');
    });

    test('an agent that reports failure gives 502 with its reason', async () => {
      const { mindKey, computerId, token } = await mindWithComputer(svc);
      const shot = svc.http
        .get(`/computers/${computerId}/screenshot`)
        .set(bearer(mindKey))
        .then((r) => r);
      const [command] = await poll(svc, token, 5);
      await postResult(svc, token, command!.command_id, { status: 'failed', error: 'no display' });
      assertError(await shot, 502, 'no display');
    });

    test('a late result for the expired screenshot is refused with 409', async () => {
      const { mindKey, computerId, token } = await mindWithComputer(svc);
      const shot = svc.http
        .get(`/computers/${computerId}/screenshot`)
        .set(bearer(mindKey))
        .then((r) => r);
      const [command] = await poll(svc, token, 5);
      assert.equal((await shot).status, 504);
      assertError(
        await postResult(svc, token, command!.command_id, { status: 'done', result: { screenshot_b64: 'AAAA' } }, 409),
        409,
        'expired',
      );
    });
  });
});
