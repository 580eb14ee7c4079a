import { asksAdvice, asksWhen, holdsTime, statesPreference } from './answer-type.js';
import { ByteLru } from './byte-lru.js';
import { coverage, questionTerms, wordsOf } from './coverage.js';
import type { SifEncoder } from './sif.js';
import { windowDensity } from './window-density.js';
import {
  HUB_CENTRE,
  RERANK_DEFAULTS,
  RERANK_NAMED,
  RERANK_OTHER_WORDS,
  RERANK_SUMMARY,
  rerankOptionsFor,
  type RerankOptions,
} from './rerank-options.js';

export { coverage, windowDensity, wordsOf };
import { type Bag, bagBytes, wordBag } from './word-bag.js';

/**
 * Re-ranking of recall's candidate window (the best keyword and vector hits) by meaning, with the
 * local embedder's word table. Besides the keyword score (squashed as in fusion.ts, and weighed by the
 * share of the question's words the memory holds): the sentence cosine of question and memory, less
 * the memory's density (its mean cosine to its closest other candidates: a memory like many others
 * is close to every question about their shared words), and a word alignment (each content word of
 * the question matched to its closest word of the memory, so one specific/general pair is not diluted
 * by the sentence average); for a question that asks when, whether the memory names a time at all,
 * and for one that asks for advice, whether it states a preference (answer-type.ts). The weights:
 * rerank-options.ts; docs/memories.md describes it, docs/performance.md how it was tuned.
 */
export { RERANK_DEFAULTS, RERANK_NAMED, RERANK_OTHER_WORDS, RERANK_SUMMARY, rerankOptionsFor, type RerankOptions };

export interface RerankCandidate {
  id: string;
  text: string;
  /** The keyword score (BM25 relative to the question's best possible, search/bm25.ts; 0 or absent when not a keyword hit). */
  keywordScore?: number;
  /** Cosine of the query's and the memory's vectors (absent when not a vector hit: computed here). */
  similarity?: number;
}

export interface RerankHit {
  id: string;
  score: number;
}

const aligners = new WeakMap<SifEncoder, WordAligner>();

/** One aligner per loaded model (its constructor walks the whole table once, ~15 ms). */
export function alignerFor(encoder: SifEncoder): WordAligner {
  let aligner = aligners.get(encoder);
  if (!aligner) {
    aligner = new WordAligner(encoder);
    aligners.set(encoder, aligner);
  }
  return aligner;
}

/**
 * Bytes of texts, sentence vectors and word bags kept: a mind's memories come back in window after
 * window. About 25,000 short memories, or 3,500 of the longest (embedded texts are cut, meaning/store.ts).
 */
export const MEMO_BYTES = 32 * 1024 * 1024;

interface Known {
  vector: Float32Array;
  bag?: Bag;
}

export class WordAligner {
  /** Euclidean norm of each row's int8 vector (cosines are taken on the int8 values directly). */
  private readonly norms: Float32Array;
  /** Each row's cosine to the direction all text shares (hubWeight), less HUB_CENTRE. */
  private readonly hubness: Float32Array;
  /** Keyed by scope (the mind) and text: one mind's texts never answer faster for another. */
  readonly memo: ByteLru<Known>;

  constructor(
    readonly encoder: SifEncoder,
    memoBytes = MEMO_BYTES,
  ) {
    this.memo = new ByteLru(memoBytes);
    const { dim, vectors, words } = encoder.table;
    this.norms = new Float32Array(words.length);
    this.hubness = new Float32Array(words.length);
    // The direction all text shares: sif.ts's common component (the vocabulary's mean direction, to
    // 0.99), its arbitrary sign turned towards the most frequent words.
    const common = encoder.commonComponent;
    for (let r = 0; r < words.length; r++) {
      let sum = 0;
      let along = 0;
      for (let d = r * dim; d < (r + 1) * dim; d++) {
        sum += vectors[d]! * vectors[d]!;
        along += vectors[d]! * common[d - r * dim]!;
      }
      this.norms[r] = Math.sqrt(sum) || 1;
      this.hubness[r] = along / this.norms[r]!;
    }
    const sign = Math.sign(this.hubness.subarray(0, 1000).reduce((t, h) => t + h, 0)) || 1;
    for (let r = 0; r < words.length; r++) this.hubness[r] = sign * this.hubness[r]! - HUB_CENTRE;
  }

