// A mind's keys: made, listed and revoked by the owner; scope `read` reads and writes nothing; an
// expired or revoked key is refused from its next request; no secret shows anywhere after its one answer.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, test } from 'node:test';
import { bearer, TestClock, useService } from './harness.js';
import { eventually } from './webhooks/receiver.js';

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

interface KeySummary {
  id: string;
  label: string;
  scope: string;
  prefix: string | null;
  source: string;
  client_name: string | null;
  created_at: string;
  expires_at: string | null;
  last_used_at: string | null;
}

describe('Mind Keys: several a mind, made, listed and revoked by the owner', () => {
  const clock = new TestClock();
  const svc = useService({}, { clock });

  const makeKey = async (jwt: string, mindId: string, body: object) =>
    (await svc.http.post(`/minds/${mindId}/keys`).set(bearer(jwt)).send(body).expect(201)).body as {
      id: string;
      label: string;
      scope: string;
      prefix: string;
      mind_key: string;
      created_at: string;
      expires_at: string | null;
    };
  const listKeys = async (jwt: string, mindId: string) =>
    (await svc.http.get(`/minds/${mindId}/keys`).set(bearer(jwt)).expect(200)).body.keys as KeySummary[];

  test('POST /minds/:id/keys answers the secret once; the list holds the original key and the new one, without secrets', async () => {
    const a = await svc.mind();
    const made = await makeKey(a.jwt, a.mindId, { label: 'research agent' });
    assert.deepEqual(Object.keys(made).sort(), ['created_at', 'expires_at', 'id', 'label', 'mind_key', 'prefix', 'scope']);
    assert.equal(made.scope, 'full');
    assert.equal(made.expires_at, null);
    assert.match(made.mind_key, /^mk_[\w-]{43}$/);
    assert.equal(made.prefix, made.mind_key.slice(0, 8));
    await svc.http.get('/mind/tasks').set(bearer(made.mind_key)).expect(200);

    const res = await svc.http.get(`/minds/${a.mindId}/keys`).set(bearer(a.jwt)).expect(200);
    const keys = res.body.keys as KeySummary[];
    assert.deepEqual(
      keys.map((k) => [k.label, k.scope, k.source, k.prefix, k.client_name]),
      [
        ['original', 'full', 'api', a.mindKey.slice(0, 8), null],
        ['research agent', 'full', 'api', made.prefix, null],
      ],
    );
    assert.deepEqual(Object.keys(keys[0]!).sort(), [
      'client_name',
      'created_at',
      'expires_at',
      'id',
      'label',
      'last_used_at',
      'prefix',
      'scope',
      'source',
    ]);
    for (const secret of [a.mindKey, made.mind_key]) {
      assert.equal(res.text.includes(secret), false, 'a secret in the list');
      assert.equal(res.text.includes(sha256(secret)), false, "a secret's hash in the list");
    }
    // Stored hashed: the table holds no secret.
    const rows = JSON.stringify(await svc.ctx.db('mind_keys').where({ mind_id: a.mindId }).select('*'));
    assert.equal(rows.includes(made.mind_key), false);
  });

  test("another user's mind is 404 on every key route (not revealed); a Mind Key is 401 there", async () => {
    const a = await svc.mind();
    const b = await svc.mind();
    const [original] = await listKeys(a.jwt, a.mindId);
    for (const [method, path, body] of [
      ['post', `/minds/${a.mindId}/keys`, { label: 'stolen' }],
      ['get', `/minds/${a.mindId}/keys`, undefined],
      ['delete', `/minds/${a.mindId}/keys/${original!.id}`, undefined],
    ] as const) {
      const foreign = await svc.http[method](path).set(bearer(b.jwt)).send(body);
      assert.equal(foreign.status, 404, `${method} ${path}: ${foreign.text}`);
      assert.equal(foreign.body.code, 'mind_not_found');
      const withKey = await svc.http[method](path).set(a.auth).send(body);
      assert.equal(withKey.status, 401);
      assert.equal(withKey.body.code, 'credential_wrong_kind');
    }
    assert.equal((await listKeys(a.jwt, a.mindId)).length, 1, 'nothing made');
    await svc.http.get('/mind/tasks').set(a.auth).expect(200);
  });

  test('rotation: make a key, move the agent, revoke the old one; the revoked key is 401 mind_key_revoked, the mind keeps its data', async () => {
    const a = await svc.mind();
    await svc.http.post('/mind/task').set(a.auth).send({ title: 'keep me' }).expect(201);
    const fresh = await makeKey(a.jwt, a.mindId, { label: 'agent, rotated' });
    const [original] = await listKeys(a.jwt, a.mindId);
    await svc.http.delete(`/minds/${a.mindId}/keys/${original!.id}`).set(bearer(a.jwt)).expect(204);

    for (const send of [() => svc.http.get('/mind/tasks').set(a.auth), () => svc.http.get('/mind/tasks').query({ key: a.mindKey })]) {
      const refused = await send();
      assert.equal(refused.status, 401);
      assert.equal(refused.body.code, 'mind_key_revoked');
      assert.equal(refused.body.message, 'Mind Key fehlt oder ungültig.');
      assert.match(refused.body.details[0].message, /revoked/);
    }
    const tasks = await svc.http.get('/mind/tasks').set(bearer(fresh.mind_key)).expect(200);
    assert.deepEqual(
      tasks.body.tasks.map((t: { title: string }) => t.title),
      ['keep me'],
    );
    assert.deepEqual(
      (await listKeys(a.jwt, a.mindId)).map((k) => k.id),
      [fresh.id],
    );
    const again = await svc.http.delete(`/minds/${a.mindId}/keys/${original!.id}`).set(bearer(a.jwt));
    assert.equal(again.status, 404);
    assert.equal(again.body.code, 'key_not_found');
  });

  test('scope read: reads work; every write is 403 key_read_only, the URL-only GET writes too, and nothing changes', async () => {
    const a = await svc.mind();
    const task = (await svc.http.post('/mind/task').set(a.auth).send({ title: 'untouched' }).expect(201)).body as { id: string };
    const reader = await makeKey(a.jwt, a.mindId, { label: 'reader', scope: 'read' });
    assert.equal(reader.scope, 'read');
    const read = bearer(reader.mind_key);
    await svc.http.get('/mind/tasks').set(read).expect(200);
    await svc.http.get(`/mind/task/${task.id}`).set(read).expect(200);
    await svc.http.get('/memory/recall').set(read).expect(200);
    const refusals = [
      svc.http.post('/mind/task').set(read).send({ title: 'no' }),
      svc.http.get('/mind/task').query({ title: 'no', key: reader.mind_key }),
      svc.http.get(`/mind/task/${task.id}/complete`).set(read),
      svc.http.get(`/mind/task/${task.id}/delete`).set(read),
      svc.http.put(`/mind/task/${task.id}`).set(read).send({ title: 'no' }),
      svc.http.post('/memory').set(read).send({ category: 'note', content: 'no' }),
    ];
    for (const res of await Promise.all(refusals)) {
      assert.equal(res.status, 403, res.text);
      assert.equal(res.body.code, 'key_read_only');
      assert.match(res.body.message, /scope `read`/);
    }
    const tasks = (await svc.http.get('/mind/tasks').set(a.auth).expect(200)).body.tasks;
    assert.deepEqual(
      tasks.map((t: { title: string; status: string }) => [t.title, t.status]),
      [['untouched', 'pending']],
    );
    assert.equal((await svc.http.get('/memory/stats').set(a.auth).expect(200)).body.total, 0);
  });

  test('expires_at: the key works until then, then 401 mind_key_expired; a time not in the future is a 400', async () => {
    const a = await svc.mind();
    const expiresAt = new Date(clock.now().getTime() + 120_000).toISOString();
    const short = await makeKey(a.jwt, a.mindId, { label: 'short', expires_at: expiresAt });
    assert.equal(short.expires_at, expiresAt);
    await svc.http.get('/mind/tasks').set(bearer(short.mind_key)).expect(200);
    clock.advance(121_000);
    const expired = await svc.http.get('/mind/tasks').set(bearer(short.mind_key));
    assert.equal(expired.status, 401);
    assert.equal(expired.body.code, 'mind_key_expired');
    await svc.http.get('/mind/tasks').set(a.auth).expect(200);

    const past = await svc.http
      .post(`/minds/${a.mindId}/keys`)
      .set(bearer(a.jwt))
      .send({ label: 'late', expires_at: new Date(clock.now().getTime() - 1000).toISOString() });
    assert.equal(past.status, 400);
    assert.deepEqual(past.body.details, [{ path: 'body.expires_at', message: 'must be in the future' }]);
    const noLabel = await svc.http.post(`/minds/${a.mindId}/keys`).set(bearer(a.jwt)).send({ scope: 'admin' });
    assert.equal(noLabel.status, 400);
    assert.deepEqual(noLabel.body.details.map((d: { path: string }) => d.path).sort(), ['body.label', 'body.scope']);
  });

  test('last_used_at: recorded to the minute, written at most once a minute per key however many requests', async () => {
    const a = await svc.mind();
    const key = await makeKey(a.jwt, a.mindId, { label: 'counted' });
    assert.equal((await listKeys(a.jwt, a.mindId))[1]!.last_used_at, null);
    await svc.http.get('/mind/tasks').set(bearer(key.mind_key)).expect(200);
    const first = await eventually(async () => (await listKeys(a.jwt, a.mindId))[1]!.last_used_at ?? undefined);
    await Promise.all(Array.from({ length: 20 }, () => svc.http.get('/mind/tasks').set(bearer(key.mind_key)).expect(200)));
    clock.advance(30_000);
    await svc.http.get('/mind/tasks').set(bearer(key.mind_key)).expect(200);
    await new Promise((r) => setTimeout(r, 100));
    assert.equal((await listKeys(a.jwt, a.mindId))[1]!.last_used_at, first, 'not written again within the minute');
    clock.advance(31_000);
    await svc.http.get('/mind/tasks').set(bearer(key.mind_key)).expect(200);
    const later = await eventually(async () => {
      const used = (await listKeys(a.jwt, a.mindId))[1]!.last_used_at;
      return used !== first ? used : undefined;
    });
    assert.ok(later! > first, `${later} after ${first}`);
  });

  test('deleting the mind ends all its keys (its purge removes them)', async () => {
    const a = await svc.mind();
    const other = await makeKey(a.jwt, a.mindId, { label: 'other', scope: 'read' });
    await svc.http.delete(`/minds/${a.mindId}`).set(bearer(a.jwt)).expect(204);
    for (const key of [a.mindKey, other.mind_key]) {
      const res = await svc.http.get('/mind/tasks').set(bearer(key));
      assert.equal(res.status, 401);
      assert.equal(res.body.code, 'mind_key_invalid');
    }
    await eventually(async () => Number((await svc.ctx.db('mind_keys').where({ mind_id: a.mindId }).count({ n: '*' }))[0]!.n) === 0);
  });

  test('a mind has at most 100 keys that are not revoked: one more is 409, a revoked one frees its place', async () => {
    const a = await svc.mind();
    for (let i = 1; i < 100; i++) await makeKey(a.jwt, a.mindId, { label: `key ${i}` });
    const over = await svc.http.post(`/minds/${a.mindId}/keys`).set(bearer(a.jwt)).send({ label: 'one more' });
    assert.equal(over.status, 409);
    assert.equal(over.body.code, 'mind_keys_limit_reached');
    const [first] = await listKeys(a.jwt, a.mindId);
    await svc.http.delete(`/minds/${a.mindId}/keys/${first!.id}`).set(bearer(a.jwt)).expect(204);
    await makeKey(a.jwt, a.mindId, { label: 'one more' });
  });
});
