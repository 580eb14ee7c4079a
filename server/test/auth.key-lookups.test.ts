// Mind Keys looked up under load (issue 32): on PostgreSQL the lookups of concurrent requests share
// statements. Each request must still be answered for its own key's mind, and a key must stop
// working for every request that arrives after its mind was deleted or disabled.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { sha256Hex } from '../src/lib/secrets.js';
import { findKeyHoldersPostgres, setMindDisabled } from '../src/minds/store.js';
import { bearer, TEST_DATABASE_URL, useService } from './harness.js';

describe('Mind Keys looked up by concurrent requests', () => {
  const svc = useService();

  test("each of 240 concurrent requests with the keys of 12 minds (and unknown keys) gets its own key's answer", async () => {
    const owner = await svc.user();
    const minds: Array<{ mindId: string; mindKey: string }> = [];
    for (let i = 0; i < 12; i++) minds.push(await svc.addMind(owner.jwt, `mind ${i}`));
    const unknown = `mk_${'A'.repeat(43)}`;
    const asks = Array.from({ length: 240 }, (_, i) => (i % 13 === 12 ? undefined : minds[(i * 7) % 12]!));
    const answers = await Promise.all(
      asks.map((mind) =>
        svc.http
          .get('/memory/stats')
          .set(bearer(mind?.mindKey ?? unknown))
          .then((res) => ({ mind, status: res.status, mindId: res.body.mind_id as string | undefined })),
      ),
    );
    for (const { mind, status, mindId } of answers) {
      if (mind) assert.deepEqual({ status, mindId }, { status: 200, mindId: mind.mindId });
      else assert.equal(status, 401);
    }
  });

  test("a deleted or disabled mind's key is refused by every request sent after that answered, while other keys keep the lookups busy", async () => {
    const owner = await svc.user();
    const busy = await svc.addMind(owner.jwt, 'busy');
    const doomed = await svc.addMind(owner.jwt, 'doomed');
    const paused = await svc.addMind(owner.jwt, 'paused');
    let stop = false;
    const load = Array.from({ length: 8 }, async () => {
      while (!stop) await svc.http.get('/memory/stats').set(bearer(busy.mindKey)).expect(200);
    });
    try {
      await Promise.all([doomed, paused].map((m) => svc.http.get('/memory/stats').set(bearer(m.mindKey)).expect(200)));
      await svc.http.delete(`/minds/${doomed.mindId}`).set(bearer(owner.jwt)).expect(204);
      await setMindDisabled(svc.ctx.db, paused.mindId, new Date().toISOString());
      const after = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          svc.http
            .get('/memory/stats')
            .set(bearer(i % 2 ? doomed.mindKey : paused.mindKey))
            .then((res) => res.status),
        ),
      );
      assert.deepEqual(
        after,
        Array.from({ length: 20 }, (_, i) => (i % 2 ? 401 : 403)),
      );
    } finally {
      stop = true;
      await Promise.all(load);
    }
  });

  test('one batch of 150 keys (statements of 64 at most, the last padded) finds exactly the minds among them', {
    skip: TEST_DATABASE_URL ? false : 'PostgreSQL only (MIND_TEST_DATABASE_URL)',
  }, async () => {
    const owner = await svc.user();
    const minds: Array<{ mindId: string; mindKey: string }> = [];
    for (let i = 0; i < 3; i++) minds.push(await svc.addMind(owner.jwt, `batched ${i}`));
    const hashes = Array.from({ length: 150 }, (_, i) => sha256Hex(`mk_unknown_${i}`));
    // The first key of the second statement, the last of the second, the last of all.
    for (const [i, at] of [64, 127, 149].entries()) hashes[at] = sha256Hex(minds[i]!.mindKey);
    const found = await findKeyHoldersPostgres(svc.ctx.db, hashes);
    assert.deepEqual(
      [...found].map(([hash, mind]) => [hash, mind.id, mind.userId, mind.disabled]).sort(),
      minds.map((m) => [sha256Hex(m.mindKey), m.mindId, owner.userId, false]).sort(),
    );
  });
});
