// Keys of source `console`: the owner's JWT asks for one, it never lives past an hour, and once expired
// it is refused and then deleted by the background purge; keys of other sources stay.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { purgeExpiredConsoleKeys } from '../src/minds/keys-purge.js';
import { bearer, TestClock, useService } from './harness.js';

const HOUR_MS = 60 * 60 * 1000;

describe('console keys: short-lived, and purged once expired', () => {
  const clock = new TestClock();
  const svc = useService({}, { clock });

  const makeKey = async (jwt: string, mindId: string, body: object) =>
    (await svc.http.post(`/minds/${mindId}/keys`).set(bearer(jwt)).send(body).expect(201)).body as {
      id: string;
      mind_key: string;
      expires_at: string | null;
    };
  const listed = async (jwt: string, mindId: string) =>
    ((await svc.http.get(`/minds/${mindId}/keys`).set(bearer(jwt)).expect(200)).body.keys as Array<{ id: string; source: string }>).map(
      (k) => [k.id, k.source],
    );

  test('a console key expires within the hour, whatever expires_at asks; the list names its source', async () => {
    const a = await svc.mind();
    const now = clock.now().getTime();
    const plain = await makeKey(a.jwt, a.mindId, { label: 'console', source: 'console' });
    const later = await makeKey(a.jwt, a.mindId, { label: 'console', source: 'console', expires_at: '2099-01-01T00:00:00Z' });
    const sooner = new Date(now + 10 * 60 * 1000).toISOString();
    const short = await makeKey(a.jwt, a.mindId, { label: 'console', source: 'console', expires_at: sooner });
    for (const key of [plain, later]) {
      const lives = Date.parse(key.expires_at!) - now;
      assert.ok(lives > HOUR_MS - 60_000 && lives <= HOUR_MS + 60_000, `expires ${lives} ms from now`);
    }
    assert.equal(short.expires_at, sooner);
    assert.deepEqual((await listed(a.jwt, a.mindId)).slice(1), [
      [plain.id, 'console'],
      [later.id, 'console'],
      [short.id, 'console'],
    ]);
    await svc.http.get('/mind/tasks').set(bearer(plain.mind_key)).expect(200);
  });

  test('a Mind Key cannot ask for a console key (the key routes take the JWT only)', async () => {
    const a = await svc.mind();
    await svc.http.post(`/minds/${a.mindId}/keys`).set(a.auth).send({ label: 'console', source: 'console' }).expect(401);
  });

  test('expired console keys are deleted by the purge; live ones and expired keys of other sources stay', async () => {
    const a = await svc.mind();
    const expiring = await makeKey(a.jwt, a.mindId, { label: 'console', source: 'console' });
    const apiExpiring = await makeKey(a.jwt, a.mindId, {
      label: 'short agent',
      expires_at: new Date(clock.now().getTime() + 30 * 60 * 1000).toISOString(),
    });
    clock.advance(HOUR_MS + 60_000);
    const fresh = await makeKey(a.jwt, a.mindId, { label: 'console', source: 'console' });
    const refused = await svc.http.get('/mind/tasks').set(bearer(expiring.mind_key)).expect(401);
    assert.equal(refused.body.code, 'mind_key_expired');

    assert.ok((await purgeExpiredConsoleKeys(svc.ctx)) >= 1);
    const ids = (await listed(a.jwt, a.mindId)).map(([id]) => id);
    assert.ok(!ids.includes(expiring.id), 'the expired console key is gone');
    assert.ok(ids.includes(fresh.id) && ids.includes(apiExpiring.id), 'the live console key and the expired api key stay');
    const row = await svc.ctx.db('mind_keys').where({ id: expiring.id }).first();
    assert.equal(row, undefined, 'its row is deleted');
    await svc.http.get('/mind/tasks').set(bearer(fresh.mind_key)).expect(200);
  });
});
