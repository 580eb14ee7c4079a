// The limiters as failure counters (failed logins, failed install codes): a hit can be given back,
// and an attempt is counted under several keys at once. Memory (SQLite) and database (PostgreSQL,
// shared by instances) must behave the same.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ApiError } from '../src/http/api-error.js';
import { FailureLimit } from '../src/http/failure-limit.js';
import { DatabaseRateLimiter, MemoryRateLimiter, type RateLimiter } from '../src/http/rate-limit.js';
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

    test(`${name}: peek counts nothing and says whether another hit would be over the limit`, async () => {
      const limiter = make(`${name}-p:`);
      assert.deepEqual([(await limiter.peek('client')).limited, (await limiter.peek('client')).remaining], [false, 2]);
      await limiter.hit('client');
      assert.equal((await limiter.peek('client')).remaining, 1);
      await limiter.hit('client');
      const full = await limiter.peek('client');
      assert.equal(full.limited, true);
      assert.ok(full.retryAfter >= 1 && full.retryAfter <= 60);
      clock.advance(60_001);
      assert.equal((await limiter.peek('client')).limited, false);
    });

    test(`${name}: FailureLimit counts failures under every key, refuses past any limit with 429 and then counts nothing`, async () => {
      const a = make(`${name}-b:`, 3);
      const b = make(`${name}-c:`);
      const limit = new FailureLimit(2);
      const failure = new Error('wrong');
      const checks = (key: string) => [
        { limiter: a, key: 'shared', code: 'login_attempts_exceeded' as const, message: (s: number) => `a: wait ${s}` },
        { limiter: b, key, code: 'login_attempts_exceeded' as const, message: (s: number) => `b: wait ${s}` },
      ];
      const attempt = (key: string, fails: boolean) =>
        limit
          .run(
            checks(key),
            async () => {
              if (fails) throw failure;
              return 'ok';
            },
            (err) => err === failure,
          )
          .then(
            (value) => value,
            (err: unknown) =>
              err === failure
                ? 'failed'
                : err instanceof ApiError
                  ? `${err.statusCode} ${err.message} ${err.extra.headers?.['Retry-After']}`
                  : err,
          );
      assert.equal(await attempt('one', false), 'ok');
      assert.equal(await attempt('one', true), 'failed');
      assert.equal(await attempt('one', true), 'failed');
      assert.match(String(await attempt('one', false)), /^429 b: wait \d+ \d+$/); // b's limit (2) for `one`
      // The refusal counted nothing under `a`: one more failure fits there (3), then `a` refuses.
      assert.equal(await attempt('two', true), 'failed');
      assert.match(String(await attempt('three', false)), /^429 a: wait/);
    });

    test(`${name}: FailureLimit: attempts at once cannot overshoot, and a burst of good ones is not refused`, async () => {
      const limiter = make(`${name}-d:`);
      const limit = new FailureLimit(2);
      const failure = new Error('wrong');
      const check = [{ limiter, key: 'burst', code: 'login_attempts_exceeded' as const, message: () => 'over' }];
      const attempt = (fails: boolean) =>
        limit
          .run(
            check,
            async () => {
              await new Promise((r) => setTimeout(r, 5));
              if (fails) throw failure;
              return 'ok';
            },
            (err) => err === failure,
          )
          .catch((err: unknown) => (err === failure ? 'failed' : (err as Error).message));
      const good = await Promise.all(Array.from({ length: 10 }, () => attempt(false)));
      assert.deepEqual(good, Array(10).fill('ok'));
      const bad = await Promise.all(Array.from({ length: 10 }, () => attempt(true)));
      assert.deepEqual(bad.sort(), [...Array(2).fill('failed'), ...Array(8).fill('over')]);
    });
    test(`${name}: FailureLimit: a peek that lands while good attempts are counted in advance does not refuse`, async () => {
      // On PostgreSQL the peeks of a burst interleave with the hits of the attempts already running;
      // a peek answered late must not count those (not yet failed) attempts against the next one.
      const inner = make(`${name}-e:`);
      let peeks = 0;
      const limiter: RateLimiter = {
        hit: (key) => inner.hit(key),
        release: (key, hit) => inner.release(key, hit),
        peek: async (key) => {
          const delay = 15 * peeks++;
          const result = await inner.peek(key);
          await new Promise((r) => setTimeout(r, delay));
          return delay === 0 ? result : inner.peek(key); // answered after the others have started
        },
      };
      const limit = new FailureLimit(2);
      const check = [{ limiter, key: 'late', code: 'login_attempts_exceeded' as const, message: () => 'over' }];
      const attempt = () =>
        limit
          .run(
            check,
            () => new Promise((r) => setTimeout(() => r('ok'), 40)),
            () => true,
          )
          .catch((err: unknown) => (err as Error).message);
      assert.deepEqual(await Promise.all(Array.from({ length: 6 }, attempt)), Array(6).fill('ok'));
      assert.equal((await inner.peek('late')).count, 0);
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
