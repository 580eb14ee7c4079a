import type { ErrorCodeOf } from '@mindservice/contract';
import { ApiError } from './api-error.js';
import type { RateLimiter, RateLimitResult } from './rate-limit.js';

// Limits on failed attempts, over the rate limiters: the mechanism only. The areas hold the policy,
// their limits, keys and messages (accounts/service.ts for logins, computers/agent.ts for install codes).

/** One check of a counted attempt: the limiter, the key, and the 429's code and message given the seconds to wait. */
export interface AttemptCheck {
  limiter: RateLimiter;
  key: string;
  code: ErrorCodeOf<429>;
  message: (retryAfterSeconds: number) => string;
}

/** An attempt counted as a failure in advance; `release` gives the count back (it did not fail). */
interface CountedAttempt {
  release(): Promise<void>;
}

const tooMany = (check: AttemptCheck, result: RateLimitResult) =>
  ApiError.of(429, check.code, check.message(result.retryAfter), { headers: { 'Retry-After': String(result.retryAfter) } });

/** Counts an attempt under every check, or, past any limit, counts nothing and throws the 429. */
async function countAttempt(checks: AttemptCheck[]): Promise<CountedAttempt> {
  const counted: Array<[AttemptCheck, RateLimitResult]> = [];
  const giveBack = () => Promise.all(counted.map(([check, hit]) => check.limiter.release(check.key, hit))).then(() => undefined);
  for (const check of checks) {
    const hit = await check.limiter.hit(check.key).catch(async (err: unknown) => {
      await giveBack();
      throw err;
    });
    counted.push([check, hit]);
    if (hit.limited) {
      await giveBack();
      throw tooMany(check, hit);
    }
  }
  return { release: giveBack };
}

/**
 * Limits failed attempts (wrong passwords, refused install codes) under one or more keys each.
 *
 * An attempt is counted as a failure when its check starts and given back when it turns out not to
 * have failed, so only failures use up a limit, and attempts made at once cannot overshoot it (the
 * count is one atomic write, shared by instances on PostgreSQL). At most `concurrency` checks run
 * at once in this process, the others wait their turn; so at any time at most that many attempts
 * per instance are counted without having failed, and a burst of good attempts (16 logins at once
 * from one office) is not refused for failures it has not made. An attempt already over a limit is
 * refused at once, without waiting: 429 with `Retry-After` and the check's message. Windows are
 * fixed: a client over a limit waits until the window its failures started ends, however often it
 * retries meanwhile (refused attempts are not counted).
 */
export class FailureLimit {
  private running = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(private readonly concurrency: number) {}

  /** Runs `check`; an error it throws for which `isFailure` holds counts as a failure. */
  async run<T>(checks: AttemptCheck[], check: () => Promise<T>, isFailure: (err: unknown) => boolean): Promise<T> {
    for (const c of checks) {
      const now = await c.limiter.peek(c.key);
      if (now.limited) throw tooMany(c, now);
    }
    if (this.running >= this.concurrency) await new Promise<void>((start) => this.waiting.push(start));
    else this.running++;
    try {
      const attempt = await countAttempt(checks);
      let failed = false;
      try {
        return await check();
      } catch (err) {
        failed = isFailure(err);
        throw err;
      } finally {
        if (!failed) await attempt.release();
      }
    } finally {
      const next = this.waiting.shift();
      if (next)
        next(); // the slot passes straight on
      else this.running--;
    }
  }
}

/** `14 minutes`, `45 seconds`: how long to wait, for a message. */
export function waitInWords(seconds: number): string {
  if (seconds < 120) return `${seconds} second${seconds === 1 ? '' : 's'}`;
  return `${Math.ceil(seconds / 60)} minutes`;
}
