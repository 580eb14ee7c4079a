// `mind-service reindex` as a user runs it, its own process with its output piped (issue 30, point 8):
// the outcome counts what is embedded, whoever embedded it, says "memory" for one, and every line
// ends with a line feed (no carriage-return progress in a pipe).
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { claimPendingEmbeddings, completeEmbeddings, releaseEmbeddings } from '../src/meaning/store.js';
import { runCli } from './cli-process.js';
import { type FakeEmbeddings, startFakeEmbeddings, topicVector } from './embeddings/fake-openai.js';
import { startService, type TestService } from './harness.js';
import { eventually } from './webhooks/receiver.js';

describe('mind-service reindex: what it prints', () => {
  let fake: FakeEmbeddings;
  let svc: TestService;
  before(async () => {
    fake = await startFakeEmbeddings();
    // The service embeds nothing itself: this test plays the other process that shares the queue.
    svc = await startService({ MIND_EMBEDDINGS: 'off' });
  });
  after(async () => {
    await svc.stop();
    await fake.close();
  });

  const reindex = (mindId: string) => {
    const run = runCli(svc, ['reindex', mindId], {
      MIND_EMBEDDINGS: 'openai',
      MIND_EMBEDDINGS_MODEL: 'topics',
      MIND_EMBEDDINGS_URL: fake.url,
    });
    return { exit: run.exit, output: () => ({ stdout: run.stdout(), stderr: run.stderr() }) };
  };

  const mindWith = async (count: number) => {
    const m = await svc.mind();
    const now = new Date().toISOString();
    const memories = Array.from({ length: count }, (_, i) => ({
      id: randomUUID(),
      category: 'note',
      content: `memory ${i} about the car at the garage`,
      tags: [],
      created_at: now,
      updated_at: now,
    }));
    const doc = { format: 'mind-export/1', exported_at: now, memories, tasks: [], chat: [], scripts: [], webhooks: [] };
    await svc.http.post('/memory/mind-import').set(m.auth).send(doc).expect(200);
    return m;
  };

  const assertWholeLines = (text: string) => {
    assert.doesNotMatch(text, /\r/, 'no carriage return in a pipe');
    assert.ok(text === '' || text.endsWith('\n'), `ends with a line feed: ${JSON.stringify(text)}`);
  };

  test('one memory: "1 memory", the outcome on stdout ending with a line feed', async () => {
    fake.delayMs = 0;
    const m = await mindWith(1);
    const run = reindex(m.mindId);
    assert.equal(await run.exit, 0, run.output().stderr);
    const { stdout, stderr } = run.output();
    assert.match(stdout, /^reindex: 1 of 1 memory embedded with topics in \d+\.\d s\n$/);
    assert.equal(stderr, 'reindex: 1 memory queued for topics\n');
  });

  test('a mind without memories: nothing to embed', async () => {
    const m = await svc.mind();
    const run = reindex(m.mindId);
    assert.equal(await run.exit, 0, run.output().stderr);
    assert.deepEqual(run.output(), { stdout: 'reindex: nothing to embed (the mind has no memories to embed)\n', stderr: '' });
  });

  test('memories another process embeds meanwhile, or still holds, are counted as such', async () => {
    const m = await mindWith(300);
    fake.delayMs = 500; // reindex's first batch (256, in a few requests) waits at the embedder while the other process works
    const requestsBefore = fake.requests;
    const run = reindex(m.mindId);
    await eventually(() => fake.requests > requestsBefore, 30_000, "reindex's first batch at the embedder");

    // The other process: embeds 20 of the 44 left and holds 24 past the reindex's end.
    const lease = (ms: number) => ({ now: new Date().toISOString(), leaseUntil: new Date(Date.now() + ms).toISOString() });
    const done = await claimPendingEmbeddings(svc.ctx.db, svc.ctx.dialect, { ...lease(60_000), limit: 20 });
    const held = await claimPendingEmbeddings(svc.ctx.db, svc.ctx.dialect, { ...lease(60_000), limit: 100 });
    assert.deepEqual([done.length, held.length], [20, 24]);
    const vectors = done.map((c) => ({ claimed: c, vector: Float32Array.from(topicVector(c.text)) }));
    assert.equal(await completeEmbeddings(svc.ctx.db, svc.ctx.dialect, 'topics', vectors, new Date().toISOString()), 20);

    assert.equal(await run.exit, 0, run.output().stderr);
    await releaseEmbeddings(svc.ctx.db, held);
    const { stdout, stderr } = run.output();
    assert.match(
      stdout,
      /^reindex: 276 of 300 memories embedded with topics in \d+\.\d s \(256 by this command, 20 by another process\); 24 still queued, being embedded by another process\n$/,
    );
    assert.match(stderr, /^reindex: 300 memories queued for topics\n/);
    assertWholeLines(stderr);
  });
});
