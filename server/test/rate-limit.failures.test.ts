// The limiters as failure counters (failed logins, failed install codes): a hit can be given back,
// and an attempt is counted under several keys at once. Memory (SQLite) and database (PostgreSQL,
// shared by instances) must behave the same.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ApiError } from '../src/http/errors.js';
import { countAttempt, DatabaseRateLimiter, MemoryRateLimiter, type RateLimiter } from '../src/http/rate-limit.js';
import { startService, TestClock, type TestService } from './harness.js';

describe('rate limiters as failure counters', () => {
  let svc: TestService;
  const clock = new TestClock();
  before(async () => {
    svc = await startService();
  });
  after(() => svc.stop());

  const cases: [string, (namespace: string, limit?: number) => RateLimiter][] = [
    ['memory', (_namespace, limit = 2) => new MemoryRateLimiter(clock, limit, 60_000)],
    ['database', (namespace, limit = 2) => new DatabaseRateLimiter(svc.ctx.db, clock, limit, 60_000, namespace)],
  ];
  for (const [name, make] of cases) {
    test(`${name}: a hit given back frees its place, but only in the window it counted in`, async () => {
      const limiter = make(`${name}-a:`);
      const first = await limiter.hit('client');
      await limiter.hit('client');
      await limiter.release('client', first);
      assert.equal((await limiter.hit('client')).limited, false);
      const over = await limiter.hit('client');
      assert.equal(over.limited, true);

      clock.advance(60_001);
      const fresh = await limiter.hit('client');
      await limiter.release('client', over); // from the ended window: changes nothing now
      assert.equal(fresh.remaining, 1);
      assert.equal((await limiter.hit('client')).remaining, 0);
    });

    test(`${name}: countAttempt counts under every key, refuses past any limit with 429 and counts nothing then`, async () => {
      const a = make(`${name}-b:`, 3);
      const b = make(`${name}-c:`);
      const checks = (key: string) => [
        { limiter: a, key: 'shared', message: (s: number) => `a: wait ${s}` },
        { limiter: b, key, message: (s: number) => `b: wait ${s}` },
      ];
      await countAttempt(checks('one'));
      await countAttempt(checks('one'));
      const refused = await countAttempt(checks('one')).then(() => undefined, (err: unknown) => err);
      assert.ok(refused instanceof ApiError && refused.statusCode === 429, String(refused));
      assert.match(refused.message, /^b: wait \d+$/);
      assert.ok(Number(refused.extra.headers?.['Retry-After']) >= 1);
      // The refusal gave back its count under `a` too: one more attempt fits there.
      const released = await countAttempt(checks('two'));
      const refusedByA = await countAttempt(checks('three')).then(() => undefined, (err: unknown) => err);
      assert.match(String((refusedByA as Error).message), /^a: wait/);
      await released.release();
      await countAttempt(checks('four'));
    });
  }

  test('database: namespaces keep limiters apart, and a limiter deletes its own ended windows', async () => {
    const logins = new DatabaseRateLimiter(svc.ctx.db, clock, 1, 60_000, 'ns_1:');
    const codes = new DatabaseRateLimiter(svc.ctx.db, clock, 1, 600_000, 'ns%2:');
    await logins.hit('10.0.0.1');
    await codes.hit('10.0.0.1');
    assert.equal((await logins.hit('10.0.0.2')).limited, false);
    assert.equal((await codes.hit('10.0.0.2')).limited, false);
    const keys = async () => (await svc.ctx.db('rate_limits').where('key', 'like', 'ns%').pluck('key')).sort();
    assert.deepEqual(await keys(), ['ns%2:10.0.0.1', 'ns%2:10.0.0.2', 'ns_1:10.0.0.1', 'ns_1:10.0.0.2']);

    clock.advance(60_001);
    await logins.hit('10.0.0.3');
    // The login windows ended and went; the other limiter's (10 minutes) stay.
    assert.deepEqual(await keys(), ['ns%2:10.0.0.1', 'ns%2:10.0.0.2', 'ns_1:10.0.0.3']);
  });
});
