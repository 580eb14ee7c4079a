// `mind-service reindex` (its own process) and a running service share the embedding queue: on SQLite
// as on PostgreSQL they split it between them, and never embed the same queued memory twice (issue 28).
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { runCli } from './cli-process.js';
import { type FakeEmbeddings, startFakeEmbeddings } from './embeddings/fake-openai.js';
import { startService, TEST_DATABASE_URL, type TestService } from './harness.js';
import { eventually } from './webhooks/receiver.js';

describe('reindex while the service runs', () => {
  let fake: FakeEmbeddings;
  let svc: TestService;
  const env = () => ({ MIND_EMBEDDINGS: 'openai', MIND_EMBEDDINGS_MODEL: 'topics', MIND_EMBEDDINGS_URL: fake.url });
  const reindex = (mindId: string) => runCli(svc, ['reindex', mindId], env());
  const newMind = async (texts: string[]) => {
    const m = await svc.mind();
    const pending = async () => (await svc.http.get('/memory/stats').set(m.auth).expect(200)).body.pending_embeddings as number;
    const now = new Date().toISOString();
    const memories = texts.map((content) => ({ id: randomUUID(), category: 'note', content, tags: [], created_at: now, updated_at: now }));
    const doc = { format: 'mind-export/1', exported_at: now, memories, tasks: [], chat: [], scripts: [], webhooks: [] };
    await svc.http.post('/memory/mind-import').set(m.auth).send(doc).expect(200);
    await eventually(async () => (await pending()) === 0, 60_000, 'every memory embedded by the service');
    return { ...m, pending };
  };
  before(async () => {
    fake = await startFakeEmbeddings();
    svc = await startService(env());
  });
  after(async () => {
    await svc.stop();
    await fake.close();
  });

  test('the service and `mind-service reindex` never embed the same memory twice', async () => {
    fake.delayMs = 0;
    const texts = Array.from({ length: 1500 }, (_, i) => `memory ${i} about the car service at the garage`);
    const m = await newMind(texts);
    const { pending } = m;
    assert.deepEqual(
      texts.filter((text) => fake.embedded.get(text) !== 1),
      [],
    );

    // Each batch answers slowly, so the reindex runs for seconds: the service's worker (it looks at
    // the queue every second) finds the memories reindex queued and embeds part of them meanwhile.
    fake.delayMs = 100;
    const requestsBefore = fake.requests;
    const run = reindex(m.mindId);
    const code = await run.exit;
    const stderr = run.stderr();
    assert.equal(code, 0, stderr);
    const byReindex = Number(/\((\d+) by this command/.exec(run.stdout())?.[1]);
    await eventually(async () => (await pending()) === 0, 60_000, 'every memory embedded again');
    assert.ok(byReindex > 0 && byReindex < texts.length, `both embedded a part (reindex ${byReindex} of ${texts.length})`);
    assert.ok(fake.requests > requestsBefore);
    const twice = texts.filter((text) => fake.embedded.get(text) !== 2);
    assert.deepEqual(twice.slice(0, 5), [], `${twice.length} memories not embedded exactly once more`);
  });

  test('SQLite: the claims of a reindex killed midway pass to the service at once, not after their lease', {
    skip: TEST_DATABASE_URL ? 'PostgreSQL: instances may run on other machines, so a lease ends their claims' : false,
  }, async () => {
    fake.delayMs = 0;
    const texts = Array.from({ length: 1000 }, (_, i) => `note ${i} on violin practice`);
    const m = await newMind(texts);
    fake.delayMs = 300;
    const run = reindex(m.mindId);
    await eventually(() => run.stderr().includes('memories queued'), 30_000, 'reindex queued');
    await new Promise((r) => setTimeout(r, 500)); // a batch claimed and under way
    run.child.kill('SIGKILL');
    await run.exit;
    fake.delayMs = 0;
    // The lease of a reindex batch is 8 x MIND_EMBEDDINGS_TIMEOUT (30 s): 4 minutes.
    await eventually(async () => (await m.pending()) === 0, 20_000, 'the killed reindex claims embedded by the service');
  });
});
