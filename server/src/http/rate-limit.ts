import { isIPv6 } from 'node:net';
import type { Db, Dialect } from '../db/database.js';
import type { Clock } from '../lib/clock.js';

export interface RateLimitResult {
  limited: boolean;
  /** Hits counted in the window (with this one, for a hit). */
  count: number;
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
  count,
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
  ctx: { dialect: Pick<Dialect, 'sharedByInstances'>; db: Db; clock: Clock },
  namespace: string,
  limit: number,
  windowMs: number,
): RateLimiter {
  return ctx.dialect.sharedByInstances
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
