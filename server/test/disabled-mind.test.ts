// A disabled mind is disabled for every credential: its Mind Key and its computers' tokens are 403.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { setMindDisabled } from '../src/minds/store.js';
import { mindWithComputer } from './computers/helpers.js';
import { bearer, useService } from './harness.js';

describe('a disabled mind', () => {
  const svc = useService();

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

  test("its user's JWT can neither queue commands to its computers nor make install codes for it", async () => {
    const { jwt, mindId, computerId } = await mindWithComputer(svc);
    await setMindDisabled(svc.ctx.db, mindId, new Date().toISOString());
    const queued = await svc.http
      .post(`/computers/${computerId}/commands`)
      .set(bearer(jwt))
      .send({ type: 'move', payload: { x: 1, y: 1 } })
      .expect(403);
    assert.match(queued.body.message, /This mind is disabled/);
    await svc.http.get(`/computers/${computerId}/command?type=move&x=1&y=1`).set(bearer(jwt)).expect(403);
    await svc.http.get(`/computers/${computerId}/screenshot`).set(bearer(jwt)).expect(403);
    const code = await svc.http.post('/computers/install-code').set(bearer(jwt)).send({ mind_id: mindId }).expect(403);
    assert.match(code.body.message, /This mind is disabled/);
    await setMindDisabled(svc.ctx.db, mindId, null);
    await svc.http
      .post(`/computers/${computerId}/commands`)
      .set(bearer(jwt))
      .send({ type: 'move', payload: { x: 1, y: 1 } })
      .expect(201);
  });
});
