/**
 * Read-your-writes for recall (`wait_ms`): a request waits, bounded, until its mind has no memory
 * queued for embedding. The worker wakes a mind's waiters when it stored a batch with that mind's
 * memories; each waiter also looks at the queue itself every `pollMs`, for the embeddings other
 * processes store (another instance on PostgreSQL, `mind-service reindex` on SQLite). Nothing is
 * held while waiting: each look is one short query on the pool.
 */
export class PendingWaits {
  /** Per mind, the wake-ups of the requests waiting for it. */
  private readonly waiters = new Map<string, Set<() => void>>();

  constructor(
    private readonly pending: (mindId: string) => Promise<number>,
    /** Asks the worker to look at the queue now rather than after its gathering delay. */
    private readonly hurry: () => void,
    private readonly pollMs: number,
  ) {}

  /** The worker stored vectors of these minds: their waiters look at the queue again. */
  embedded(mindIds: Iterable<string>): void {
    for (const mindId of mindIds) for (const wake of this.waiters.get(mindId) ?? []) wake();
  }

  /**
   * Resolves with the mind's pending embeddings once there are none, or when `ms` passed or `signal`
   * aborted (the caller went away), whichever comes first.
   */
  async wait(mindId: string, ms: number, signal?: AbortSignal): Promise<number> {
    const deadline = Date.now() + ms;
    let pending = await this.pending(mindId);
    if (pending > 0 && ms > 0) this.hurry();
    while (pending > 0 && !signal?.aborted) {
      const left = deadline - Date.now();
      if (left <= 0) break;
      await this.nap(mindId, Math.min(left, this.pollMs), signal);
      if (signal?.aborted) break;
      pending = await this.pending(mindId);
    }
    return pending;
  }

  /** Sleeps `ms`, or less when the worker embedded some of the mind's memories or `signal` aborts. */
  private nap(mindId: string, ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise<void>((resolve) => {
      const mine = this.waiters.get(mindId) ?? new Set<() => void>();
      this.waiters.set(mindId, mine);
      const done = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', done);
        mine.delete(done);
        if (mine.size === 0 && this.waiters.get(mindId) === mine) this.waiters.delete(mindId);
        resolve();
      };
      const timer = setTimeout(done, ms);
      mine.add(done);
      signal?.addEventListener('abort', done, { once: true });
    });
  }
}
