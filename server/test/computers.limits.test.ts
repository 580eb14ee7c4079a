// Safe on the open internet (DESIGN section 13), computers: screenshots are fetched, never listed;
// results are bounded; command lists are paged; finished commands are purged; caps per user, mind
// and computer.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { loadConfig } from '../src/lib/config.js';
import { migrateLatest, openDatabase } from '../src/db/database.js';
import { migrations, migrationSource } from '../src/migrations.js';
import { bearer, freshPostgresSchema, startService, TEST_DATABASE_URL, TestClock, type TestService } from './harness.js';
import {
  eventsOf,
  getCommand,
  installCode,
  mindWithComputer,
  PNG_1X1,
  poll,
  postResult,
  queue,
  registerWithCode,
} from './computers/helpers.js';
import { createWebhook } from './webhooks/helpers.js';
import { type Receiver, startReceiver } from './webhooks/receiver.js';

function assertError(res: { status: number; body: Record<string, unknown> }, status: number, ...words: string[]) {
  assert.equal(res.status, status, JSON.stringify(res.body));
  assert.equal(res.body.statusCode, status);
  for (const word of words) assert.match(res.body.message as string, new RegExp(word.replace(/\./g, '\\.')), `message names ${word}`);
}

/** A PNG-like screenshot of `size` bytes: the PNG signature, then random bytes (incompressible). */
const bigPng = (size: number) => Buffer.concat([PNG_1X1.subarray(0, 8), randomBytes(size - 8)]);

const binary = (req: ReturnType<TestService['http']['get']>) =>
  req.buffer(true).parse((res, done) => {
    const chunks: Buffer[] = [];
    res.on('data', (chunk: Buffer) => chunks.push(chunk));
    res.on('end', () => done(null, Buffer.concat(chunks)));
  });

/** Queues a screenshot, hands it over and posts `png` as its result; answers the command id. */
async function screenshotDone(svc: TestService, credential: string, computerId: string, token: string, png: Buffer) {
  const commandId = await queue(svc, credential, computerId, { type: 'screenshot' });
  await poll(svc, token, 0);
  await postResult(svc, token, commandId, { status: 'done', result: { screenshot_b64: png.toString('base64'), width: 800, height: 600 } });
  return commandId;
}

