import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { bearer, TestClock, useService } from './harness.js';

describe('scripts', () => {
  const clock = new TestClock();
  const svc = useService({}, { clock });

  test('create (201), get, list by name, update, delete (204)', async () => {
    const { auth } = await svc.mind();
    const created = (
      await svc.http
        .post('/mind/scripts')
        .set(auth)
        .send({ name: 'fetch-arxiv', language: 'python', content: 'print(1)', id: 'x' })
        .expect(201)
    ).body;
    assert.deepEqual(
      { ...created, id: undefined, created_at: undefined, updated_at: undefined },
      {
        id: undefined,
        name: 'fetch-arxiv',
        description: null,
        language: 'python',
        content: 'print(1)',
        created_at: undefined,
        updated_at: undefined,
      },
    );
    assert.notEqual(created.id, 'x');
    await svc.http.post('/mind/scripts').set(auth).send({ name: 'a-first', content: '' }).expect(201);
    assert.deepEqual((await svc.http.get(`/mind/scripts/${created.id}`).set(auth).expect(200)).body, created);
    const list = (await svc.http.get('/mind/scripts').set(auth).expect(200)).body.scripts;
    assert.deepEqual(
      list.map((s: { name: string }) => s.name),
      ['a-first', 'fetch-arxiv'],
    );

    clock.advance(1000);
    const updated = (
      await svc.http
        .put(`/mind/scripts/${created.id}`)
        .set(auth)
        .send({ content: 'print(2)', language: null, description: 'v2' })
        .expect(200)
    ).body;
    assert.equal(updated.content, 'print(2)');
    assert.equal(updated.language, null);
    assert.equal(updated.description, 'v2');
    assert.equal(updated.name, 'fetch-arxiv');
    assert.equal(updated.created_at, created.created_at);
    assert.ok(updated.updated_at > created.updated_at);

    await svc.http.delete(`/mind/scripts/${created.id}`).set(auth).expect(204, '');
    await svc.http.get(`/mind/scripts/${created.id}`).set(auth).expect(404);
  });

  test('names are unique in a mind (409 on create and rename), not across minds', async () => {
    const { auth } = await svc.mind();
    await svc.http.post('/mind/scripts').set(auth).send({ name: 'dup', content: '1' }).expect(201);
    const res = await svc.http.post('/mind/scripts').set(auth).send({ name: 'dup', content: '2' }).expect(409);
    assert.match(res.body.message, /body\.name/);
    const other = (await svc.http.post('/mind/scripts').set(auth).send({ name: 'other', content: '3' }).expect(201)).body;
    await svc.http.put(`/mind/scripts/${other.id}`).set(auth).send({ name: 'dup' }).expect(409);
    assert.equal((await svc.http.get(`/mind/scripts/${other.id}`).set(auth).expect(200)).body.name, 'other');
    await svc.http.put(`/mind/scripts/${other.id}`).set(auth).send({ name: 'other', content: 'same name is fine' }).expect(200);
    const second = await svc.mind();
    await svc.http.post('/mind/scripts').set(second.auth).send({ name: 'dup', content: '1' }).expect(201);
  });

  test("a script write moves the mind's last_activity (scripts have no event)", async () => {
    const { auth, jwt, mindId } = await svc.mind();
    clock.advance(60_000);
    const s = (await svc.http.post('/mind/scripts').set(auth).send({ name: 'x', content: '' }).expect(201)).body;
    const minds = (await svc.http.get('/minds').set(bearer(jwt)).expect(200)).body.minds;
    const last = minds.find((m: { id: string }) => m.id === mindId).last_activity;
    assert.ok(last >= s.created_at && Date.parse(last) - Date.parse(s.created_at) < 1000, last);
    assert.equal((await svc.ctx.db('events').where({ mind_id: mindId })).length, 0);
  });
});
