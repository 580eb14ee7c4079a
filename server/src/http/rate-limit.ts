import type { Db } from '../db/database.js';
import type { Clock } from '../lib/clock.js';

export interface RateLimitResult {
  limited: boolean;
  limit: number;
  remaining: number;
  /** Unix seconds when the window ends. */
  resetAt: number;
  /** Whole seconds until the window ends (at least 1). */
  retryAfter: number;
}

export interface RateLimiter {
  hit(key: string): Promise<RateLimitResult>;
}

/** Fixed one-minute windows per key, in memory (one instance). */
export class MemoryRateLimiter implements RateLimiter {
  private readonly windows = new Map<string, { start: number; count: number }>();

  constructor(
    private readonly clock: Clock,
    private readonly limit = 60,
    private readonly windowMs = 60_000,
  ) {}

  async hit(key: string): Promise<RateLimitResult> {
    const now = this.clock.now().getTime();
    let window = this.windows.get(key);
    if (!window || now >= window.start + this.windowMs) {
      if (this.windows.size > 10_000) this.sweep(now);
      window = { start: now, count: 0 };
      this.windows.set(key, window);
    }
    window.count += 1;
    return {
      limited: window.count > this.limit,
      limit: this.limit,
      remaining: Math.max(0, this.limit - window.count),
      resetAt: Math.ceil((window.start + this.windowMs) / 1000),
      retryAfter: Math.max(1, Math.ceil((window.start + this.windowMs - now) / 1000)),
    };
  }

  private sweep(now: number) {
    for (const [key, window] of this.windows) if (now >= window.start + this.windowMs) this.windows.delete(key);
  }
}

/** Fixed windows kept in the database, so several instances share one limit per client. */
export class DatabaseRateLimiter implements RateLimiter {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly limit = 60,
    private readonly windowMs = 60_000,
  ) {}

  async hit(key: string): Promise<RateLimitResult> {
    const now = this.clock.now().getTime();
    // One atomic upsert: a window that has ended starts again at 1.
    const expired = `rate_limits.window_start + ${this.windowMs} <= excluded.window_start`;
    type Row = { count: number; window_start: string | number };
    const result = await this.db.raw<{ rows: Row[] } | Row[]>(
      `insert into rate_limits (key, window_start, count) values (?, ?, 1)
       on conflict (key) do update set
         count = case when ${expired} then 1 else rate_limits.count + 1 end,
         window_start = case when ${expired} then excluded.window_start else rate_limits.window_start end
       returning count, window_start`,
      [key.slice(0, 100), now],
    );
    const rows = Array.isArray(result) ? result : result.rows; // better-sqlite3 answers rows, pg a result
    const count = Number(rows[0].count);
    const end = Number(rows[0].window_start) + this.windowMs;
    return {
      limited: count > this.limit,
      limit: this.limit,
      remaining: Math.max(0, this.limit - count),
      resetAt: Math.ceil(end / 1000),
      retryAfter: Math.max(1, Math.ceil((end - now) / 1000)),
    };
  }
}
