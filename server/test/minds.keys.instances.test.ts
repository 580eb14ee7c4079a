// Revocation holds on every instance: two server processes on one PostgreSQL database, a key revoked
// through one is refused by the other from its next request (no instance caches a key).
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { freshPostgresSchema, TEST_DATABASE_URL } from './harness.js';
import { type ServerProcess, startServerProcess } from './server-process.js';

const json = async (url: string, init: RequestInit & { token?: string } = {}) => {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (init.token) headers.authorization = `Bearer ${init.token}`;
  const res = await fetch(url, { ...init, headers });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
};

describe('Mind Keys on several instances of one PostgreSQL database', {
  skip: TEST_DATABASE_URL ? false : 'needs PostgreSQL (MIND_TEST_DATABASE_URL)',
}, () => {
  let a: ServerProcess;
  let b: ServerProcess;
  let dropSchema = async () => {};
  const dirs: string[] = [];

  before(async () => {
    const schema = await freshPostgresSchema(TEST_DATABASE_URL!);
    dropSchema = schema.drop;
    const env = () => {
      const dir = mkdtempSync(join(tmpdir(), 'mind-keys-instance-'));
      dirs.push(dir);
      return { DATABASE_URL: schema.url, MIND_DATA_DIR: dir };
    };
    a = await startServerProcess(env()); // migrates
    b = await startServerProcess(env());
  });

  after(async () => {
    await Promise.all([a?.stop('SIGTERM'), b?.stop('SIGTERM')]);
    await dropSchema();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  test('a key revoked through instance A is refused by instance B within a second, while B serves it under load', async () => {
    const user = await json(`${a.url}/register`, {
      method: 'POST',
      body: JSON.stringify({ email: 'keys@example.com', password: 'secret-pw' }),
    });
    const mind = await json(`${a.url}/minds`, { method: 'POST', token: user.body.jwt, body: JSON.stringify({ name: 'shared' }) });
    const made = await json(`${a.url}/minds/${mind.body.id}/keys`, {
      method: 'POST',
      token: user.body.jwt,
      body: JSON.stringify({ label: 'to revoke' }),
    });
    assert.equal(made.status, 201);
    const key: string = made.body.mind_key;
    // B answers the key (and keeps answering it, batched with other requests' lookups) before the revocation.
    assert.equal((await json(`${b.url}/mind/tasks`, { token: key })).status, 200);
    let stop = false;
    const load = Array.from({ length: 4 }, async () => {
      while (!stop) await json(`${b.url}/mind/tasks`, { token: mind.body.mind_key });
    });
    try {
      const revoked = await json(`${a.url}/minds/${mind.body.id}/keys/${made.body.id}`, { method: 'DELETE', token: user.body.jwt });
      assert.equal(revoked.status, 204);
      const revokedAt = performance.now();
      // The next request already: no cache on either instance.
      const next = await json(`${b.url}/mind/tasks`, { token: key });
      const elapsed = performance.now() - revokedAt;
      assert.equal(next.status, 401);
      assert.equal(next.body.code, 'mind_key_revoked');
      assert.ok(elapsed < 1000, `refused ${elapsed.toFixed(0)} ms after the revocation`);
      assert.equal((await json(`${a.url}/mind/tasks`, { token: key })).body.code, 'mind_key_revoked');
      assert.equal((await json(`${b.url}/mind/tasks`, { token: mind.body.mind_key })).status, 200, 'the other key works');
    } finally {
      stop = true;
      await Promise.all(load);
    }
  });
});
