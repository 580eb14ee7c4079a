import type { ErrorCodeOf } from '@mindservice/contract';
import { ApiError } from './api-error.js';
import type { RateLimiter, RateLimitResult } from './rate-limit.js';

// Limits on failed attempts, over the rate limiters: the mechanism only. The areas hold the policy,
// their limits, keys and messages (accounts/service.ts for logins, computers/agent-side.ts for install codes).

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
  /** It failed: the count stays. */
  keep(): void;
}

const tooMany = (check: AttemptCheck, result: RateLimitResult) =>
  ApiError.of(429, check.code, check.message(result.retryAfter), { headers: { 'Retry-After': String(result.retryAfter) } });

/** Attempts this process has counted in advance and not yet settled, per limiter and key. */
class InFlight {
  private readonly counts = new Map<RateLimiter, Map<string, number>>();
  of(check: AttemptCheck): number {
    return this.counts.get(check.limiter)?.get(check.key) ?? 0;
  }
  add(check: AttemptCheck, delta: 1 | -1) {
    const keys = this.counts.get(check.limiter) ?? new Map<string, number>();
    this.counts.set(check.limiter, keys);
    const next = (keys.get(check.key) ?? 0) + delta;
    if (next > 0) keys.set(check.key, next);
    else keys.delete(check.key);
  }
}

/** Counts an attempt under every check, or, past any limit, counts nothing and throws the 429. */
async function countAttempt(checks: AttemptCheck[], inFlight: InFlight): Promise<CountedAttempt> {
  const counted: Array<[AttemptCheck, RateLimitResult]> = [];
  const marked: AttemptCheck[] = [];
  let settled = false;
  const settle = async (giveBackHits: boolean) => {
    if (settled) return;
    settled = true;
    if (giveBackHits) await Promise.all(counted.map(([check, hit]) => check.limiter.release(check.key, hit)));
    for (const check of marked) inFlight.add(check, -1);
  };
  for (const check of checks) {
    // Marked before the hit is written, so a peek that already sees the hit also sees the mark.
    inFlight.add(check, 1);
    marked.push(check);
    const hit = await check.limiter.hit(check.key).catch(async (err: unknown) => {
      await settle(true);
      throw err;
    });
    counted.push([check, hit]);
    if (hit.limited) {
      await settle(true);
      throw tooMany(check, hit);
    }
  }
  return { release: () => settle(true), keep: () => void settle(false) };
}

/**
 * Limits failed attempts (wrong passwords, refused install codes) under one or more keys each. An
 * attempt counts as a failure when its check starts and is given back when it did not fail, so
 * attempts at once cannot overshoot a limit; at most `concurrency` checks run at once, so a burst of
 * good attempts is not refused for failures it has not made. Over a limit: 429 with `Retry-After`,
 * at once, until the fixed window its failures started ends.
 */
export class FailureLimit {
  private running = 0;
  private readonly waiting: Array<() => void> = [];
  private readonly inFlight = new InFlight();

  constructor(private readonly concurrency: number) {}

  /** Runs `check`; an error it throws for which `isFailure` holds counts as a failure. */
  async run<T>(checks: AttemptCheck[], check: () => Promise<T>, isFailure: (err: unknown) => boolean): Promise<T> {
    for (const c of checks) {
      // Attempts this process counted in advance and has not settled are not failures (yet): they
      // must not refuse this one, or a burst of good logins would be refused by its own members.
      const now = await c.limiter.peek(c.key);
      if (now.limited && now.count - this.inFlight.of(c) >= now.limit) throw tooMany(c, now);
    }
    if (this.running >= this.concurrency) await new Promise<void>((start) => this.waiting.push(start));
    else this.running++;
    try {
      const attempt = await countAttempt(checks, this.inFlight);
      let failed = false;
      try {
        return await check();
      } catch (err) {
        failed = isFailure(err);
        throw err;
      } finally {
        if (failed) attempt.keep();
        else await attempt.release();
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
