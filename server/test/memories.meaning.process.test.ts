// Recall by meaning across processes: memories waiting to be embedded survive kill -9, and several
// instances on one PostgreSQL database embed each memory once.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { type FakeEmbeddings, startFakeEmbeddings } from './embeddings/fake-openai.js';
import { freshPostgresSchema, TEST_DATABASE_URL } from './harness.js';
import { callServer, type ServerProcess, startServerProcess } from './server-process.js';
import { eventually } from './webhooks/receiver.js';

const call = callServer;

async function newMind(base: string) {
  const { jwt } = await call(base, 'POST', '/register', null, { email: `meaning-${Date.now()}@example.com`, password: 'secret-pw' });
  return (await call(base, 'POST', '/minds', jwt, { name: 'meaning' })).mind_key as string;
}

const pending = async (base: string, key: string) => (await call(base, 'GET', '/memory/stats', key)).pending_embeddings as number;

describe('recall by meaning: durable and once across instances', () => {
  const dirs: string[] = [];
  const servers: ServerProcess[] = [];
  const fakes: FakeEmbeddings[] = [];
  const cleanups: Array<() => Promise<void>> = [];
  const env = async (fake: FakeEmbeddings, databaseUrl?: string, timeout = '500ms') => {
    const dir = mkdtempSync(join(tmpdir(), 'mind-meaning-'));
    dirs.push(dir);
    return {
      MIND_DATA_DIR: dir,
      MIND_EMBEDDINGS: 'openai',
      MIND_EMBEDDINGS_URL: fake.url,
      MIND_EMBEDDINGS_MODEL: 'topics',
      // Claims of a killed instance pass to another after (3 + 1) x 2 x timeout + 1 s.
      MIND_EMBEDDINGS_TIMEOUT: timeout,
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    };
  };
  after(async () => {
    for (const server of servers) await server.stop();
    for (const fake of fakes) await fake.close();
    for (const cleanup of cleanups) await cleanup();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  test('memories waiting for their embedding at kill -9 are all embedded after a restart', async () => {
    const fake = await startFakeEmbeddings();
    fakes.push(fake);
    fake.down = true; // nothing gets embedded before the kill
    const schema = TEST_DATABASE_URL ? await freshPostgresSchema(TEST_DATABASE_URL) : undefined;
    if (schema) cleanups.push(schema.drop);
    const settings = await env(fake, schema?.url);
    const first = await startServerProcess(settings);
    servers.push(first);
    const key = await newMind(first.url);
    const texts = Array.from({ length: 40 }, (_, i) => `note ${i}: violin practice and music theory`);
    for (const content of texts) await call(first.url, 'POST', '/memory', key, { category: 'note', content });
    assert.equal(await pending(first.url, key), texts.length);
    await first.stop('SIGKILL');

    fake.down = false;
    const second = await startServerProcess(settings);
    servers.push(second);
    await eventually(async () => (await pending(second.url, key)) === 0, 30_000, 'every memory embedded after the restart');
    for (const text of texts) assert.ok(fake.embedded.has(text), `embedded: ${text}`);
    const hits = (await call(second.url, 'GET', '/memory/recall?q=instrument&mode=semantic&limit=100', key)).memories;
    assert.equal(hits.length, texts.length);
  });

  test('two instances on one PostgreSQL database embed each memory once', {
    skip: TEST_DATABASE_URL ? false : 'needs PostgreSQL',
  }, async () => {
    const fake = await startFakeEmbeddings();
    fakes.push(fake);
    fake.delayMs = 20; // batches overlap in time
    const schema = await freshPostgresSchema(TEST_DATABASE_URL!);
    cleanups.push(schema.drop);
    // A long timeout: a request timed out on a loaded machine is sent again, which is right, but
    // would count here as a second embedding; this test is about two instances' claims.
    const a = await startServerProcess(await env(fake, schema.url, '10s'));
    servers.push(a);
    const b = await startServerProcess(await env(fake, schema.url, '10s'));
    servers.push(b);
    const key = await newMind(a.url);
    const texts = Array.from({ length: 300 }, (_, i) => `memory ${i} about the car service and the garage`);
    await Promise.all(texts.map((content, i) => call(i % 2 ? a.url : b.url, 'POST', '/memory', key, { category: 'note', content })));
    await eventually(async () => (await pending(a.url, key)) === 0, 30_000, 'every memory embedded');
    const counts = texts.map((text) => fake.embedded.get(text) ?? 0);
    assert.deepEqual(
      counts.filter((n) => n !== 1),
      [],
      'each memory embedded exactly once',
    );
  });
});
