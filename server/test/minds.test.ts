import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { bearer, useService } from './harness.js';

describe('minds', () => {
  const svc = useService();

  test('create returns the Mind Key once; only its hash is stored', async () => {
    const { jwt } = await svc.user();
    const res = await svc.http.post('/minds').set(bearer(jwt)).send({ name: 'research', description: 'papers' }).expect(201);
    assert.match(res.body.mind_key, /^mk_[\w-]{43}$/);
    assert.deepEqual(Object.keys(res.body).sort(), ['created_at', 'description', 'id', 'mind_key', 'name']);
    const row = await svc.ctx.db('minds').where({ id: res.body.id }).first();
    assert.notEqual(row.key_hash, res.body.mind_key);
    assert.equal(JSON.stringify(row).includes(res.body.mind_key), false);
    const list = await svc.http.get('/minds').set(bearer(jwt)).expect(200);
    assert.equal(JSON.stringify(list.body).includes(res.body.mind_key), false);
  });

  test('a missing name is 400 naming the field', async () => {
    const { jwt } = await svc.user();
    const res = await svc.http.post('/minds').set(bearer(jwt)).send({ description: 'x' }).expect(400);
    assert.match(res.body.message, /body\.name: is required/);
  });

  test("list shows only the caller's minds, with memory_count and last_activity", async () => {
    const a = await svc.user();
    const b = await svc.user();
    const mine = await svc.addMind(a.jwt, 'mine');
    await svc.addMind(b.jwt, 'theirs');
    const res = await svc.http.get('/minds').set(bearer(a.jwt)).expect(200);
    assert.equal(res.body.minds.length, 1);
    const [mind] = res.body.minds;
    assert.equal(mind.id, mine.mindId);
    assert.equal(mind.name, 'mine');
    assert.equal(mind.memory_count, 0);
    assert.ok(mind.last_activity);
    assert.equal(mind.disabled, false);
  });

  test('a Mind Key on /minds is refused with 401', async () => {
    const { mindKey } = await svc.mind();
    const res = await svc.http.get('/minds').set(bearer(mindKey)).expect(401);
    assert.equal(res.body.message, 'Mind Key fehlt oder ungültig.');
    await svc.http.post('/minds').set(bearer(mindKey)).send({ name: 'x' }).expect(401);
  });

  test("deleting another user's mind is 403 and keeps it; an unknown mind is 404", async () => {
    const owner = await svc.mind();
    const other = await svc.user();
    const res = await svc.http.delete(`/minds/${owner.mindId}`).set(bearer(other.jwt)).expect(403);
    assert.equal(res.body.error, 'Forbidden');
    await svc.http
      .get('/minds')
      .set(bearer(owner.jwt))
      .expect(200)
      .expect((r) => assert.equal(r.body.minds.length, 1));
    await svc.http.delete('/minds/00000000-0000-4000-8000-000000000000').set(bearer(other.jwt)).expect(404);
  });

  test('delete answers 204, removes everything the mind holds, and its key stops working at once', async () => {
    const { jwt, mindId, mindKey } = await svc.mind();
    await svc.ctx.db.transaction((trx) => svc.ctx.events.record(trx, mindId, 'task.created', { id: 'x' }));
    assert.equal((await svc.ctx.db('events').where({ mind_id: mindId })).length, 1);
    await svc.http.get('/minds').set(bearer(jwt)).expect(200);
    const res = await svc.http.delete(`/minds/${mindId}`).set(bearer(jwt)).expect(204);
    assert.equal(res.text, '');
    assert.equal((await svc.http.get('/minds').set(bearer(jwt)).expect(200)).body.minds.length, 0);
    const refused = await svc.http.get('/mind/tasks').set(bearer(mindKey)).expect(401);
    assert.equal(refused.body.message, 'Mind Key fehlt oder ungültig.');
    // The rows go in the background (minds/purge.ts); the mind's own row goes last.
    for (let i = 0; i < 500 && (await svc.ctx.db('minds').where({ id: mindId }).first('id')); i++)
      await new Promise((r) => setTimeout(r, 10));
    assert.equal((await svc.ctx.db('events').where({ mind_id: mindId })).length, 0);
    assert.equal((await svc.ctx.db('minds').where({ id: mindId })).length, 0);
  });
});