  /** The content words of a text (word-bag.ts). */
  bag(text: string): Bag {
    return wordBag(this.encoder, text);
  }

  /** A text's sentence vector and (once asked for) word bag, from the memo when it was seen lately. */
  private known(scope: string, text: string): Known {
    const key = `${scope}\u0000${text}`;
    let entry = this.memo.get(key);
    if (!entry) {
      entry = { vector: this.encoder.encode(text) };
      this.memo.set(key, entry, entry.vector.byteLength + 64);
    }
    return entry;
  }

  /** The entry's word bag, read from its text once and kept with it. */
  private bagOf(scope: string, text: string, entry: Known): Bag {
    if (!entry.bag) {
      entry.bag = this.bag(text);
      this.memo.grow(`${scope}\u0000${text}`, bagBytes(entry.bag));
    }
    return entry.bag;
  }

  /**
   * Encodes the candidates' texts not in the memo and reads their words (`withBags`: the alignment
   * is on), until about `budgetChars` of text were read (a text read twice counts twice); true when
   * every one is known (rerank then reads no text but the question). The caller serves other work
   * between calls, so a window of long texts holds the thread for one slice at a time.
   */
  prepare(candidates: readonly RerankCandidate[], scope: string, budgetChars: number, withBags = true): boolean {
    let spent = 0;
    for (const c of candidates) {
      const entry = this.memo.get(`${scope}\u0000${c.text}`);
      const cost = (entry ? 0 : c.text.length) + (withBags && !entry?.bag ? c.text.length : 0);
      if (cost === 0) continue;
      if (spent > 0 && spent + cost > budgetChars) return false;
      const known = entry ?? this.known(scope, c.text);
      if (withBags) this.bagOf(scope, c.text, known);
      spent += cost;
    }
    return true;
  }

  /** Cosine of two rows' word vectors. */
  cosine(a: number, b: number): number {
    if (a === b) return 1;
    const { dim, vectors } = this.encoder.table;
    let dot = 0;
    const oa = a * dim;
    const ob = b * dim;
    for (let d = 0; d < dim; d++) dot += vectors[oa + d]! * vectors[ob + d]!;
    return dot / (this.norms[a]! * this.norms[b]!);
  }

  /**
   * How well the words of `query` are matched in `memory` (forward) and the other way round
   * (backward), each 0..1: the weighted mean over one side's words of the best stretched cosine to
   * the other side's words. With `hubWeight` (rerank-options.ts) each pair's cosine is first lowered
   * by the two words' closeness to the direction all text shares; with `linkSimilarity`, a pair
   * WordNet links counts at least that.
   */
  align(query: Bag, memory: Bag, floor: number, exact = 1, hubWeight = 0, linkSimilarity = 0): { forward: number; backward: number } {
    const nq = query.rows.length;
    const nm = memory.rows.length;
    const bestQ = new Float32Array(nq);
    const bestM = new Float32Array(nm);
    const stretch = 1 / (1 - floor);
    const { hubness } = this;
    const links = linkSimilarity > 0 ? this.encoder.links : undefined;
    for (let i = 0; i < nq; i++) {
      const qi = query.rows[i]!;
      for (let j = 0; j < nm; j++) {
        const mj = memory.rows[j]!;
        let s = exact;
        if (qi !== mj) {
          let c = this.cosine(qi, mj) - (hubWeight > 0 ? hubWeight * (hubness[qi]! + hubness[mj]!) : 0);
          if (links && c < linkSimilarity && links.linked(qi, mj)) c = linkSimilarity;
          if (c <= floor) continue;
          s = (c - floor) * stretch;
        }
        if (s > bestQ[i]!) bestQ[i] = s;
        if (s > bestM[j]!) bestM[j] = s;
      }
    }
    const side = (bag: Bag, best: Float32Array, other: Bag) => {
      let total = bag.unknownWeight;
      let matched = 0;
      for (const word of bag.unknown) if (other.unknown.includes(word)) matched += exact;
      for (let i = 0; i < bag.rows.length; i++) {
        total += bag.weights[i]!;
        matched += bag.weights[i]! * best[i]!;
      }
      return total > 0 ? matched / total : 0;
    };
    return { forward: side(query, bestQ, memory), backward: side(memory, bestM, query) };
  }

