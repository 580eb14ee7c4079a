// A disabled mind is disabled for every credential: its Mind Key and its computers' tokens are 403.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { setMindDisabled } from '../src/minds/store.js';
import { mindWithComputer } from './computers/helpers.js';
import { bearer, startService, type TestService } from './harness.js';

describe('a disabled mind', () => {
  let svc: TestService;
  before(async () => {
    svc = await startService();
  });
  after(() => svc.stop());

  test("its computers' tokens are refused with 403 until the mind is enabled again", async () => {
    const { mindId, mindKey, token } = await mindWithComputer(svc);
    await svc.http.get('/computers/me/poll?wait=0').set(bearer(token)).expect(200);
    await setMindDisabled(svc.ctx.db, mindId, new Date().toISOString());
    const poll = await svc.http.get('/computers/me/poll?wait=0').set(bearer(token)).expect(403);
    assert.match(poll.body.message, /This mind is disabled/);
    await svc.http.get('/mind/tasks').set(bearer(mindKey)).expect(403);
    await setMindDisabled(svc.ctx.db, mindId, null);
    await svc.http.get('/computers/me/poll?wait=0').set(bearer(token)).expect(200);
  });
});
