import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, test } from 'node:test';
import { useService } from './harness.js';

// Issue 28, finding 2: one large import (a dry run stores nothing and can be sent again at once)
// held every other request of the server for seconds. The bound is the issue's: /health p99 under
// 500 ms while it runs (the machine is shared, so the imports are measured whole, not timed).

/** A mind-export/1 document of `n` small memories, serialised (about 245 bytes a memory). */
function documentOf(n: number): string {
  const at = '2026-11-01T00:00:00.000Z';
  const memories = Array.from({ length: n }, (_, i) => ({
    id: randomUUID(),
    category: 'note',
    key: null,
    content: `small memory number ${i} of the import padded padded`,
    tags: ['imported'],
    source: 'test',
    created_at: at,
    updated_at: at,
  }));
  return JSON.stringify({ format: 'mind-export/1', exported_at: at, memories, tasks: [], chat: [], scripts: [], webhooks: [] });
}

const p99 = (times: number[]) => [...times].sort((a, b) => a - b)[Math.ceil(0.99 * times.length) - 1]!;

describe('transfer: an import does not hold other requests up', () => {
  const svc = useService();

  /** Sends the import, and asks /health one request after another until it has answered. */
  async function importWhileProbing(key: string, body: string, query: string) {
    let answered = false;
    const importing = svc.http
      .post(`/memory/mind-import${query}`)
      .set({ Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' })
      .send(body)
      .then((res) => {
        answered = true;
        return res;
      });
    const health: number[] = [];
    while (!answered) {
      const started = performance.now();
      const res = await svc.http.get('/health');
      health.push(performance.now() - started);
      assert.equal(res.status, 200);
      await sleep(10);
    }
    return { res: await importing, health };
  }

  test('a 24 MB dry-run import of 100,000 memories answers, and /health p99 stays under 500 ms meanwhile', async () => {
    const { mindKey } = await svc.mind();
    const body = documentOf(100_000);
    assert.ok(body.length > 24 * 1024 * 1024 && body.length < 25 * 1024 * 1024, `${body.length} bytes`);
    const { res, health } = await importWhileProbing(mindKey, body, '?dry_run=true');
    assert.equal(res.status, 200, res.text.slice(0, 500));
    assert.equal(res.body.created.memories, 100_000);
    assert.ok(p99(health) < 500, `/health p99 ${p99(health).toFixed(0)} ms over ${health.length} requests`);
    const stats = await svc.http
      .get('/memory/stats')
      .set({ Authorization: `Bearer ${mindKey}` })
      .expect(200);
    assert.equal(stats.body.total, 0, 'a dry run stores nothing');
  });

  test('an import of a mind of 20,000 memories is stored whole, and /health p99 stays under 500 ms meanwhile', async () => {
    const { mindKey } = await svc.mind();
    const { res, health } = await importWhileProbing(mindKey, documentOf(20_000), '');
    assert.equal(res.status, 200, res.text.slice(0, 500));
    assert.equal(res.body.created.memories, 20_000);
    assert.ok(p99(health) < 500, `/health p99 ${p99(health).toFixed(0)} ms over ${health.length} requests`);
    const stats = await svc.http
      .get('/memory/stats')
      .set({ Authorization: `Bearer ${mindKey}` })
      .expect(200);
    assert.equal(stats.body.total, 20_000);
  });
});
