import type { Conn } from '../db/database.js';
import { bufferToVector, vectorsSince } from './store.js';

/** A memory near the query: its seq and the cosine similarity of their (unit) vectors. */
export interface Neighbour {
  seq: number;
  similarity: number;
}

/** The nearest neighbours, and the newest stored time the search saw (for the next pages). */
export interface Nearest {
  neighbours: Neighbour[];
  asOf: string;
}

/** How far back each refresh reads: longer than a batch's transaction takes from its timestamp to its commit. */
const COMMIT_MARGIN_MS = 2_000;

/** Up to this many vectors a mind is scanned exactly; above it the sign bits pick candidates first. */
const EXACT_SCAN_MAX = 4096;

/**
 * One mind's vectors in memory: a float32 matrix (row per memory) and each row's sign bits. A search
 * ranks every row by the Hamming distance of the sign bits (a few integer operations per row), then
 * computes the exact similarity of the closest candidates only: over 100,000 memories of 100
 * dimensions that is about 1 ms where an exact scan takes 13 ms (and sqlite-vec's exact scan 22 ms;
 * docs/architecture.md).
 */
class MindVectors {
  private seqs: number[] = [];
  /** When each row's vector was stored (embedded_at). */
  private times: string[] = [];
  private readonly rowOf = new Map<number, number>();
  private matrix: Float32Array;
  private bits: Uint32Array;
  private readonly words: number;
  /** The newest embedded_at loaded; the next refresh reads from it on. */
  since: string | undefined;
  /** When (this process's clock) `since` last moved, and the `since` whose late commits were all read. */
  sinceMovedAt = 0;
  settledFor: string | undefined;

  constructor(readonly dims: number) {
    this.words = Math.ceil(dims / 32);
    this.matrix = new Float32Array(dims * 64);
    this.bits = new Uint32Array(this.words * 64);
  }

  get size() {
    return this.seqs.length;
  }

  /** Whether the row of `seq` holds the vector stored at `embeddedAt` already. */
  has(seq: number, embeddedAt: string): boolean {
    const row = this.rowOf.get(seq);
    return row !== undefined && this.times[row] === embeddedAt;
  }

  get bytes() {
    return this.matrix.byteLength + this.bits.byteLength + this.seqs.length * 24;
  }

  put(seq: number, vector: Float32Array, embeddedAt: string) {
    if (vector.length !== this.dims) return; // another model's dimension: not comparable
    let row = this.rowOf.get(seq);
    if (row === undefined) {
      row = this.seqs.length;
      this.seqs.push(seq);
      this.times.push(embeddedAt);
      this.rowOf.set(seq, row);
      if ((row + 1) * this.dims > this.matrix.length) this.grow();
    }
    this.times[row] = embeddedAt;
    this.matrix.set(vector, row * this.dims);
    const base = row * this.words;
    this.bits.fill(0, base, base + this.words);
    for (let d = 0; d < this.dims; d++) if (vector[d]! > 0) this.bits[base + (d >>> 5)]! |= 1 << (d & 31);
  }

  private grow() {
    const matrix = new Float32Array(this.matrix.length * 2);
    matrix.set(this.matrix);
    this.matrix = matrix;
    const bits = new Uint32Array(this.bits.length * 2);
    bits.set(this.bits);
    this.bits = bits;
  }

  /** The k nearest rows among those stored at or before `asOf` (all without it). */
  nearest(query: Float32Array, k: number, asOf?: string): Neighbour[] {
    const n = this.seqs.length;
    if (n === 0 || query.length !== this.dims) return [];
    const rows = n <= EXACT_SCAN_MAX ? undefined : this.candidates(query, Math.max(k * 8, 512));
    const visible = (row: number) => asOf === undefined || this.times[row]! <= asOf;
    const scored: Neighbour[] = [];
    const score = (row: number) => {
      let dot = 0;
      const offset = row * this.dims;
      for (let d = 0; d < this.dims; d++) dot += this.matrix[offset + d]! * query[d]!;
      scored.push({ seq: this.seqs[row]!, similarity: dot });
    };
    if (rows) {
      for (const row of rows) if (visible(row)) score(row);
    } else {
      for (let row = 0; row < n; row++) if (visible(row)) score(row);
    }
    scored.sort((a, b) => b.similarity - a.similarity || b.seq - a.seq);
    return scored.slice(0, k);
  }

