import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { DatabaseRateLimiter, MemoryRateLimiter, type RateLimiter } from '../src/http/rate-limit.js';
import { TestClock, useService } from './harness.js';

// The memory limiter serves one SQLite process; the database limiter is shared by instances on PostgreSQL.
// Both must count the same way.
describe('rate limiters', () => {
  const clock = new TestClock();
  const svc = useService();

  const cases: [string, () => RateLimiter][] = [
    ['memory', () => new MemoryRateLimiter(clock, 3, 60_000)],
    ['database', () => new DatabaseRateLimiter(svc.ctx.db, clock, 3, 60_000)],
  ];
  for (const [name, make] of cases) {
    test(`${name}: counts per key within a window, limits past it, and starts again after it`, async () => {
      const limiter = make();
      const key = `${name}-client`;
      const results = [];
      for (let i = 0; i < 4; i++) results.push(await limiter.hit(key));
      assert.deepEqual(
        results.map((r) => [r.limited, r.remaining]),
        [
          [false, 2],
          [false, 1],
          [false, 0],
          [true, 0],
        ],
      );
      assert.ok(results[3].retryAfter >= 1 && results[3].retryAfter <= 60);
      assert.equal((await limiter.hit(`${key}-other`)).remaining, 2);
      clock.advance(60_001);
      const fresh = await limiter.hit(key);
      assert.equal(fresh.limited, false);
      assert.equal(fresh.remaining, 2);
    });
  }
});
