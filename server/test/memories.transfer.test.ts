import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { bearer, TestClock, useService } from './harness.js';

type Doc = Record<string, unknown> & {
  memories: Array<Record<string, unknown>>;
  tasks: Array<Record<string, unknown>>;
  chat: Array<Record<string, unknown>>;
  scripts: Array<Record<string, unknown>>;
  webhooks: Array<Record<string, unknown>>;
};

/** The content of an export without ids and the moment it was made, in a stable order. */
function content(doc: Doc) {
  const strip = (items: Array<Record<string, unknown>>) =>
    items.map(({ id: _id, ...rest }) => rest).sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
  return {
    format: doc.format,
    memories: strip(doc.memories),
    tasks: strip(doc.tasks),
    chat: strip(doc.chat),
    scripts: strip(doc.scripts),
    webhooks: doc.webhooks,
  };
}

describe('memories: mind export and import', () => {
  const clock = new TestClock();
  const svc = useService({}, { clock });

  async function mind() {
    const m = await svc.mind();
    const { auth } = m;
    const post = async (path: string, body: Record<string, unknown>) => {
      clock.advance(1000);
      return (await svc.http.post(path).set(auth).send(body)).body;
    };
    const exportDoc = async () => (await svc.http.get('/memory/mind-export').set(auth).expect(200)).body as Doc;
    const importDoc = (doc: unknown, query: Record<string, string> = {}) =>
      svc.http
        .post('/memory/mind-import')
        .set(auth)
        .query(query)
        .send(doc as object);
    return { ...m, post, exportDoc, importDoc };
  }

  /** A mind with something of everything. */
  async function fullMind() {
    const m = await mind();
    await m.post('/memory', { category: 'preference', key: 'style', content: 'Short sentences.', tags: ['writing'], source: 'chat' });
    await m.post('/memory', { category: 'note', content: 'no key here' });
    await m.post('/memory', { category: 'fact', key: 'city', content: 'Lives in Berlin' });
    await m.post('/mind/task', { title: 'Write the report', priority: 'high', due_at: '2026-12-01' });
    const done = await m.post('/mind/task', { title: 'Old task' });
    await svc.http.put(`/mind/task/${done.id}`).set(m.auth).send({ status: 'done' }).expect(200);
    await m.post('/mind/chat', { role: 'human', content: 'Hello agent' });
    await m.post('/mind/chat', { role: 'agent', content: 'Hello human' });
    await m.post('/mind/chat', { role: 'agent', content: 'Side thread', thread: 'ops' });
    await m.post('/mind/scripts', { name: 'fetch', language: 'python', content: 'print(1)', description: 'fetches' });
    await m.post('/webhooks', { url: 'https://example.com/hook', events: 'memory.*', secret: 'a-long-secret' });
    return m;
  }

  test('export is one versioned document with memories, tasks, chat, scripts and webhooks without secrets', async () => {
    const m = await fullMind();
    const doc = await m.exportDoc();
    assert.equal(doc.format, 'mind-export/1');
    assert.deepEqual(doc.mind, { id: m.mindId, name: 'test mind', description: null });
    assert.equal(doc.memories.length, 3);
    assert.equal(doc.tasks.length, 2);
    assert.equal(doc.chat.length, 3);
    assert.deepEqual(
      doc.chat.map((c) => c.content),
      ['Hello agent', 'Hello human', 'Side thread'],
    );
    assert.equal(doc.scripts.length, 1);
    assert.deepEqual(doc.webhooks, [{ url: 'https://example.com/hook', events: 'memory.*', enabled: true }]);
    assert.equal(JSON.stringify(doc).includes('a-long-secret'), false);
  });

  test('export, import into a new mind, export again: the same content, ids aside; webhooks are reported skipped', async () => {
    const source = await fullMind();
    const first = await source.exportDoc();
    const target = await mind();
    const report = await target.importDoc(first).expect(200);
    assert.deepEqual(report.body, {
      dry_run: false,
      mode: 'merge',
      created: { memories: 3, tasks: 2, chat: 3, scripts: 1, webhooks: 0 },
      updated: { memories: 0, tasks: 0, chat: 0, scripts: 0, webhooks: 0 },
      deleted: { memories: 0, tasks: 0, chat: 0, scripts: 0, webhooks: 0 },
      skipped: { memories: 0, tasks: 0, chat: 0, scripts: 0, webhooks: 1 },
    });
    const second = await target.exportDoc();
    assert.deepEqual(content({ ...second, webhooks: first.webhooks }), content(first));
    assert.deepEqual(second.webhooks, [], 'webhooks need their secret and are not recreated');
    // The imported memories are found by recall in the new mind.
    const hits = await svc.http.get('/memory/recall').set(target.auth).query({ q: 'berlin' }).expect(200);
    assert.equal(hits.body.memories[0].content, 'Lives in Berlin');
    // Nothing changed in the source.
    assert.deepEqual(await source.exportDoc().then((d) => content(d)), content(first));
  });

  test('importing the same document again changes nothing (every item is matched and skipped)', async () => {
    const source = await fullMind();
    const doc = await source.exportDoc();
    const target = await mind();
    await target.importDoc(doc).expect(200);
    const before = await target.exportDoc();
    const again = await target.importDoc(doc).expect(200);
    assert.deepEqual(again.body.created, { memories: 0, tasks: 0, chat: 0, scripts: 0, webhooks: 0 });
    assert.deepEqual(again.body.updated, { memories: 0, tasks: 0, chat: 0, scripts: 0, webhooks: 0 });
    assert.deepEqual(again.body.skipped, { memories: 3, tasks: 2, chat: 3, scripts: 1, webhooks: 1 });
    assert.deepEqual((await target.exportDoc()).memories, before.memories);
  });

  test('merge updates matching memories (by category and key) and scripts (by name), keeps the rest', async () => {
    const m = await mind();
    const keep = await m.post('/memory', { category: 'note', key: 'keep', content: 'stays' });
    const change = await m.post('/memory', { category: 'fact', key: 'city', content: 'Lives in Berlin' });
    await m.post('/mind/scripts', { name: 'fetch', content: 'old' });
    const doc = await m.exportDoc();
    doc.memories = [
      { ...doc.memories.find((x) => x.key === 'city')!, id: '11111111-1111-4111-8111-111111111111', content: 'Lives in Hamburg' },
      { ...doc.memories.find((x) => x.key === 'keep')! },
      { ...doc.memories[0]!, id: '22222222-2222-4222-8222-222222222222', key: 'new', content: 'brand new' },
    ];
    doc.scripts = [{ ...doc.scripts[0]!, id: '33333333-3333-4333-8333-333333333333', content: 'new' }];
    const res = await m.importDoc(doc).expect(200);
    assert.deepEqual(res.body.created, { memories: 1, tasks: 0, chat: 0, scripts: 0, webhooks: 0 });
    assert.deepEqual(res.body.updated, { memories: 1, tasks: 0, chat: 0, scripts: 1, webhooks: 0 });
    assert.deepEqual(res.body.skipped, { memories: 1, tasks: 0, chat: 0, scripts: 0, webhooks: 0 });
    assert.equal(
      (await svc.http.get(`/memory/${change.id}`).set(m.auth).expect(200)).body.content,
      'Lives in Hamburg',
      'matched by key, kept its id',
    );
    assert.equal((await svc.http.get(`/memory/${keep.id}`).set(m.auth).expect(200)).body.content, 'stays');
    const scripts = (await svc.http.get('/mind/scripts').set(m.auth).expect(200)).body.scripts;
    assert.deepEqual(
      scripts.map((s: { content: string }) => s.content),
      ['new'],
    );
  });

  test('replace empties the mind first; a dry run reports the same and changes nothing', async () => {
    const source = await fullMind();
    const doc = await source.exportDoc();
    const target = await fullMind();
    await target.post('/memory', { category: 'note', content: 'extra' });
    const before = await target.exportDoc();

    const dry = await target.importDoc(doc, { mode: 'replace', dry_run: 'true' }).expect(200);
    assert.equal(dry.body.dry_run, true);
    assert.deepEqual(dry.body.deleted, { memories: 4, tasks: 2, chat: 3, scripts: 1, webhooks: 0 });
    assert.deepEqual(dry.body.created, { memories: 3, tasks: 2, chat: 3, scripts: 1, webhooks: 0 });
    assert.deepEqual({ ...(await target.exportDoc()), exported_at: null }, { ...before, exported_at: null }, 'a dry run changes nothing');

    const real = await target.importDoc(doc, { mode: 'replace' }).expect(200);
    assert.deepEqual({ ...real.body, dry_run: true }, dry.body, 'the dry run reported exactly what happened');
    const after = await target.exportDoc();
    assert.deepEqual(content({ ...after, webhooks: doc.webhooks }), content(doc));
    assert.equal(after.webhooks.length, 1, "replace keeps the mind's own webhooks");
    const stats = await svc.http.get('/memory/stats').set(target.auth).expect(200);
    assert.equal(stats.body.total, 3);
  });

  test('a dry-run merge into an empty mind reports creations and leaves it empty', async () => {
    const source = await fullMind();
    const target = await mind();
    const dry = await target.importDoc(await source.exportDoc(), { dry_run: '1' }).expect(200);
    assert.deepEqual(dry.body.created, { memories: 3, tasks: 2, chat: 3, scripts: 1, webhooks: 0 });
    const doc = await target.exportDoc();
    assert.deepEqual([doc.memories.length, doc.tasks.length, doc.chat.length, doc.scripts.length], [0, 0, 0, 0]);
  });

  test('a backup restored into its own mind with replace keeps the ids', async () => {
    const m = await fullMind();
    const doc = await m.exportDoc();
    await m.importDoc(doc, { mode: 'replace' }).expect(200);
    const after = await m.exportDoc();
    assert.deepEqual(after.memories.map((x) => x.id).sort(), doc.memories.map((x) => x.id).sort());
    assert.deepEqual(after.tasks.map((x) => x.id).sort(), doc.tasks.map((x) => x.id).sort());
  });

  test('credentials travel only in clear: an owner export moves them, a redacted one skips them', async () => {
    const source = await mind();
    await source.post('/memory', { category: 'credentials', key: 'token', content: 's3cr3t-value' });
    const redacted = await source.exportDoc();
    const target = await mind();
    const skipped = await target.importDoc(redacted).expect(200);
    assert.equal(skipped.body.skipped.memories, 1);
    assert.equal((await target.exportDoc()).memories.length, 0);

    const clear = (
      await svc.http
        .get('/memory/mind-export')
        .set(bearer(source.jwt))
        .query({ mind_id: source.mindId, include_credentials: 'true' })
        .expect(200)
    ).body;
    await target.importDoc(clear).expect(200);
    const back = await svc.http.get('/memory/recall').set(target.auth).query({ category: 'credentials' }).expect(200);
    assert.equal(back.body.memories[0].content, 's3cr3t-value');
  });

  test('verification does not travel: imported memories arrive unverified', async () => {
    const source = await mind();
    const m = await source.post('/memory', { category: 'fact', content: 'checked' });
    await svc.http.post(`/memory/${m.id}/verify`).set(bearer(source.jwt)).expect(200);
    const doc = await source.exportDoc();
    assert.equal(doc.memories[0]!.verified, true);
    const target = await mind();
    await target.importDoc(doc).expect(200);
    const imported = (await target.exportDoc()).memories[0]!;
    assert.equal(imported.verified, false);
    assert.equal(imported.verified_at, null);
  });

  test('an invalid document is 400 naming the item and field, and nothing is imported', async () => {
    const source = await fullMind();
    const good = await source.exportDoc();
    const target = await mind();
    const cases: Array<[(d: Doc) => void, RegExp]> = [
      [(d) => (d.format = 'mind-export/2'), /body\.format/],
      [(d) => (d.memories[1]!.category = 'secrets'), /body\.memories\.1\.category: must be one of: identity/],
      [(d) => (d.memories[2]!.content = 'x'.repeat(65537)), /body\.memories\.2\.content/],
      [(d) => (d.memories[0]!.created_at = 'yesterday'), /body\.memories\.0\.created_at/],
      [(d) => (d.memories[0]!.id = 'not-a-uuid'), /body\.memories\.0\.id/],
      [(d) => (d.memories[1]!.id = d.memories[0]!.id), /body\.memories\.1\.id: this id appears twice/],
      [
        (d) => d.memories.push({ ...d.memories[0]!, id: '44444444-4444-4444-8444-444444444444' }),
        /body\.memories\.3\.key: this category and key appears twice/,
      ],
      [(d) => (d.tasks[0]!.title = ''), /body\.tasks\.0\.title/],
      [(d) => (d.tasks[0]!.status = 'open'), /body\.tasks\.0\.status/],
      [(d) => (d.tasks[0]!.due_at = 'soon'), /body\.tasks\.0\.due_at/],
      [(d) => (d.chat[0]!.role = 'system'), /body\.chat\.0\.role/],
      [(d) => (d.scripts[0]!.name = ''), /body\.scripts\.0\.name/],
      [
        (d) => d.scripts.push({ ...d.scripts[0]!, id: '55555555-5555-4555-8555-555555555555' }),
        /body\.scripts\.1\.name: this name appears twice/,
      ],
      [(d) => delete (d as Record<string, unknown>).memories, /body\.memories/],
    ];
    for (const [spoil, message] of cases) {
      const doc = structuredClone(good);
      spoil(doc);
      const res = await target.importDoc(doc);
      assert.equal(res.status, 400, `${message}: ${JSON.stringify(res.body)}`);
      assert.match(res.body.message, message);
    }
    const mode = await target.importDoc(good, { mode: 'overwrite' });
    assert.equal(mode.status, 400);
    assert.match(mode.body.message, /query\.mode/);
    const doc = await target.exportDoc();
    assert.deepEqual([doc.memories.length, doc.tasks.length, doc.chat.length, doc.scripts.length], [0, 0, 0, 0]);
  });

  test('import needs the Mind Key: a JWT is 401', async () => {
    const m = await fullMind();
    const doc = await m.exportDoc();
    await svc.http.post('/memory/mind-import').set(bearer(m.jwt)).send(doc).expect(401);
  });
});
