import { isIPv6 } from 'node:net';
import type { ErrorCodeOf } from '@mindservice/contract';
import type { Config } from '../config.js';
import type { Db } from '../db/database.js';
import type { Clock } from '../lib/clock.js';
import { ApiError } from './api-error.js';

export interface RateLimitResult {
  limited: boolean;
  limit: number;
  remaining: number;
  /** Unix seconds when the window ends. */
  resetAt: number;
  /** Whole seconds until the window ends (at least 1). */
  retryAfter: number;
  /** When the window this hit counted in started (ms): `release` gives a hit back to that window only. */
  windowStart: number;
}

export interface RateLimiter {
  /** Counts one hit for `key` in its current window. */
  hit(key: string): Promise<RateLimitResult>;
  /** Takes back a hit (`hit`'s answer) if its window is still the current one; never throws. */
  release(key: string, hit: RateLimitResult): Promise<void>;
  /** Counts nothing: what a hit now would meet (`limited` when none is left in the window). */
  peek(key: string): Promise<RateLimitResult>;
}

const resultOf = (count: number, limit: number, windowStart: number, windowMs: number, now: number, peeked = false): RateLimitResult => ({
  limited: peeked ? count >= limit : count > limit,
  limit,
  remaining: Math.max(0, limit - count),
  resetAt: Math.ceil((windowStart + windowMs) / 1000),
  retryAfter: Math.max(1, Math.ceil((windowStart + windowMs - now) / 1000)),
  windowStart,
});

/** Fixed windows per key (one minute unless told), in memory (one instance). */
export class MemoryRateLimiter implements RateLimiter {
  private readonly windows = new Map<string, { start: number; count: number }>();
  /** Ended windows are dropped when the map grows past this; it doubles when few have ended, so sweeps stay rare. */
  private sweepAt = 10_000;

  constructor(
    private readonly clock: Clock,
    private readonly limit = 60,
    private readonly windowMs = 60_000,
  ) {}

  async hit(key: string): Promise<RateLimitResult> {
    const now = this.clock.now().getTime();
    let window = this.windows.get(key);
    if (!window || now >= window.start + this.windowMs) {
      if (this.windows.size > this.sweepAt) this.sweep(now);
      window = { start: now, count: 0 };
      this.windows.set(key, window);
    }
    window.count += 1;
    return resultOf(window.count, this.limit, window.start, this.windowMs, now);
  }

  async peek(key: string): Promise<RateLimitResult> {
    const now = this.clock.now().getTime();
    const window = this.windows.get(key);
    const current = window && now < window.start + this.windowMs ? window : { start: now, count: 0 };
    return resultOf(current.count, this.limit, current.start, this.windowMs, now, true);
  }

  async release(key: string, hit: RateLimitResult): Promise<void> {
    const window = this.windows.get(key);
    if (window && window.start === hit.windowStart && window.count > 0) window.count -= 1;
  }

  private sweep(now: number) {
    for (const [key, window] of this.windows) if (now >= window.start + this.windowMs) this.windows.delete(key);
    this.sweepAt = Math.max(10_000, this.windows.size * 2);
  }
}

/**
 * Fixed windows kept in the database (table `rate_limits`), so several instances share one limit
 * per client. A `namespace` keeps one limiter's keys apart from another's (the `?key=` limit has
 * none: its keys are bare IPs); a limiter with one also deletes its ended windows, at most once a window.
 */
export class DatabaseRateLimiter implements RateLimiter {
  private lastSweep = 0;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly limit = 60,
    private readonly windowMs = 60_000,
    private readonly namespace = '',
  ) {}

  private stored = (key: string) => (this.namespace + key).slice(0, 100);

  async hit(key: string): Promise<RateLimitResult> {
    const now = this.clock.now().getTime();
    await this.sweep(now);
    // One atomic upsert: a window that has ended starts again at 1.
    const expired = `rate_limits.window_start + ${this.windowMs} <= excluded.window_start`;
    type Row = { count: number; window_start: string | number };
    const result = await this.db.raw<{ rows: Row[] } | Row[]>(
      `insert into rate_limits (key, window_start, count) values (?, ?, 1)
       on conflict (key) do update set
         count = case when ${expired} then 1 else rate_limits.count + 1 end,
         window_start = case when ${expired} then excluded.window_start else rate_limits.window_start end
       returning count, window_start`,
      [this.stored(key), now],
    );
    const rows = Array.isArray(result) ? result : result.rows; // better-sqlite3 answers rows, pg a result
    return resultOf(Number(rows[0].count), this.limit, Number(rows[0].window_start), this.windowMs, now);
  }

  async peek(key: string): Promise<RateLimitResult> {
    const now = this.clock.now().getTime();
    const row = await this.db('rate_limits')
      .where({ key: this.stored(key) })
      .first<{ count: number; window_start: string | number } | undefined>('count', 'window_start');
    const start = row ? Number(row.window_start) : now;
    const live = row !== undefined && now < start + this.windowMs;
    return resultOf(live ? Number(row.count) : 0, this.limit, live ? start : now, this.windowMs, now, true);
  }

  async release(key: string, hit: RateLimitResult): Promise<void> {
    await this.db('rate_limits')
      .where({ key: this.stored(key), window_start: hit.windowStart })
      .where('count', '>', 0)
      .decrement('count', 1)
      .catch(() => undefined); // a hit not given back only counts against its client a little longer
  }

  private async sweep(now: number) {
    if (!this.namespace || now - this.lastSweep < this.windowMs) return;
    this.lastSweep = now;
    const prefix = this.namespace.replace(/[\\%_]/g, (c) => `\\${c}`);
    await this.db('rate_limits')
      .whereRaw(`key like ? escape '\\'`, [`${prefix}%`])
      .where('window_start', '<=', now - this.windowMs)
      .delete()
      .catch(() => undefined); // ended windows left behind are restarted by the next hit anyway
  }
}

/** A limiter for the service: in memory on SQLite (one process), in the database on PostgreSQL (shared by instances). */
export function createRateLimiter(
  ctx: { config: Pick<Config, 'databaseUrl'>; db: Db; clock: Clock },
  namespace: string,
  limit: number,
  windowMs: number,
): RateLimiter {
  return ctx.config.databaseUrl
    ? new DatabaseRateLimiter(ctx.db, ctx.clock, limit, windowMs, `${namespace}:`)
    : new MemoryRateLimiter(ctx.clock, limit, windowMs);
}

/**
 * The client address as limits count it: an IPv4 address as it is (also written IPv4-mapped), an
 * IPv6 address by its /64 prefix, since one subscriber usually holds a whole /64 and could
 * otherwise switch addresses at will.
 */
export function clientAddressKey(ip: string | undefined): string {
  if (!ip) return 'unknown';
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped) return mapped[1]!;
  const address = ip.split('%')[0]!;
  if (!isIPv6(address)) return ip;
  const groups = (part: string) => (part ? part.split(':').flatMap((g) => (g.includes('.') ? ['0', '0'] : [g])) : []);
  const [head, tail] = address.split('::') as [string, string | undefined];
  const full =
    tail === undefined
      ? groups(head)
      : [...groups(head), ...Array<string>(8 - groups(head).length - groups(tail).length).fill('0'), ...groups(tail)];
  return `${full
    .slice(0, 4)
    .map((g) => parseInt(g, 16).toString(16))
    .join(':')}::/64`;
}

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
