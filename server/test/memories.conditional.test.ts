// Conditional memory writes (ETag, If-Match, If-None-Match) and listing by key prefix: what lets two
// editors of one memory never lose an edit, and a folder of path-like keys be listed.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { useService } from './harness.js';

describe('conditional memory writes and key prefixes', () => {
  const svc = useService();

  async function mind() {
    const m = await svc.mind();
    const store = (body: object, headers: Record<string, string> = {}) => svc.http.post('/memory').set(m.auth).set(headers).send(body);
    const get = (id: string) => svc.http.get(`/memory/${id}`).set(m.auth);
    const put = (id: string, body: object, headers: Record<string, string> = {}) =>
      svc.http.put(`/memory/${id}`).set(m.auth).set(headers).send(body);
    const recall = (query: Record<string, string>) => svc.http.get('/memory/recall').set(m.auth).query(query);
    return { ...m, store, get, put, recall };
  }

  test('GET, POST and PUT answer an ETag; PUT with the current one writes, with an old one is 412 and writes nothing', async () => {
    const { store, get, put } = await mind();
    const created = await store({ category: 'note', key: 'a', content: 'one' }).expect(201);
    const etag = created.headers.etag as string;
    assert.match(etag, /^"[0-9a-f]{32}"$/);
    assert.equal((await get(created.body.id).expect(200)).headers.etag, etag);
    const updated = await put(created.body.id, { content: 'two' }, { 'If-Match': etag }).expect(200);
    assert.notEqual(updated.headers.etag, etag);
    assert.equal(updated.body.content, 'two');
    const refused = await put(created.body.id, { content: 'three' }, { 'If-Match': etag }).expect(412);
    assert.equal(refused.body.code, 'memory_changed');
    assert.match(refused.body.message, /^headers\.if-match: the memory changed since version/);
    assert.equal((await get(created.body.id)).body.content, 'two');
    // Without If-Match a write is unconditional, as before; `*` matches any version.
    await put(created.body.id, { content: 'four' }).expect(200);
    await put(created.body.id, { content: 'five' }, { 'If-Match': '*' }).expect(200);
  });

  test('two edits made at once of one version: one is written, the other refused, never both silently', async () => {
    const { store, get, put } = await mind();
    const created = await store({ category: 'note', key: 'race', content: 'base' }).expect(201);
    const etag = created.headers.etag as string;
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) => put(created.body.id, { content: `edit ${i}` }, { 'If-Match': etag })),
    );
    const won = answers.filter((a) => a.status === 200);
    assert.equal(won.length, 1, answers.map((a) => a.status).join(','));
    assert.ok(answers.every((a) => a.status === 200 || a.body.code === 'memory_changed'));
    assert.equal((await get(created.body.id)).body.content, won[0]!.body.content);
  });

  test('editors that read, change and write back with If-Match, retrying on 412, lose no line', async () => {
    const { store, get, put } = await mind();
    const { id } = (await store({ category: 'note', key: 'log', content: 'start' }).expect(201)).body;
    const editor = async (name: string) => {
      for (let i = 0; i < 15; i++) {
        for (;;) {
          const read = await get(id).expect(200);
          const written = await put(id, { content: `${read.body.content}\n${name} ${i}` }, { 'If-Match': read.headers.etag });
          if (written.status === 200) break;
          assert.equal(written.body.code, 'memory_changed');
        }
      }
    };
    await Promise.all(['a', 'b', 'c'].map(editor));
    const lines = (await get(id)).body.content.split('\n');
    assert.equal(lines.length, 46, lines.join(' | '));
  });

  test('If-None-Match: * creates only: an existing key is 412 memory_key_exists and stays as it was', async () => {
    const { store, recall } = await mind();
    await store({ category: 'note', key: 'k', content: 'first' }, { 'If-None-Match': '*' }).expect(201);
    const refused = await store({ category: 'note', key: 'k', content: 'second' }, { 'If-None-Match': '*' }).expect(412);
    assert.equal(refused.body.code, 'memory_key_exists');
    const hits = (await recall({ memory_key: 'k' }).expect(200)).body.memories;
    assert.deepEqual(
      hits.map((m: { content: string }) => m.content),
      ['first'],
    );
    // Concurrent creates of one new key: exactly one is created.
    const racing = await Promise.all(
      Array.from({ length: 6 }, (_, i) => store({ category: 'note', key: 'new', content: `c${i}` }, { 'If-None-Match': '*' })),
    );
    assert.deepEqual(racing.map((r) => r.status).sort(), [201, 412, 412, 412, 412, 412]);
  });

  test('memory_key_prefix lists the keys starting with it exactly, paged', async () => {
    const { store, recall } = await mind();
    const keys = ['/memories/a/1', '/memories/a/2', '/memories/a/b/3', '/memories/ab', '/memories/A/4', 'other/%_'];
    for (const key of keys) await store({ category: 'note', key, content: `text of ${key}` }).expect(201);
    const listed = async (prefix: string) => {
      const found: string[] = [];
      let cursor: string | undefined;
      do {
        const page = (await recall({ memory_key_prefix: prefix, limit: '2', ...(cursor ? { cursor } : {}) }).expect(200)).body;
        found.push(...page.memories.map((m: { key: string }) => m.key));
        cursor = page.next_cursor ?? undefined;
      } while (cursor);
      return found.sort();
    };
    assert.deepEqual(await listed('/memories/a/'), ['/memories/a/1', '/memories/a/2', '/memories/a/b/3']);
    assert.deepEqual(await listed('/memories/a'), ['/memories/a/1', '/memories/a/2', '/memories/a/b/3', '/memories/ab']);
    assert.deepEqual(await listed('other/%'), ['other/%_']);
    assert.deepEqual(await listed('%'), []);
    // With words too, on the keyword path.
    const hits = (await recall({ q: 'text', memory_key_prefix: '/memories/a/b', mode: 'keyword' }).expect(200)).body.memories;
    assert.deepEqual(
      hits.map((m: { key: string }) => m.key),
      ['/memories/a/b/3'],
    );
    assert.equal((await recall({ memory_key_prefix: '' }).expect(400)).body.code, 'validation_failed');
  });
});