  /** The rows whose sign bits differ least from the query's: at least `count`, ties included. */
  private candidates(query: Float32Array, count: number): number[] {
    const q = new Uint32Array(this.words);
    for (let d = 0; d < this.dims; d++) if (query[d]! > 0) q[d >>> 5]! |= 1 << (d & 31);
    const n = this.seqs.length;
    const distance = new Uint16Array(n);
    const histogram = new Uint32Array(this.dims + 1);
    for (let row = 0; row < n; row++) {
      let differing = 0;
      const base = row * this.words;
      for (let w = 0; w < this.words; w++) differing += popcount(this.bits[base + w]! ^ q[w]!);
      distance[row] = differing;
      histogram[differing]!++;
    }
    let threshold = 0;
    for (let seen = histogram[0]!; seen < count && threshold < this.dims; seen += histogram[++threshold]!);
    const rows: number[] = [];
    for (let row = 0; row < n; row++) if (distance[row]! <= threshold) rows.push(row);
    return rows;
  }
}

/**
 * After which stored time a refresh reads. A batch stamped before `since` may commit after it was
 * read, within COMMIT_MARGIN_MS of its stamp: while `since` is that fresh, each refresh reads back the
 * margin (rows it has are not decoded again), and once more when it has passed; after that only rows
 * stored after `since`, usually none.
 */
function refreshFrom(mind: MindVectors): string | undefined {
  if (!mind.since || mind.settledFor === mind.since) return mind.since;
  if (Date.now() - mind.sinceMovedAt > COMMIT_MARGIN_MS) mind.settledFor = mind.since;
  return new Date(Date.parse(mind.since) - COMMIT_MARGIN_MS).toISOString();
}

function popcount(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (((x + (x >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

/**
 * The vectors of recently searched minds, kept in step with memory_vectors: before each search the
 * rows stored since the newest one seen are read (an indexed range, usually empty; see refreshFrom),
 * so vectors written by another instance are seen too (on PostgreSQL they carry the database's time,
 * so the instances' clocks do not matter). Deleted memories may linger here; recall drops them when it reads
 * the rows. Least recently used minds are dropped beyond `maxBytes`.
 */
export class VectorIndex {
  private readonly minds = new Map<string, MindVectors>();

  constructor(
    private readonly model: string,
    private readonly maxBytes: number,
  ) {}

  /**
   * The k nearest memories; with `asOf`, among the vectors stored at or before it (a later page of a
   * search). `asOf` in the answer: the newest stored time the search saw, for the next pages.
   */
  async nearest(conn: Conn, mindId: string, query: Float32Array, k: number, asOf?: string): Promise<Nearest> {
    let mind = this.minds.get(mindId);
    if (mind?.dims !== undefined && mind.dims !== query.length) mind = undefined;
    const rows = await vectorsSince(conn, mindId, this.model, mind ? refreshFrom(mind) : undefined);
    if (!mind) mind = new MindVectors(query.length);
    for (const row of rows) if (!mind.has(row.seq, row.embeddedAt)) mind.put(row.seq, bufferToVector(row.bytes), row.embeddedAt);
    const newest = rows.at(-1)?.embeddedAt;
    if (newest && (!mind.since || newest > mind.since)) {
      mind.since = newest;
      mind.sinceMovedAt = Date.now();
    }
    this.minds.delete(mindId); // re-inserted last: the Map's order is the LRU order
    this.minds.set(mindId, mind);
    this.evict();
    return { neighbours: mind.nearest(query, k, asOf), asOf: asOf ?? mind.since ?? '' };
  }

  private evict() {
    let total = 0;
    for (const mind of this.minds.values()) total += mind.bytes;
    for (const [mindId, mind] of this.minds) {
      if (total <= this.maxBytes || this.minds.size === 1) break;
      total -= mind.bytes;
      this.minds.delete(mindId);
    }
  }
}
