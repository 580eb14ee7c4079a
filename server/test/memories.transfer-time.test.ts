// A mind export carries each memory's expiry, validity and supersede link; the link names the
// replacing memory's id in the document and becomes that memory's new id on import. Expired
// memories are not exported, and an export made before these fields existed imports as it did.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, test } from 'node:test';
import { TestClock, useService } from './harness.js';
import { explodingChat } from './transfer/failure.js';

type Item = Record<string, unknown> & { id: string; content: string };
type Doc = Record<string, unknown> & { memories: Item[] };

const HOUR = 3_600_000;
const TIME_FIELDS = ['expires_at', 'valid_from', 'valid_to', 'superseded_by'] as const;

describe('memories over time: mind export and import', () => {
  const clock = new TestClock();
  const svc = useService({}, { clock });

  async function mind() {
    const m = await svc.mind();
    const store = async (body: Record<string, unknown>) => {
      clock.advance(1000);
      return (await svc.http.post('/memory').set(m.auth).send(body).expect(201)).body as Item;
    };
    const exportDoc = async () => (await svc.http.get('/memory/mind-export').set(m.auth).expect(200)).body as Doc;
    const importDoc = (doc: unknown, query: Record<string, string> = {}) =>
      svc.http
        .post('/memory/mind-import')
        .set(m.auth)
        .query(query)
        .send(doc as object);
    const byContent = async () => new Map((await exportDoc()).memories.map((item) => [item.content, item]));
    return { ...m, store, exportDoc, importDoc, byContent };
  }

  const inHours = (hours: number) => new Date(clock.now().getTime() + hours * HOUR).toISOString();

  /** A mind whose memories use every time field: a supersede link, an expiry to come, a past validity and an expired memory. */
  async function mindOverTime() {
    const m = await mind();
    const old = await m.store({ category: 'fact', content: 'Lives in Berlin', valid_from: '2020-01-01T00:00:00.000Z' });
    const moved = await m.store({ category: 'fact', content: 'Lives in Lisbon', supersedes: old.id });
    const expiring = await m.store({ category: 'context', content: 'On holiday this week', expires_at: inHours(24) });
    const past = await m.store({
      category: 'project',
      content: 'Wrote the 2024 report',
      valid_from: '2024-01-01T00:00:00.000Z',
      valid_to: '2024-12-31T00:00:00.000Z',
    });
    await m.store({ category: 'note', content: 'Call back within the hour', expires_at: inHours(1) });
    clock.advance(2 * HOUR);
    return { m, old, moved, expiring, past };
  }

  test('an export carries the time fields and the supersede link, and leaves expired memories out', async () => {
    const { m, old, moved, expiring, past } = await mindOverTime();
    const doc = await m.exportDoc();
    assert.deepEqual(doc.memories.map((item) => item.content).sort(), [
      'Lives in Berlin',
      'Lives in Lisbon',
      'On holiday this week',
      'Wrote the 2024 report',
    ]);
    for (const item of doc.memories) for (const field of TIME_FIELDS) assert.ok(field in item, `${item.content}: ${field}`);
    const exported = new Map(doc.memories.map((item) => [item.id, item]));
    assert.equal(exported.get(old.id)?.superseded_by, moved.id);
    assert.ok(typeof exported.get(old.id)?.valid_to === 'string', 'the superseded memory held until the new one came');
    assert.equal(exported.get(moved.id)?.superseded_by, null);
    assert.equal(exported.get(expiring.id)?.expires_at, expiring.expires_at);
    assert.deepEqual(
      [exported.get(past.id)?.valid_from, exported.get(past.id)?.valid_to],
      ['2024-01-01T00:00:00.000Z', '2024-12-31T00:00:00.000Z'],
    );
  });

  test('an import into another mind keeps the fields and links the new ids; importing again changes nothing', async () => {
    const { m } = await mindOverTime();
    const doc = await m.exportDoc();
    const target = await mind();
    const report = (await target.importDoc(doc).expect(200)).body;
    assert.equal(report.created.memories, 4);
    const imported = await target.byContent();
    const berlin = imported.get('Lives in Berlin')!;
    const lisbon = imported.get('Lives in Lisbon')!;
    assert.notEqual(lisbon.id, doc.memories.find((item) => item.content === 'Lives in Lisbon')?.id, 'a new id in the new mind');
    assert.equal(berlin.superseded_by, lisbon.id, "the link names the replacing memory's new id");
    const source = new Map(doc.memories.map((item) => [item.content, item]));
    for (const [content, item] of imported) {
      for (const field of ['expires_at', 'valid_from', 'valid_to'] as const) {
        assert.equal(item[field], source.get(content)?.[field], `${content}: ${field}`);
      }
    }
    // Recall answers what holds now: the replacement, not the memory it replaced nor the past one.
    const recalled = (await svc.http.get('/memory/recall').set(target.auth).expect(200)).body.memories as Item[];
    assert.deepEqual(recalled.map((hit) => hit.content).sort(), ['Lives in Lisbon', 'On holiday this week']);

    const again = (await target.importDoc(doc).expect(200)).body;
    assert.deepEqual([again.created.memories, again.updated.memories, again.skipped.memories], [0, 0, 4]);
  });

  test('a backup restored into its own mind with replace keeps its ids and links', async () => {
    const { m, old, moved } = await mindOverTime();
    const doc = await m.exportDoc();
    await m.importDoc(doc, { mode: 'replace' }).expect(200);
    const restored = new Map((await m.exportDoc()).memories.map((item) => [item.id, item]));
    assert.equal(restored.size, 4);
    assert.equal(restored.get(old.id)?.superseded_by, moved.id);
  });

  test('merge sets the fields on a memory it matches by key, and a link to a memory outside the document is dropped', async () => {
    const target = await mind();
    const mine = await target.store({ category: 'preference', key: 'editor', content: 'Uses vim' });
    const doc = {
      format: 'mind-export/1',
      exported_at: '2026-11-20T00:00:00.000Z',
      memories: [
        memoryItem({ key: 'editor', category: 'preference', content: 'Uses helix', valid_from: '2026-01-01T00:00:00.000Z' }),
        memoryItem({ content: 'Replaced by something not exported', superseded_by: randomUUID(), valid_to: '2026-02-01T00:00:00.000Z' }),
      ],
      tasks: [],
      chat: [],
      scripts: [],
      webhooks: [],
    };
    const report = (await target.importDoc(doc).expect(200)).body;
    assert.deepEqual([report.created.memories, report.updated.memories], [1, 1]);
    const memories = await target.byContent();
    assert.equal(memories.get('Uses helix')?.id, mine.id);
    assert.equal(memories.get('Uses helix')?.valid_from, '2026-01-01T00:00:00.000Z');
    assert.equal(memories.get('Replaced by something not exported')?.superseded_by, null);
  });

  test('an export made before the time fields imports as before: nulls on new memories, an updated memory keeps its own', async () => {
    const target = await mind();
    const mine = await target.store({ category: 'fact', key: 'city', content: 'Lives in Berlin', valid_from: '2020-01-01T00:00:00.000Z' });
    const older = {
      format: 'mind-export/1',
      exported_at: '2026-11-20T00:00:00.000Z',
      mind: { id: randomUUID(), name: 'old', description: null },
      memories: [memoryItem({ key: 'city', category: 'fact', content: 'Lives in Paris' }), memoryItem({ content: 'A plain note' })].map(
        ({ expires_at: _e, valid_from: _f, valid_to: _t, superseded_by: _s, ...rest }) => rest,
      ),
      tasks: [],
      chat: [],
      scripts: [],
      webhooks: [],
    };
    const report = (await target.importDoc(older).expect(200)).body;
    assert.deepEqual([report.created.memories, report.updated.memories, report.skipped.memories], [1, 1, 0]);
    const memories = await target.byContent();
    const city = memories.get('Lives in Paris');
    assert.equal(city?.id, mine.id);
    assert.equal(city?.valid_from, '2020-01-01T00:00:00.000Z', 'the fields the document does not carry stay as they were');
    for (const field of TIME_FIELDS) assert.equal(memories.get('A plain note')?.[field], null, field);
  });

  test('a replace that fails midway puts every memory back with its supersede link', async () => {
    const target = await mind();
    // The replaced memory comes after a piece of others in the mind's order: it is put back before the memory it names.
    const newest = memoryItem({ content: 'Newest fact', created_at: '2026-01-01T00:00:00.000Z' });
    const fillers = Array.from({ length: 600 }, (_, i) => memoryItem({ content: `filler ${i}`, created_at: '2026-02-01T00:00:00.000Z' }));
    const replaced = memoryItem({
      content: 'Older fact',
      created_at: '2026-03-01T00:00:00.000Z',
      valid_to: '2026-03-02T00:00:00.000Z',
      superseded_by: newest.id,
    });
    const doc = (memories: Item[], chat: unknown[] = []) => ({
      format: 'mind-export/1',
      exported_at: clock.now().toISOString(),
      memories,
      tasks: [],
      chat,
      scripts: [],
      webhooks: [],
    });
    // In the document the link points forward, to a memory of a later piece of the import's writes.
    await target.importDoc(doc([replaced, ...fillers, newest])).expect(200);
    const before = await target.exportDoc();
    const link = before.memories.find((item) => item.content === 'Older fact')?.superseded_by;
    assert.equal(link, before.memories.find((item) => item.content === 'Newest fact')?.id);

    const chat = [{ id: randomUUID(), role: 'agent', content: 'explode', thread: 'default', created_at: '2026-11-01T00:00:00.000Z' }];
    const restore = await explodingChat(svc);
    try {
      const res = await target.importDoc(doc([memoryItem({ content: 'Instead' })], chat), { mode: 'replace' });
      assert.ok(res.status >= 400, String(res.status));
    } finally {
      await restore();
    }
    assert.deepEqual({ ...(await target.exportDoc()), exported_at: null }, { ...before, exported_at: null }, 'the mind as it was');
  });

  test('an item already expired is skipped; bad times are a 400 naming the item, and nothing is imported', async () => {
    const target = await mind();
    const doc = (memories: Item[]) => ({
      format: 'mind-export/1',
      exported_at: clock.now().toISOString(),
      memories,
      tasks: [],
      chat: [],
      scripts: [],
      webhooks: [],
    });
    const expired = (await target.importDoc(doc([memoryItem({ content: 'Gone already', expires_at: inHours(-1) })])).expect(200)).body;
    assert.deepEqual([expired.created.memories, expired.skipped.memories], [0, 1]);

    const cases: Array<[Partial<Item>, string]> = [
      [{ valid_from: '2026-03-01T00:00:00.000Z', valid_to: '2026-02-01T00:00:00.000Z' }, 'body.memories.1.valid_to'],
      [{ expires_at: 'next tuesday' }, 'body.memories.1.expires_at'],
      [{ superseded_by: 'not-an-id' }, 'body.memories.1.superseded_by'],
    ];
    for (const [fields, path] of cases) {
      const res = await target.importDoc(doc([memoryItem({ content: 'Fine' }), memoryItem({ content: 'Bad', ...fields })])).expect(400);
      assert.match(JSON.stringify(res.body), new RegExp(path.replaceAll('.', '\\.')), JSON.stringify(res.body));
      assert.equal(typeof res.body.message, 'string');
    }
    assert.equal((await target.exportDoc()).memories.length, 0, 'nothing was imported');
  });
});

/** A memory of a mind-export/1 document, with every time field unset unless given. */
function memoryItem(fields: Partial<Item>): Item {
  return {
    id: randomUUID(),
    category: 'note',
    key: null,
    content: 'note',
    tags: [],
    verified: false,
    verified_at: null,
    source: null,
    created_at: '2026-11-01T00:00:00.000Z',
    updated_at: '2026-11-01T00:00:00.000Z',
    expires_at: null,
    valid_from: null,
    valid_to: null,
    superseded_by: null,
    ...fields,
  };
}
