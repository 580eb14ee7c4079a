import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, test } from 'node:test';
import { useService } from './harness.js';
import { explodingChat } from './transfer/failure.js';

type Item = Record<string, unknown> & { id: string };
type Doc = Record<string, unknown> & { memories: Item[]; tasks: Item[]; chat: Item[]; scripts: Item[]; webhooks: unknown[] };
const KINDS = ['memories', 'tasks', 'chat', 'scripts'] as const;

describe('transfer: ids and all-or-nothing', () => {
  const svc = useService();

  async function mind() {
    const m = await svc.mind();
    const post = async (path: string, body: object) => (await svc.http.post(path).set(m.auth).send(body)).body as Item;
    const exportDoc = async () => (await svc.http.get('/memory/mind-export').set(m.auth).expect(200)).body as Doc;
    const importDoc = (doc: object, query: Record<string, string> = {}) =>
      svc.http.post('/memory/mind-import').set(m.auth).query(query).send(doc);
    return { ...m, post, exportDoc, importDoc };
  }

  async function mindWithOneOfEach() {
    const m = await mind();
    await m.post('/memory', { category: 'fact', key: 'city', content: 'Lives in Berlin' });
    await m.post('/memory', { category: 'note', content: 'no key' });
    await m.post('/mind/task', { title: 'Write the report' });
    await m.post('/mind/chat', { role: 'human', content: 'Hello' });
    await m.post('/mind/scripts', { name: 'fetch', content: 'print(1)' });
    return m;
  }

  test("the ids an import gives new rows do not depend on other minds' ids: an id taken elsewhere and a free one are treated alike", async () => {
    const other = await mindWithOneOfEach();
    const taken = await other.exportDoc();
    // The same items twice: once with ids another mind holds, once with ids nobody holds.
    const doc: Doc = { ...taken, webhooks: [] };
    for (const kind of KINDS) {
      const twins = taken[kind].map((item) => ({ ...item, id: randomUUID() }) as Item);
      for (const twin of twins) {
        if (kind === 'memories' && twin.key !== null) twin.key = `${twin.key}-twin`;
        if (kind === 'scripts') twin.name = `${twin.name}-twin`;
      }
      doc[kind] = [...taken[kind], ...twins];
    }
    const target = await mind();
    const first = await target.importDoc(doc).expect(200);
    assert.deepEqual(first.body.created, { memories: 4, tasks: 2, chat: 2, scripts: 2, webhooks: 0 });
    const imported = await target.exportDoc();
    for (const kind of KINDS) {
      const sourceIds = new Set(doc[kind].map((item) => item.id));
      const kept = imported[kind].filter((item) => sourceIds.has(item.id));
      assert.deepEqual(kept, [], `${kind}: no new row keeps its source id, whether another mind holds it or not`);
    }
    // The ids are the mind's own and stable: the same document again finds every row.
    const again = await target.importDoc(doc).expect(200);
    assert.deepEqual(again.body.skipped, { memories: 4, tasks: 2, chat: 2, scripts: 2, webhooks: 0 });
    // And the mind's own export matches its rows by their ids.
    const own = await target.importDoc(imported).expect(200);
    assert.deepEqual(own.body.created, { memories: 0, tasks: 0, chat: 0, scripts: 0, webhooks: 0 });
  });

  test('an import that fails midway through its writes leaves the mind as it was (merge and replace)', async () => {
    const m = await mindWithOneOfEach();
    const before = await m.exportDoc();
    const at = '2026-11-01T00:00:00.000Z';
    const doc: Doc = {
      ...before,
      memories: [
        { ...before.memories.find((x) => x.key === 'city')!, content: 'Lives in Hamburg' },
        ...Array.from({ length: 1200 }, (_, i) => ({ ...before.memories[0]!, id: randomUUID(), key: `k${i}`, content: `new ${i}` })),
      ],
      tasks: [
        { ...before.tasks[0]!, title: 'Changed' },
        ...Array.from({ length: 600 }, (_, i) => ({ ...before.tasks[0]!, id: randomUUID(), title: `t${i}` })),
      ],
      chat: [
        ...Array.from({ length: 600 }, (_, i) => ({
          id: randomUUID(),
          role: 'agent',
          content: `c${i}`,
          thread: 'default',
          created_at: at,
        })),
        { id: randomUUID(), role: 'agent', content: 'explode', thread: 'default', created_at: at },
      ],
      scripts: [{ ...before.scripts[0]!, content: 'print(2)' }],
    };
    const restore = await explodingChat(svc);
    try {
      for (const mode of ['merge', 'replace']) {
        const res = await m.importDoc(doc, { mode });
        assert.ok(res.status >= 400, `${mode}: ${res.status}`);
        assert.deepEqual({ ...(await m.exportDoc()), exported_at: null }, { ...before, exported_at: null }, `${mode}: the mind as it was`);
      }
    } finally {
      await restore();
    }
    const hits = await svc.http.get('/memory/recall').set(m.auth).query({ q: 'berlin' }).expect(200);
    assert.equal(hits.body.memories.length, 1, 'recall finds what was put back');
    const res = await m.importDoc(doc).expect(200);
    assert.equal(res.body.created.memories, 1200);
  });
});
