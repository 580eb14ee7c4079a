// Memories, chat and scripts through the SDK against a live service.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { BadRequestError, ConflictError, ForbiddenError, NotFoundError } from '../src/index.js';
import { startLiveServer, type LiveServer } from './live-server.js';

describe('memories, chat, scripts', () => {
  let live: LiveServer;
  before(async () => {
    live = await startLiveServer();
  });
  after(() => live.stop());

  it('store, get, update, recall, stats, delete', async () => {
    const { client } = await live.account();
    const memory = await client.memories.store({
      category: 'preference',
      key: 'style',
      content: 'Prefers short sentences',
      tags: ['writing'],
    });
    assert.equal(memory.category, 'preference');
    assert.equal((await client.memories.get(memory.id)).content, 'Prefers short sentences');
    // The same key in the same category updates the memory.
    const again = await client.memories.store({ category: 'preference', key: 'style', content: 'Prefers British spelling' });
    assert.equal(again.id, memory.id);
    const updated = await client.memories.update(memory.id, { tags: ['writing', 'spelling'] });
    assert.deepEqual(updated.tags, ['writing', 'spelling']);

    const hits = await client.memories.recall({ q: 'British', tags: ['spelling'] });
    assert.deepEqual(
      hits.data.map((m) => m.id),
      [memory.id],
    );
    assert.equal(typeof hits.data[0]?.score, 'number');
    assert.equal(hits.hasNextPage(), false);

    const stats = await client.memories.stats();
    assert.equal(stats.total, 1);
    assert.equal(stats.by_category.preference, 1);

    assert.equal(await client.memories.delete(memory.id), undefined, 'a 204: nothing to answer');
    await assert.rejects(client.memories.get(memory.id), NotFoundError);
  });

  it('a category outside the list is BadRequestError listing the allowed ones', async () => {
    const { client } = await live.account();
    const err = await client.memories.store({ category: 'gossip' as 'fact', content: 'x' }).catch((e: unknown) => e);
    assert.ok(err instanceof BadRequestError);
    assert.match(err.message, /identity, preference, fact, project, skill, mistake, context, note, credentials/);
  });

  it('recall() walks every hit of every page with the cursor', async () => {
    const { client } = await live.account();
    const ids = [];
    for (let i = 0; i < 5; i++) ids.push((await client.memories.store({ category: 'fact', content: `fact number ${i}` })).id);
    const seen = [];
    for await (const hit of client.memories.recall({ limit: 2 })) seen.push(hit.id);
    assert.deepEqual([...seen].sort(), [...ids].sort());
  });

  it("verify needs the owner's JWT: the client prefers it; a Mind Key alone is ForbiddenError", async () => {
    const { client, mindKey } = await live.account();
    const memory = await client.memories.store({ category: 'fact', content: 'The sky is blue' });
    const keyOnly = live.client.withOptions({ mindKey });
    await assert.rejects(keyOnly.memories.verify(memory.id), ForbiddenError);
    const verified = await client.memories.verify(memory.id);
    assert.equal(verified.verified, true);
    assert.equal((await client.memories.unverify(memory.id)).verified, false);
  });

  it('export then import into a fresh mind (dry run first)', async () => {
    const source = await live.account();
    await source.client.memories.store({ category: 'skill', content: 'Knows SQL' });
    await source.client.tasks.create({ title: 'carry over' });
    const document = await source.client.memories.export();
    assert.equal(document.format, 'mind-export/1');
    assert.equal(document.memories.length, 1);

    const target = await live.account();
    const dry = await target.client.memories.import(document, { dry_run: true });
    assert.equal(dry.dry_run, true);
    assert.equal(dry.created.memories, 1);
    assert.equal((await target.client.memories.stats()).total, 0);
    const real = await target.client.memories.import(document);
    assert.equal(real.created.tasks, 1);
    assert.equal((await target.client.memories.stats()).total, 1);
  });

  it('chat: send and list a thread', async () => {
    const { client } = await live.account();
    await client.chat.send({ role: 'human', content: 'Hello?', thread: 'ops' });
    const reply = await client.chat.send({ role: 'agent', content: 'Hi.', thread: 'ops' });
    assert.equal(reply.thread, 'ops');
    const messages = await client.chat.list({ thread: 'ops' });
    assert.deepEqual(
      messages.data.map((m) => m.content),
      ['Hello?', 'Hi.'],
    );
  });

  it('chat: search pages like recall; for await walks every hit', async () => {
    const { client } = await live.account();
    for (let i = 0; i < 5; i++) await client.chat.send({ role: 'human', content: `standup note ${i}`, thread: i % 2 ? 'a' : 'b' });
    const first = await client.chat.search({ q: 'standup', limit: 2 });
    assert.equal(first.data.length, 2);
    assert.equal(first.data[0]?.match, 'keyword');
    const seen: string[] = [];
    for await (const hit of client.chat.search({ q: 'standup', limit: 2 })) seen.push(hit.id);
    assert.equal(new Set(seen).size, 5);
    assert.equal((await client.chat.search({ q: 'standup', thread: 'a' })).data.length, 2);
  });

  it('scripts: create, list, get, update, delete; a duplicate name is ConflictError', async () => {
    const { client } = await live.account();
    const script = await client.scripts.create({ name: 'fetch-arxiv', language: 'python', content: 'print(1)' });
    await assert.rejects(client.scripts.create({ name: 'fetch-arxiv', content: '' }), ConflictError);
    assert.deepEqual(
      (await client.scripts.list()).data.map((s) => s.id),
      [script.id],
    );
    const updated = await client.scripts.update(script.id, { content: 'print(2)' });
    assert.equal(updated.content, 'print(2)');
    assert.equal((await client.scripts.get(script.id)).content, 'print(2)');
    assert.equal(await client.scripts.delete(script.id), undefined, 'a 204: nothing to answer');
    assert.deepEqual((await client.scripts.list()).data, []);
  });
});
