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
