// No credential, the wrong kind, other users' and minds' credentials on every route: security.routes.test.ts.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { bearer, useService } from './harness.js';

describe('memories: verification, credentials and who may see what', () => {
  const svc = useService({ MIND_WEBHOOK_RETRY_SCHEDULE: '10ms' });

  const store = async (auth: Record<string, string>, body: Record<string, unknown>) =>
    (await svc.http.post('/memory').set(auth).send(body).expect(201)).body;
  const eventsOf = async (mindId: string) =>
    (await svc.ctx.db('events').where({ mind_id: mindId }).orderBy('created_at').select('type', 'data')).map((r) => ({
      type: r.type,
      data: JSON.parse(r.data),
    }));

  test("verify with a Mind Key is 403 saying a human JWT is needed; the owner's JWT is 200", async () => {
    const { auth, jwt, mindId } = await svc.mind();
    const m = await store(auth, { category: 'fact', key: 'k', content: 'true thing' });
    for (const action of ['verify', 'unverify']) {
      const res = await svc.http.post(`/memory/${m.id}/${action}`).set(auth).expect(403);
      assert.equal(res.body.statusCode, 403);
      assert.match(res.body.message, /JWT/);
      assert.match(res.body.message, /not a Mind Key/);
    }

    const verified = await svc.http.post(`/memory/${m.id}/verify`).set(bearer(jwt)).expect(200);
    assert.equal(verified.body.verified, true);
    assert.ok(verified.body.verified_at);
    assert.equal(verified.body.updated_at, m.updated_at, 'verification does not change the memory');
    // Verifying again changes nothing and records nothing.
    const again = await svc.http.post(`/memory/${m.id}/verify`).set(bearer(jwt)).expect(200);
    assert.deepEqual(again.body, verified.body);
    const unverified = await svc.http.post(`/memory/${m.id}/unverify`).set(bearer(jwt)).expect(200);
    assert.equal(unverified.body.verified, false);
    assert.equal(unverified.body.verified_at, null);
    assert.deepEqual(
      (await eventsOf(mindId)).map((e) => e.type),
      ['memory.created', 'memory.verified', 'memory.unverified'],
    );
    assert.deepEqual((await eventsOf(mindId))[1]!.data, { id: m.id, category: 'fact', key: 'k', content: 'true thing' });
  });

  test("the agent changing a verified memory's text withdraws the verification; tags alone keep it", async () => {
    const { auth, jwt } = await svc.mind();
    const m = await store(auth, { category: 'fact', key: 'k', content: 'v1' });
    await svc.http.post(`/memory/${m.id}/verify`).set(bearer(jwt)).expect(200);
    const tagged = await svc.http
      .put(`/memory/${m.id}`)
      .set(auth)
      .send({ tags: ['t'] })
      .expect(200);
    assert.equal(tagged.body.verified, true);
    const rewritten = await svc.http.post('/memory').set(auth).send({ category: 'fact', key: 'k', content: 'v2' }).expect(200);
    assert.equal(rewritten.body.verified, false);
    assert.equal(rewritten.body.verified_at, null);
  });

  test('a credentials memory is encrypted on disk: its text is in none of mind.sqlite, -wal, -shm, nor in events', async () => {
    const { auth, mindId } = await svc.mind();
    const secret = 'correct-horse-battery-staple-4711';
    const m = await store(auth, { category: 'credentials', key: 'github-token', content: secret, tags: ['github'] });
    assert.equal(m.content, secret, 'the response shows the caller what it stored');
    assert.equal((await svc.http.get(`/memory/${m.id}`).set(auth).expect(200)).body.content, secret);
    const rotated = `${secret}-rotated`;
    await svc.http.post('/memory').set(auth).send({ category: 'credentials', key: 'github-token', content: rotated }).expect(200);

    if (svc.ctx.dialect.name === 'postgres') {
      // PostgreSQL's files are not ours to read: check what the database holds instead.
      const rows = await svc.ctx.db('memories').where({ mind_id: mindId });
      assert.equal(JSON.stringify(rows).includes(secret), false, 'the secret is not stored in clear');
    } else {
      const files = ['mind.sqlite', 'mind.sqlite-wal', 'mind.sqlite-shm'].map((f) => join(svc.dataDir, f));
      const onDisk = () =>
        files
          .filter(existsSync)
          .map((f) => readFileSync(f))
          .some((bytes) => bytes.includes(secret) || bytes.includes(Buffer.from(secret, 'utf16le')));
      assert.ok(existsSync(files[0]!) && existsSync(files[1]!), 'the database and its WAL exist');
      // A note with a known text proves the scan would see plain text in these files.
      await store(auth, { category: 'note', content: 'plain-marker-text-0815' });
      assert.ok(
        files.filter(existsSync).some((f) => readFileSync(f).includes('plain-marker-text-0815')),
        'the scan sees plain text',
      );
      assert.equal(onDisk(), false, 'the secret is not in the files (WAL included)');
      await svc.ctx.db.raw('PRAGMA wal_checkpoint(TRUNCATE)');
      assert.equal(onDisk(), false, 'nor after a checkpoint');
    }

    const events = await eventsOf(mindId);
    assert.deepEqual(events[0]!.data, { id: m.id, category: 'credentials', key: 'github-token', content: '[redacted]' });
    assert.deepEqual(events[1]!.data, { id: m.id, category: 'credentials', key: 'github-token', content: '[redacted]' });
    assert.equal((await svc.http.get(`/memory/${m.id}`).set(auth).expect(200)).body.content, rotated);
  });

  test('credentials are left out of recall unless category=credentials is asked for, and are never in the search index', async () => {
    const { auth } = await svc.mind();
    const cred = await store(auth, { category: 'credentials', key: 'aws-key', content: 'AKIA-secret-value', tags: ['aws'] });
    const note = await store(auth, { category: 'note', content: 'aws account notes' });
    const ids = async (query: Record<string, string>) =>
      (await svc.http.get('/memory/recall').set(auth).query(query).expect(200)).body.memories.map((m: { id: string }) => m.id);
    assert.deepEqual(await ids({}), [note.id]);
    assert.deepEqual(await ids({ q: 'aws' }), [note.id]);
    assert.deepEqual(await ids({ q: 'AKIA' }), []);
    assert.deepEqual(await ids({ tags: 'aws' }), []);
    const asked = await svc.http.get('/memory/recall').set(auth).query({ category: 'credentials' }).expect(200);
    assert.deepEqual(
      asked.body.memories.map((m: { content: string }) => m.content),
      ['AKIA-secret-value'],
    );
    // With category=credentials, q matches the key and tags (the text is not searchable).
    assert.deepEqual(await ids({ category: 'credentials', q: 'AWS' }), [cred.id]);
    assert.deepEqual(await ids({ category: 'credentials', q: 'secret' }), []);
    assert.deepEqual(await ids({ category: 'credentials', q: '100%' }), []);
    const inIndex = async (id: string) =>
      svc.ctx.dialect.name === 'postgres'
        ? (await svc.ctx.db('memories').where({ id }).whereNotNull('search_vector')).length
        : (await svc.ctx.db('memories_fts').whereIn('rowid', svc.ctx.db('memories').where({ id }).select('seq'))).length;
    assert.equal(await inIndex(cred.id), 0, 'credentials are not in the full-text index');
    assert.equal(await inIndex(note.id), 1);
    // Moving a memory into credentials takes it out of the index; out of credentials puts it back.
    await svc.http.put(`/memory/${note.id}`).set(auth).send({ category: 'credentials' }).expect(200);
    assert.deepEqual(await ids({ q: 'aws' }), []);
    assert.equal(await inIndex(note.id), 0);
    await svc.http.put(`/memory/${cred.id}`).set(auth).send({ category: 'note' }).expect(200);
    assert.deepEqual(await ids({ q: 'akia' }), [cred.id]);
  });

  test('a memory.created webhook delivery carries id, category, key and content; credentials arrive as [redacted]', async () => {
    const { auth, mindId } = await svc.mind();
    const received: Array<Record<string, unknown>> = [];
    let notify: () => void = () => undefined;
    const server: Server = createServer((req, res) => {
      let raw = '';
      req.on('data', (c) => (raw += c));
      req.on('end', () => {
        received.push(JSON.parse(raw));
        res.writeHead(200).end();
        notify();
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
      await svc.http.post('/webhooks').set(auth).send({ url, events: 'memory.created', secret: 'a-long-secret' }).expect(201);
      const waitFor = (n: number) =>
        new Promise<void>((resolve, reject) => {
          const timer = setTimeout(() => reject(new Error(`only ${received.length} deliveries`)), 5000);
          notify = () => {
            if (received.length >= n) {
              clearTimeout(timer);
              resolve();
            }
          };
          notify();
        });
      const m = await store(auth, { category: 'skill', key: 'sql', content: 'window functions' });
      await waitFor(1);
      assert.equal(received[0]!.event, 'memory.created');
      assert.equal(received[0]!.mind_id, mindId);
      assert.deepEqual(received[0]!.data, { id: m.id, category: 'skill', key: 'sql', content: 'window functions' });
      const c = await store(auth, { category: 'credentials', key: 'db-password', content: 'pa55word-xyz' });
      await waitFor(2);
      assert.deepEqual(received[1]!.data, { id: c.id, category: 'credentials', key: 'db-password', content: '[redacted]' });
    } finally {
      await new Promise((r) => server.close(r));
    }
  });

  test("the export shows credentials as [redacted], except to the owner's JWT with include_credentials=true", async () => {
    const { auth, jwt, mindId } = await svc.mind();
    await store(auth, { category: 'credentials', key: 'api', content: 'sk-live-123' });
    const byKey = await svc.http.get('/memory/mind-export').set(auth).expect(200);
    assert.equal(byKey.body.memories[0].content, '[redacted]');
    const forbidden = await svc.http.get('/memory/mind-export').set(auth).query({ include_credentials: 'true' }).expect(403);
    assert.match(forbidden.body.message, /JWT/);
    const byJwt = await svc.http.get('/memory/mind-export').set(bearer(jwt)).query({ mind_id: mindId }).expect(200);
    assert.equal(byJwt.body.memories[0].content, '[redacted]');
    const revealed = await svc.http
      .get('/memory/mind-export')
      .set(bearer(jwt))
      .query({ mind_id: mindId, include_credentials: 'true' })
      .expect(200);
    assert.equal(revealed.body.memories[0].content, 'sk-live-123');

    const missing = await svc.http.get('/memory/mind-export').set(bearer(jwt)).expect(400);
    assert.match(missing.body.message, /query\.mind_id/);
    const stranger = await svc.user();
    await svc.http.get('/memory/mind-export').set(bearer(stranger.jwt)).query({ mind_id: mindId, include_credentials: 'true' }).expect(404);
  });
});
