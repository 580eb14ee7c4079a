/**
 * Answers many lookups of one kind with few statements: while `maxInFlight` statements run, the
 * lookups that arrive wait and then go together in the next one, each key once (most concurrent
 * requests of an agent carry the same Mind Key). Nothing is cached: every answer comes from a
 * statement sent after its lookup arrived, so a key revoked before a request came is never taken.
 * With nothing in flight a lookup is sent at once and waits for nothing.
 */
export class LookupBatcher<Key, Value> {
  private waiting = new Map<Key, Array<{ resolve: (value: Value | undefined) => void; reject: (err: unknown) => void }>>();
  private inFlight = 0;

  constructor(
    /** Answers the keys it finds; a key it leaves out is not found. */
    private readonly load: (keys: Key[]) => Promise<Map<Key, Value>>,
    private readonly maxInFlight: number,
  ) {}

  get(key: Key): Promise<Value | undefined> {
    return new Promise((resolve, reject) => {
      const waiters = this.waiting.get(key);
      if (waiters) waiters.push({ resolve, reject });
      else this.waiting.set(key, [{ resolve, reject }]);
      if (this.inFlight < this.maxInFlight) void this.send();
    });
  }

  private async send() {
    const batch = this.waiting;
    this.waiting = new Map();
    this.inFlight++;
    try {
      const found = await this.load([...batch.keys()]);
      for (const [key, waiters] of batch) for (const waiter of waiters) waiter.resolve(found.get(key));
    } catch (err) {
      for (const waiters of batch.values()) for (const waiter of waiters) waiter.reject(err);
    } finally {
      this.inFlight--;
      if (this.waiting.size > 0) void this.send();
    }
  }
}