describe('computers: screenshots are fetched, not listed', () => {
  let svc: TestService;
  let receiver: Receiver;
  before(async () => {
    svc = await startService();
    receiver = await startReceiver();
  });
  after(async () => {
    await receiver.close();
    await svc.stop();
  });

  test('a list of three commands with 1 MB screenshots stays small and points to each PNG', async () => {
    const { mindKey, computerId, token } = await mindWithComputer(svc);
    const ids = [];
    for (let i = 0; i < 3; i++) ids.push(await screenshotDone(svc, mindKey, computerId, token, bigPng(1024 * 1024)));
    const res = await svc.http.get(`/computers/${computerId}/commands`).set(bearer(mindKey)).expect(200);
    const size = Buffer.byteLength(res.text);
    assert.ok(size < 4096, `the list is ${size} bytes`);
    assert.equal(res.text.includes('screenshot_b64'), false);
    assert.deepEqual(
      res.body.commands.map((c: { command_id: string; result: unknown }) => [c.command_id, c.result]),
      [...ids]
        .reverse()
        .map((id) => [
          id,
          { width: 800, height: 600, screenshot: { bytes: 1024 * 1024, url: `/computers/${computerId}/commands/${id}/screenshot` } },
        ]),
    );
  });

  test('the PNG route answers exactly the bytes the agent posted; the single command keeps its base64', async () => {
    const { mindKey, jwt, computerId, token } = await mindWithComputer(svc);
    const png = bigPng(300_000);
    const commandId = await screenshotDone(svc, mindKey, computerId, token, png);
    for (const credential of [mindKey, jwt]) {
      const res = await binary(svc.http.get(`/computers/${computerId}/commands/${commandId}/screenshot`).set(bearer(credential)));
      assert.equal(res.status, 200);
      assert.equal(res.headers['content-type'], 'image/png');
      assert.equal(Buffer.compare(res.body as Buffer, png), 0);
    }
    const one = await getCommand(svc, mindKey, computerId, commandId);
    assert.equal(one.result?.screenshot_b64, png.toString('base64'));
    assert.deepEqual(one.result?.screenshot, { bytes: png.length, url: `/computers/${computerId}/commands/${commandId}/screenshot` });

    // A command without a screenshot, an unknown command, someone else's computer: 404.
    const click = await queue(svc, mindKey, computerId, { type: 'click', payload: { x: 1, y: 1 } });
    assertError(await svc.http.get(`/computers/${computerId}/commands/${click}/screenshot`).set(bearer(mindKey)), 404, 'no screenshot');
    const unknown = '00000000-0000-4000-8000-000000000000';
    assertError(await svc.http.get(`/computers/${computerId}/commands/${unknown}/screenshot`).set(bearer(mindKey)), 404, 'Command');
    const other = await svc.mind();
    assertError(
      await svc.http.get(`/computers/${computerId}/commands/${commandId}/screenshot`).set(bearer(other.mindKey)),
      404,
      'Computer',
    );
  });

  test('the event and the webhook delivery carry {bytes, url}, never the base64', async () => {
    const { mindKey, mindId, computerId, token } = await mindWithComputer(svc);
    await createWebhook(svc, mindKey, { url: `${receiver.url}/shots`, events: 'computer.command_finished' });
    const png = bigPng(200_000);
    const b64 = png.toString('base64');
    const commandId = await screenshotDone(svc, mindKey, computerId, token, png);
    const ref = { bytes: png.length, url: `/computers/${computerId}/commands/${commandId}/screenshot` };

    const [event] = (await eventsOf(svc, mindId)).filter((e) => e.type === 'computer.command_finished');
    assert.deepEqual(event!.data.result, { width: 800, height: 600, screenshot: ref });
    const [delivery] = await receiver.waitFor(1, '/shots');
    assert.ok(delivery!.raw.length < 4096, `the delivery is ${delivery!.raw.length} bytes`);
    assert.equal(delivery!.raw.toString().includes(b64.slice(0, 100)), false);
    assert.deepEqual((delivery!.json.data as { result: unknown }).result, { width: 800, height: 600, screenshot: ref });
  });

  test('paging walks every command once, newest first; `limit` still works; a made-up cursor is 400', async () => {
    const { jwt, computerId } = await mindWithComputer(svc);
    const ids: string[] = [];
    for (let i = 0; i < 25; i++) ids.push(await queue(svc, jwt, computerId, { type: 'move', payload: { x: i, y: i } }));
    const seen: string[] = [];
    const sizes: number[] = [];
    let cursor: string | null = null;
    do {
      const query: string = `limit=10${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
      const res = await svc.http.get(`/computers/${computerId}/commands?${query}`).set(bearer(jwt)).expect(200);
      sizes.push(res.body.commands.length);
      seen.push(...res.body.commands.map((c: { command_id: string }) => c.command_id));
      cursor = res.body.next_cursor;
    } while (cursor);
    assert.deepEqual(sizes, [10, 10, 5]);
    assert.deepEqual(seen, [...ids].reverse());

    const first = await svc.http.get(`/computers/${computerId}/commands`).set(bearer(jwt)).expect(200);
    assert.equal(first.body.commands.length, 20, 'default page');
    assert.equal(typeof first.body.next_cursor, 'string');
    const all = await svc.http.get(`/computers/${computerId}/commands?limit=200`).set(bearer(jwt)).expect(200);
    assert.equal(all.body.commands.length, 25);
    assert.equal(all.body.next_cursor, null);
    assertError(await svc.http.get(`/computers/${computerId}/commands?cursor=nonsense`).set(bearer(jwt)), 400, 'query.cursor');
  });
});

describe('computers: bounded results, retention and caps', () => {
  let svc: TestService;
  const clock = new TestClock();
  before(async () => {
    svc = await startService(
      {
        MIND_MAX_RESULT_BYTES: '2048',
        MIND_COMMAND_RETENTION: '1h',
        MIND_COMMANDS_KEPT_PER_COMPUTER: '3',
        MIND_MAX_COMPUTERS_PER_USER: '2',
        MIND_MAX_QUEUED_COMMANDS_PER_COMPUTER: '3',
        MIND_MAX_INSTALL_CODES_PER_MIND: '2',
      },
      { clock },
    );
  });
  after(() => svc.stop());

  test('a result over MIND_MAX_RESULT_BYTES of JSON is refused with 413; a screenshot is not counted', async () => {
    const { mindKey, computerId, token } = await mindWithComputer(svc);
    const typed = await queue(svc, mindKey, computerId, { type: 'type', payload: { text: 'hi' } });
    await poll(svc, token, 0);
    assertError(
      await postResult(svc, token, typed, { status: 'done', result: { log: 'x'.repeat(3000) } }, 413),
      413,
      'body.result',
      'MIND_MAX_RESULT_BYTES',
    );
    assert.equal((await getCommand(svc, mindKey, computerId, typed)).status, 'sent', 'nothing was stored');
    await postResult(svc, token, typed, { status: 'done', result: { log: 'x'.repeat(1000) } });

    const png = bigPng(50_000);
    const shot = await screenshotDone(svc, mindKey, computerId, token, png);
    assert.equal((await getCommand(svc, mindKey, computerId, shot)).status, 'done');
  });

  test('finished commands older than MIND_COMMAND_RETENTION are purged with their screenshots; unfinished ones stay', async () => {
    const { mindKey, computerId, token } = await mindWithComputer(svc);
    const shot = await screenshotDone(svc, mindKey, computerId, token, bigPng(10_000));
    const cancelled = await queue(svc, mindKey, computerId, { type: 'move', payload: { x: 1, y: 1 } });
    await svc.http.delete(`/computers/${computerId}/commands/${cancelled}`).set(bearer(mindKey)).expect(200);
    clock.advance(59 * 60_000);
    await svc.computers.sweep();
    assert.equal((await getCommand(svc, mindKey, computerId, shot)).status, 'done', 'kept within the hour');

    clock.advance(2 * 60_000);
    const fresh = await queue(svc, mindKey, computerId, { type: 'move', payload: { x: 2, y: 2 } });
    const counts = await svc.computers.sweep();
    assert.ok(counts.purged >= 2, JSON.stringify(counts));
    for (const id of [shot, cancelled]) {
      await svc.http.get(`/computers/${computerId}/commands/${id}`).set(bearer(mindKey)).expect(404);
    }
    await svc.http.get(`/computers/${computerId}/commands/${shot}/screenshot`).set(bearer(mindKey)).expect(404);
    assert.equal(await svc.ctx.db('command_screenshots').where({ command_id: shot }).first('command_id'), undefined);
    assert.equal((await getCommand(svc, mindKey, computerId, fresh)).status, 'queued');
  });

  test('each computer keeps its MIND_COMMANDS_KEPT_PER_COMPUTER newest commands; older finished ones are purged', async () => {
    const { mindKey, computerId } = await mindWithComputer(svc);
    const waiting = await queue(svc, mindKey, computerId, { type: 'move', payload: { x: 0, y: 0 } });
    const finished = [];
    for (let i = 1; i <= 5; i++) {
      const id = await queue(svc, mindKey, computerId, { type: 'move', payload: { x: i, y: i } });
      await svc.http.delete(`/computers/${computerId}/commands/${id}`).set(bearer(mindKey)).expect(200);
      finished.push(id);
    }
    await svc.computers.sweep();
    const list = await svc.http.get(`/computers/${computerId}/commands`).set(bearer(mindKey)).expect(200);
    assert.deepEqual(
      list.body.commands.map((c: { command_id: string }) => c.command_id),
      [finished[4], finished[3], finished[2], waiting],
      'the 3 newest, and the older one still queued',
    );
  });

  test('queued commands per computer are capped (409 naming MIND_MAX_QUEUED_COMMANDS_PER_COMPUTER)', async () => {
    const { mindKey, computerId, token } = await mindWithComputer(svc);
    for (let i = 0; i < 3; i++) await queue(svc, mindKey, computerId, { type: 'move', payload: { x: i, y: i } });
    const body = { type: 'move', payload: { x: 9, y: 9 } };
    assertError(
      await svc.http.post(`/computers/${computerId}/commands`).set(bearer(mindKey)).send(body),
      409,
      '3 commands queued',
      'MIND_MAX_QUEUED_COMMANDS_PER_COMPUTER',
    );
    assertError(
      await svc.http.get(`/computers/${computerId}/command?type=move&x=9&y=9`).set(bearer(mindKey)),
      409,
      'MIND_MAX_QUEUED_COMMANDS_PER_COMPUTER',
    );
    assertError(
      await svc.http.get(`/computers/${computerId}/screenshot`).set(bearer(mindKey)),
      409,
      'MIND_MAX_QUEUED_COMMANDS_PER_COMPUTER',
    );
    assert.equal((await poll(svc, token, 0)).length, 3);
    await queue(svc, mindKey, computerId, body); // handed over: room again
  });

  test('open install codes per mind are capped (409 naming MIND_MAX_INSTALL_CODES_PER_MIND); used or expired ones do not count', async () => {
    const { mindKey, jwt, mindId } = await svc.mind();
    const first = await installCode(svc, mindKey);
    await installCode(svc, jwt, { mind_id: mindId });
    assertError(
      await svc.http.post('/computers/install-code').set(bearer(mindKey)).send({}),
      409,
      '2 open install codes',
      'MIND_MAX_INSTALL_CODES_PER_MIND',
    );
    assertError(
      await svc.http.post('/computers/install-code').set(bearer(jwt)).send({ mind_id: mindId }),
      409,
      'MIND_MAX_INSTALL_CODES_PER_MIND',
    );
    await installCode(svc, jwt); // the user's own codes (no mind) are counted apart
    await registerWithCode(svc, first);
    await installCode(svc, mindKey); // one was used
    clock.advance(16 * 60_000);
    await installCode(svc, mindKey); // the others expired
    await installCode(svc, mindKey);
  });

  test('computers per user are capped (409 naming MIND_MAX_COMPUTERS_PER_USER), at install code and at registration', async () => {
    const { jwt } = await svc.user();
    const codes = [await installCode(svc, jwt), await installCode(svc, jwt)];
    const minds = await svc.http.post('/minds').set(bearer(jwt)).send({ name: 'second' }).expect(201);
    const third = await installCode(svc, minds.body.mind_key as string); // a code of another mind of the same user
    const { computerId } = await registerWithCode(svc, codes[0]!);
    await registerWithCode(svc, codes[1]!);
    assertError(
      await svc.http.post('/computers/install-code').set(bearer(jwt)).send({}),
      409,
      '2 computers',
      'MIND_MAX_COMPUTERS_PER_USER',
    );
    const res = await svc.http
      .post('/computers/register')
      .send({ code: third, computer_name: 'pc', platform: 'linux', platform_release: '6', python: 'node' });
    assertError(res, 409, 'MIND_MAX_COMPUTERS_PER_USER');
    await svc.http.delete(`/computers/${computerId}`).set(bearer(jwt)).expect(204);
    await registerWithCode(svc, third); // the refused registration did not use the code
  });
});

describe('computers: migration 0401', () => {
  test('screenshots stored inside results before it move out of the command rows', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'mind-0401-'));
    const env: Record<string, string> = { MIND_DATA_DIR: dataDir };
    const schema = TEST_DATABASE_URL ? await freshPostgresSchema(TEST_DATABASE_URL) : undefined;
    if (schema) env.DATABASE_URL = schema.url;
    const db = openDatabase(loadConfig(env));
    try {
      for (;;) {
        const [, applied] = (await db.migrate.up({ migrationSource })) as [number, string[]];
        if (applied.includes('0400_computers')) break;
        assert.ok(applied.length > 0, '0400_computers never ran');
      }
      const at = new Date().toISOString();
      await db('users').insert({ id: 'u1', email: 'a@example.com', email_normalized: 'a@example.com', password_hash: 'x', created_at: at });
      await db('computers').insert({
        id: 'pc1',
        user_id: 'u1',
        mind_id: null,
        token_hash: 'h',
        computer_name: 'pc',
        platform: 'linux',
        platform_release: '6',
        python: 'node',
        status: 'active',
        created_at: at,
        last_seen_at: at,
        disabled_at: null,
      });
      const png = bigPng(5000);
      const command = (id: string, type: string, result: unknown) => ({
        id,
        computer_id: 'pc1',
        type,
        payload: '{}',
        status: 'done',
        result: JSON.stringify(result),
        error: null,
        attempts: 1,
        created_at: at,
        sent_at: at,
        completed_at: at,
      });
      await db('commands').insert([
        command('shot', 'screenshot', { screenshot_b64: png.toString('base64'), width: 2, height: 3 }),
        command('click', 'click', { ok: true }),
      ]);

      await migrateLatest(db, migrations);
      const rows = await db('commands').orderBy('id').select('id', 'result', 'screenshot_bytes');
      assert.deepEqual(
        rows.map((r: { id: string; result: string; screenshot_bytes: number | null }) => [r.id, JSON.parse(r.result), r.screenshot_bytes]),
        [
          ['click', { ok: true }, null],
          ['shot', { width: 2, height: 3 }, png.length],
        ],
      );
      const stored = await db('command_screenshots').where({ command_id: 'shot' }).first('png');
      assert.equal(Buffer.compare(Buffer.from(stored.png), png), 0);
    } finally {
      await db.destroy();
      await schema?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
