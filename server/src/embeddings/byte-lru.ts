/**
 * A least-recently-used map bounded by an estimate of the bytes it holds (not by a count: entries
 * differ a hundredfold in size). The oldest entries go until a new one fits; one larger than the
 * whole budget is not kept at all.
 */
export class ByteLru<V> {
  // A Map iterates in insertion order: an entry used again is re-inserted last.
  private readonly entries = new Map<string, { value: V; bytes: number }>();
  private held = 0;

  constructor(readonly maxBytes: number) {}

  /** Estimated bytes of a string key in V8 (two per UTF-16 unit) plus the Map entry. */
  static keyBytes(key: string): number {
    return 2 * key.length + 64;
  }

  get size(): number {
    return this.entries.size;
  }

  /** Estimated bytes held (keys, values and entries). */
  get bytes(): number {
    return this.held;
  }

  get(key: string): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.value;
  }

  /** Keeps `value` under `key`; `valueBytes` is its estimated size (the key's is added here). */
  set(key: string, value: V, valueBytes: number): void {
    this.delete(key);
    const bytes = ByteLru.keyBytes(key) + valueBytes;
    if (bytes > this.maxBytes) return;
    while (this.held + bytes > this.maxBytes) this.delete(this.entries.keys().next().value!);
    this.entries.set(key, { value, bytes });
    this.held += bytes;
  }

  /** The value's size changed (e.g. a part computed later was added to it). */
  grow(key: string, moreBytes: number): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.delete(key);
    this.set(key, entry.value, entry.bytes - ByteLru.keyBytes(key) + moreBytes);
  }

  delete(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.held -= entry.bytes;
  }
}
