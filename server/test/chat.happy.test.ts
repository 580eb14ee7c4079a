import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { bearer, TestClock, useService } from './harness.js';

describe('chat', () => {
  const clock = new TestClock();
  const svc = useService({}, { clock });

  async function mind() {
    const m = await svc.mind();
    const { auth } = m;
    const post = async (body: Record<string, unknown>) => (await svc.http.post('/mind/chat').set(auth).send(body).expect(201)).body;
    const list = async (query: Record<string, string | number> = {}) =>
      (await svc.http.get('/mind/chat').set(auth).query(query).expect(200)).body.messages;
    return { ...m, post, list };
  }

  test('POST /mind/chat stores the message (201); agent messages fire chat.message_sent, human ones chat.message_received', async () => {
    const { post, mindId } = await mind();
    const human = await post({ role: 'human', content: 'Please summarise.', id: 'x', created_at: '2000-01-01T00:00:00Z' });
    assert.deepEqual(Object.keys(human).sort(), ['content', 'created_at', 'id', 'role', 'thread']);
    assert.equal(human.thread, 'default');
    assert.notEqual(human.id, 'x');
    assert.notEqual(human.created_at, '2000-01-01T00:00:00Z');
    const agent = await post({ role: 'agent', content: 'Done.', thread: 'work' });
    const events = await svc.ctx.db('events').where({ mind_id: mindId }).orderBy('created_at').select('type', 'data');
    assert.deepEqual(
      events.map((e) => ({ type: e.type, data: JSON.parse(e.data) })),
      [
        { type: 'chat.message_received', data: human },
        { type: 'chat.message_sent', data: agent },
      ],
    );
  });

  test('GET /mind/chat lists one thread, newest last; limit keeps the newest; before pages back', async () => {
    const { post, list } = await mind();
    const sent = [];
    for (let i = 0; i < 7; i++) sent.push(await post({ role: i % 2 ? 'agent' : 'human', content: `m${i}` })); // same millisecond is fine
    await post({ role: 'agent', content: 'elsewhere', thread: 'other' });
    assert.deepEqual(
      (await list()).map((m: { content: string }) => m.content),
      ['m0', 'm1', 'm2', 'm3', 'm4', 'm5', 'm6'],
    );
    assert.deepEqual(
      (await list({ limit: 3 })).map((m: { content: string }) => m.content),
      ['m4', 'm5', 'm6'],
    );
    assert.deepEqual(
      (await list({ limit: 3, before: sent[4].id })).map((m: { content: string }) => m.content),
      ['m1', 'm2', 'm3'],
    );
    assert.deepEqual(await list({ before: sent[0].id }), []);
    assert.deepEqual(
      (await list({ thread: 'other' })).map((m: { content: string }) => m.content),
      ['elsewhere'],
    );
    assert.deepEqual(await list({ thread: 'nobody' }), []);
  });

  test('messages are ordered by time, then by arrival', async () => {
    const { post, list } = await mind();
    await post({ role: 'human', content: 'first' });
    clock.advance(1000);
    await post({ role: 'agent', content: 'second' });
    await post({ role: 'agent', content: 'third' });
    assert.deepEqual(
      (await list()).map((m: { content: string }) => m.content),
      ['first', 'second', 'third'],
    );
  });

  test("a message moves the mind's last_activity", async () => {
    const { post, jwt, mindId } = await mind();
    clock.advance(60_000);
    const msg = await post({ role: 'human', content: 'hi' });
    const minds = (await svc.http.get('/minds').set(bearer(jwt)).expect(200)).body.minds;
    const last = minds.find((m: { id: string }) => m.id === mindId).last_activity;
    assert.ok(last >= msg.created_at && Date.parse(last) - Date.parse(msg.created_at) < 1000, last);
  });
});
