import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { SIF_DEFAULTS, SifEncoder, type SifOptions, zipfCommonComponent } from './sif.js';
import {
  decodeCache,
  encodeCache,
  RANK_LIMIT,
  readCacheFile,
  readSourceTable,
  SOURCE_PACKAGE,
  sourceInfo,
  writeFileAtomic,
} from './word-table.js';
import { loadWordLinks } from './word-links.js';

/**
 * The local embedder's model, loaded once per thread: the word table from the cache in the data
 * directory, built there from the npm package on first use (or when the cache is missing, damaged
 * or made for another model or package version), and WordNet's links between its words, cached the
 * same way (word-links.ts).
 */

/** Stored with each vector: a change to the table, the weights or the tokens needs a new name (vectors of two versions do not compare). */
export const LOCAL_MODEL = 'local-glove100-sif-v1';
export const CACHE_FILE = `${LOCAL_MODEL}.bin`;

export interface LocalModelOptions {
  /** Where the cache file lives (the data directory, or a folder in it). */
  cacheDir: string;
  sif?: SifOptions;
  /** Called once with what happened: the cache was read, or built (and why). */
  onLoad?: (info: LoadInfo) => void;
}

export interface LoadInfo {
  built: boolean;
  /** Why it was built: no cache, or what was wrong with it. */
  reason?: string;
  ms: number;
  words: number;
  dim: number;
  file: string;
}

export async function loadLocalModel(options: LocalModelOptions): Promise<SifEncoder> {
  const started = performance.now();
  const sif = options.sif ?? SIF_DEFAULTS;
  const source = sourceInfo();
  // The SIF settings shape the stored common component, so they are part of what a cache was built for.
  const expect = {
    model: `${LOCAL_MODEL} a=${sif.a} names=${sif.nameWeight} ranks<${RANK_LIMIT}`,
    source: `${SOURCE_PACKAGE}@${source.version}`,
  };
  const file = join(options.cacheDir, CACHE_FILE);
  const cached = await readCacheFile(file);
  const decoded = cached ? decodeCache(cached, expect) : 'no cache file';
  if (typeof decoded !== 'string') {
    const encoder = new SifEncoder(decoded.table, sif, decoded.extra);
    encoder.links = await loadWordLinks(options.cacheDir, decoded.table.words);
    options.onLoad?.({ built: false, ms: performance.now() - started, words: decoded.table.words.length, dim: decoded.table.dim, file });
    return encoder;
  }
  const table = await readSourceTable(source.file);
  const encoder = new SifEncoder(table, sif);
  encoder.commonComponent = zipfCommonComponent(encoder);
  await mkdir(options.cacheDir, { recursive: true });
  await writeFileAtomic(file, encodeCache(table, expect, encoder.commonComponent));
  encoder.links = await loadWordLinks(options.cacheDir, table.words);
  options.onLoad?.({ built: true, reason: decoded, ms: performance.now() - started, words: table.words.length, dim: table.dim, file });
  return encoder;
}
