import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Memory } from '@mindservice/contract';
import type { RecordedEvent } from '../src/events/recorder.js';
import { newId } from '../src/lib/secrets.js';
import { Cipher } from '../src/lib/cipher.js';
import { NO_TIME_BOUNDS } from '../src/memories/rows.js';
import { MemoriesStore } from '../src/memories/store.js';
import { WriteBatcher } from '../src/db/write-batch.js';
import { bearer, useService } from './harness.js';

/** Concurrent memory writes share a transaction (group commit); each still stands or fails alone. */
describe('memories: concurrent writes', () => {
  const svc = useService();

  const memory = (content: string): Memory => {
    const now = new Date().toISOString();
    return {
      id: newId(),
      category: 'note',
      key: null,
      content,
      tags: ['batch'],
      verified: false,
      verified_at: null,
      source: null,
      created_at: now,
      updated_at: now,
      ...NO_TIME_BOUNDS,
    };
  };

  test('30 concurrent POST /memory: every one is stored, indexed and has its event', async () => {
    const { mindKey, mindId } = await svc.mind();
    const auth = bearer(mindKey);
    const created = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        svc.http
          .post('/memory')
          .set(auth)
          .send({ category: 'fact', content: `parallel write number${i} zebra` })
          .expect(201),
      ),
    );
    const ids = new Set(created.map((r) => r.body.id as string));
    assert.equal(ids.size, 30);
    const found = (await svc.http.get('/memory/recall').set(auth).query({ q: 'zebra', limit: 100 }).expect(200)).body.memories as Array<{
      id: string;
    }>;
    assert.deepEqual(new Set(found.map((m) => m.id)), ids);
    const one = (await svc.http.get('/memory/recall').set(auth).query({ q: 'number17' }).expect(200)).body.memories as Array<{
      content: string;
    }>;
    assert.deepEqual(
      one.map((m) => m.content),
      ['parallel write number17 zebra'],
    );
    const events = await svc.ctx.db('events').where({ mind_id: mindId, type: 'memory.created' }).count({ n: '*' });
    assert.equal(Number(events[0]!.n), 30);
    if (svc.ctx.dialect.name === 'postgres') {
      // The transaction that wrote a row is its xmin: batched writes share one.
      const [{ n }] = (await svc.ctx.db.raw('SELECT count(DISTINCT xmin::text) AS n FROM memories WHERE mind_id = ?', [mindId])).rows;
      assert.ok(Number(n) < 30, `${n} transactions for 30 concurrent writes`);
    }
  });

  test('a write that fails after writing leaves nothing and gets its own error; the others of its batch commit', async () => {
    const { mindId } = await svc.mind();
    const store = new MemoriesStore(Cipher.fromConfig(svc.ctx.config));
    const batcher = new WriteBatcher(svc.ctx.db, svc.ctx.dialect);
    const committed: RecordedEvent[] = [];
    svc.ctx.events.onCommitted((event) => committed.push(event));

    const [good1, bad, good2] = [memory('first good umbrella'), memory('failing umbrella'), memory('second good umbrella')];
    const write = (m: Memory, fail: boolean) =>
      batcher.run(async (trx) => {
        await store.insert(trx, mindId, m);
        await svc.ctx.events.record(trx, mindId, 'memory.created', { id: m.id });
        if (fail) throw new Error('refused after writing');
        return m.id;
      });
    // Started together: on SQLite they run in one transaction.
    const results = await Promise.allSettled([write(good1, false), write(bad, true), write(good2, false)]);
    assert.deepEqual(
      results.map((r) => r.status),
      ['fulfilled', 'rejected', 'fulfilled'],
    );
    assert.equal((results[1] as PromiseRejectedResult).reason.message, 'refused after writing');

    const rows = await svc.ctx.db('memories').where({ mind_id: mindId }).pluck('id');
    assert.deepEqual(new Set(rows), new Set([good1.id, good2.id]));
    assert.equal((await svc.ctx.db('memory_tags').where({ memory_id: bad.id })).length, 0);
    const events = await svc.ctx.db('events').where({ mind_id: mindId }).select('data');
    assert.deepEqual(new Set(events.map((e) => JSON.parse(e.data).id)), new Set([good1.id, good2.id]));
    if (svc.ctx.dialect.name !== 'postgres') {
      assert.equal((await svc.ctx.db('memories_rank').where({ id: bad.id })).length, 0);
      assert.equal(
        (
          await svc.ctx
            .db('memories_fts')
            .count({ n: '*' })
            .whereRaw('memories_fts MATCH ?', [`"m${mindId.replaceAll('-', '')}umbrella"`])
        )[0]!.n,
        2,
      );
    }
    // Listeners hear of the committed events only.
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(new Set(committed.filter((e) => e.mindId === mindId).map((e) => e.data.id)), new Set([good1.id, good2.id]));
  });
});