  /** The candidates re-ranked, best first (ties keep the given order). */
  rerank(query: string, candidates: readonly RerankCandidate[], options: RerankOptions = RERANK_DEFAULTS, scope = ''): RerankHit[] {
    const n = candidates.length;
    if (n === 0) return [];
    const { dim } = this.encoder;
    const vectors = new Float32Array(n * dim);
    const known = candidates.map((c) => this.known(scope, c.text));
    known.forEach((k, i) => {
      vectors.set(k.vector, i * dim);
    });
    const queryVector = this.encoder.encode(query);
    const density = windowDensity(vectors, n, dim, options.neighbours);
    const {
      keywordWeight,
      keywordHalf,
      keywordPower,
      keywordCoverage,
      coverageWords,
      exactWeight,
      alignWeight,
      densityWeight,
      forwardShare,
      floor,
      hubWeight,
      timeWeight,
      linkSimilarity,
      preferenceWeight,
    } = options;
    const cosine = candidates.map(
      (c, i) => (c.similarity ?? dot(queryVector, vectors.subarray(i * dim, (i + 1) * dim))) - densityWeight * density[i]!,
    );
    const high = Math.max(...cosine);
    const low = Math.min(...cosine);
    const span = high - low;
    const q = alignWeight > 0 ? this.bag(query) : undefined;
    const halfPower = keywordHalf ** keywordPower;
    const terms = questionTerms(query);
    const timeless = timeWeight > 0 && asksWhen(query) ? timeWeight : 0;
    const unpreferred = preferenceWeight > 0 && asksAdvice(query) ? preferenceWeight : 0;
    const scored = candidates.map((c, i) => {
      const s = c.keywordScore ?? 0;
      const lifted = s > 0 ? s ** keywordPower : 0;
      let keyword = lifted / (lifted + halfPower);
      // Read from the text each time (cheap: wordsOf): kept in the memo, word sets would take the room of a third of its entries.
      if (keyword > 0 && keywordCoverage > 0) keyword *= coverage(terms, wordsOf(c.text), coverageWords) ** keywordCoverage;
      let meaning = span > 0 ? (cosine[i]! - low) / span : 1;
      if (q) {
        const { forward, backward } = this.align(q, this.bagOf(scope, c.text, known[i]!), floor, exactWeight, hubWeight, linkSimilarity);
        meaning = alignWeight * (forwardShare * forward + (1 - forwardShare) * backward) + (1 - alignWeight) * meaning;
      }
      let score = keywordWeight * keyword + (1 - keywordWeight) * meaning;
      if (timeless > 0 && !holdsTime(c.text)) score = Math.max(0, score - timeless);
      if (unpreferred > 0 && !statesPreference(c.text)) score = Math.max(0, score - unpreferred);
      return { id: c.id, score, order: i };
    });
    scored.sort((a, b) => b.score - a.score || a.order - b.order);
    return scored.map(({ id, score }) => ({ id, score }));
  }
}

function dot(a: Float32Array, b: Float32Array): number {
  let sum = 0;
  for (let d = 0; d < a.length; d++) sum += a[d]! * b[d]!;
  return sum;
}
