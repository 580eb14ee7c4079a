// Memories over time through the SDK against a live service: the time fields go in and come back,
// recall's `include_past` and `as_of`, and a memory's history and supersede chain paged like every list.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { BadRequestError } from '../src/index.js';
import { type LiveServer, startLiveServer } from './live-server.js';

describe('memories over time', () => {
  let live: LiveServer;
  before(async () => {
    live = await startLiveServer();
  });
  after(() => live.stop());

  it('store with the time fields, supersede, and recall what holds now, then, or ever', async () => {
    const { client } = await live.account();
    const expiresAt = new Date(Date.now() + 3_600_000).toISOString();
    const note = await client.memories.store({ category: 'note', content: 'Parcel arrives today', expires_at: expiresAt });
    assert.equal(Date.parse(note.expires_at ?? ''), Date.parse(expiresAt));
    assert.deepEqual([note.valid_from, note.valid_to, note.superseded_by], [null, null, null]);

    const berlin = await client.memories.store({ category: 'fact', content: 'Lives in Berlin', valid_from: '2019-01-01T00:00:00Z' });
    const lisbon = await client.memories.store({ category: 'fact', content: 'Lives in Lisbon', supersedes: berlin.id });
    const replaced = await client.memories.get(berlin.id);
    assert.equal(replaced.superseded_by, lisbon.id);
    assert.ok(replaced.valid_to, 'the replaced memory held until now');

    const contents = async (params: Parameters<typeof client.memories.recall>[0]) =>
      (await client.memories.recall(params)).data.map((hit) => hit.content).sort();
    assert.deepEqual(await contents({ category: 'fact' }), ['Lives in Lisbon']);
    assert.deepEqual(await contents({ category: 'fact', include_past: true }), ['Lives in Berlin', 'Lives in Lisbon']);
    assert.deepEqual(await contents({ category: 'fact', include_past: false }), ['Lives in Lisbon']);
    assert.ok((await contents({ category: 'fact', as_of: '2020-01-01T00:00:00Z' })).includes('Lives in Berlin'));

    const updated = await client.memories.update(note.id, { expires_at: null });
    assert.equal(updated.expires_at, null, 'null clears the expiry');
  });

  it('history pages through the versions and chain through the supersede chain', async () => {
    const { client } = await live.account();
    const first = await client.memories.store({ category: 'preference', key: 'tea', content: 'Green tea' });
    // Updates by key and by id both keep a version.
    await client.memories.store({ category: 'preference', key: 'tea', content: 'Black tea' });
    await client.memories.update(first.id, { content: 'Oolong' });
    await client.memories.update(first.id, { content: 'Rooibos' });

    const page = await client.memories.history(first.id, { limit: 2 });
    assert.equal(page.data.length, 2);
    assert.equal(page.hasNextPage(), true);
    const versions: string[] = [];
    for await (const version of client.memories.history(first.id, { limit: 2 })) versions.push(version.content);
    assert.deepEqual(versions, ['Green tea', 'Black tea', 'Oolong', 'Rooibos']);

    const next = await client.memories.store({ category: 'preference', content: 'No caffeine at all', supersedes: first.id });
    const chain: string[] = [];
    for await (const link of client.memories.chain(next.id, { limit: 1 })) chain.push(link.id);
    assert.deepEqual(chain, [first.id, next.id]);

    await assert.rejects(client.memories.history(first.id, { cursor: 'not a cursor' }), BadRequestError);
  });
});