describe('deleting chat messages', () => {
  const svc = useService();

  test('DELETE /mind/chat/:id deletes one message of the mind (204), then 404; another mind cannot', async () => {
    const a = await svc.mind();
    const b = await svc.mind();
    const post = (content: string, thread = 's') =>
      svc.http.post('/mind/chat').set(a.auth).send({ role: 'human', content, thread }).expect(201);
    const first = (await post('keep me')).body;
    const second = (await post('drop me')).body;
    await svc.http.delete(`/mind/chat/${second.id}`).set(b.auth).expect(404);
    await svc.http.delete(`/mind/chat/${second.id}`).set(a.auth).expect(204);
    const missing = await svc.http.delete(`/mind/chat/${second.id}`).set(a.auth).expect(404);
    assert.equal(missing.body.code, 'message_not_found');
    const left = (await svc.http.get('/mind/chat').set(a.auth).query({ thread: 's' }).expect(200)).body.messages;
    assert.deepEqual(
      left.map((m: { id: string }) => m.id),
      [first.id],
    );
    // Out of search too.
    const found = (await svc.http.get('/mind/chat/search').set(a.auth).query({ q: 'drop', mode: 'keyword' }).expect(200)).body.messages;
    assert.deepEqual(found, []);
  });

  test('DELETE /mind/chat?thread= empties that thread of the mind only, and says how many', async () => {
    const a = await svc.mind();
    const b = await svc.mind();
    for (const [mind, thread] of [
      [a, 'x'],
      [a, 'x'],
      [a, 'y'],
      [b, 'x'],
    ] as const) {
      await svc.http.post('/mind/chat').set(mind.auth).send({ role: 'agent', content: 'hello', thread }).expect(201);
    }
    assert.deepEqual((await svc.http.delete('/mind/chat').set(a.auth).query({ thread: 'x' }).expect(200)).body, { deleted: 2 });
    assert.deepEqual((await svc.http.delete('/mind/chat').set(a.auth).query({ thread: 'x' }).expect(200)).body, { deleted: 0 });
    const count = async (mind: typeof a, thread: string) =>
      (await svc.http.get('/mind/chat').set(mind.auth).query({ thread }).expect(200)).body.messages.length;
    assert.equal(await count(a, 'y'), 1);
    assert.equal(await count(b, 'x'), 1);
    const noThread = await svc.http.delete('/mind/chat').set(a.auth).expect(400);
    assert.equal(noThread.body.code, 'validation_failed');
  });
});
