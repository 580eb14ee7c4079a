// client.minds.keys against a live service: make, list, revoke; the typed errors of a revoked,
// an expired and a read-only key.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  ForbiddenError,
  KeyReadOnlyError,
  MindClient,
  MindKeyExpiredError,
  MindKeyRevokedError,
  NotFoundError,
  UnauthorizedError,
} from '../src/index.js';
import { type LiveServer, startLiveServer } from './live-server.js';

describe('client.minds.keys', () => {
  let live: LiveServer;
  before(async () => {
    live = await startLiveServer();
  });
  after(() => live.stop());

  it('rotation: create a key, move the agent, revoke the old one (MindKeyRevokedError)', async () => {
    const { jwt, mindKey, mindId } = await live.account();
    const owner = live.client.withOptions({ jwt });
    const made = await owner.minds.keys.create(mindId, { label: 'agent v2' });
    assert.equal(made.scope, 'full');
    assert.equal(made.prefix, made.mind_key.slice(0, 8));
    const keys = await owner.minds.keys.list(mindId);
    assert.deepEqual(
      keys.data.map((k) => [k.label, k.scope, k.source]),
      [
        ['original', 'full', 'api'],
        ['agent v2', 'full', 'api'],
      ],
    );
    const agent = live.client.withOptions({ mindKey: made.mind_key });
    await agent.tasks.create({ title: 'moved' });
    assert.equal(await owner.minds.keys.revoke(mindId, keys.data[0]!.id), undefined, 'a 204: nothing to answer');

    const old = live.client.withOptions({ mindKey });
    const err = await old.tasks.list().then(
      () => assert.fail('the revoked key was taken'),
      (e: unknown) => e,
    );
    assert.ok(err instanceof MindKeyRevokedError && err instanceof UnauthorizedError, String(err));
    assert.equal(err.code, 'mind_key_revoked');
    assert.equal((await agent.tasks.list()).data.length, 1);
    await assert.rejects(owner.minds.keys.revoke(mindId, keys.data[0]!.id), NotFoundError);
  });

  it('a read key: reads work, a write is a KeyReadOnlyError; an expired key is a MindKeyExpiredError', async () => {
    const { jwt, mindId } = await live.account();
    const owner = live.client.withOptions({ jwt });
    const reader = await owner.minds.keys.create(mindId, { label: 'reader', scope: 'read' });
    const readOnly = live.client.withOptions({ mindKey: reader.mind_key });
    assert.deepEqual((await readOnly.tasks.list()).data, []);
    const refused = await readOnly.tasks.create({ title: 'no' }).then(
      () => assert.fail('a read key wrote'),
      (e: unknown) => e,
    );
    assert.ok(refused instanceof KeyReadOnlyError && refused instanceof ForbiddenError, String(refused));
    assert.equal(refused.code, 'key_read_only');

    const soon = new Date(Date.now() + 1500).toISOString();
    const short = await owner.minds.keys.create(mindId, { label: 'short', expires_at: soon });
    const brief = live.client.withOptions({ mindKey: short.mind_key });
    await brief.tasks.list();
    await new Promise((r) => setTimeout(r, Date.parse(soon) - Date.now() + 50));
    await assert.rejects(brief.tasks.list(), (e: unknown) => e instanceof MindKeyExpiredError && e.code === 'mind_key_expired');
  });

  it('another account cannot see or change the keys (NotFoundError)', async () => {
    const { mindId } = await live.account();
    const stranger = await live.account();
    const other = new MindClient({ baseUrl: live.baseUrl, jwt: stranger.jwt });
    await assert.rejects(other.minds.keys.list(mindId), NotFoundError);
    await assert.rejects(other.minds.keys.create(mindId, { label: 'x' }), NotFoundError);
  });
});
