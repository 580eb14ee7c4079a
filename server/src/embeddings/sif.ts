import type { WordLinks } from './word-links.js';
import { baseForms, STOP_WORDS, tokens } from './tokens.js';
import type { WordTable } from './word-table.js';

/**
 * Smooth inverse frequency sentence vectors (Arora, Liang, Ma: "A simple but tough-to-beat baseline
 * for sentence embeddings", 2017): the average of the word vectors, each weighted a / (a + p(w))
 * so frequent words count little, then the common component (the first principal component of
 * many sentences' vectors, a direction every sentence shares) taken out.
 */
export interface SifOptions {
  /** SIF's a: smaller weighs frequent words down more. */
  a: number;
  /** Weight factor of a capitalised word inside a sentence (a name: keyword search finds those). */
  nameWeight: number;
}

/** Tuned on bench/recall-eval (its README has the numbers). */
export const SIF_DEFAULTS: SifOptions = { a: 1e-3, nameWeight: 0.3 };

/** GloVe 6B's vocabulary is 400,000 words; p(rank) follows Zipf's law over it. */
const VOCABULARY = 400_000;
const HARMONIC = Math.log(VOCABULARY) + 0.5772156649;
export const zipfProbability = (rank: number) => 1 / ((rank + 1) * HARMONIC);

export class SifEncoder {
  /** Per row of the table: the SIF weight a / (a + p(w)). */
  readonly wordWeights: Float32Array;
  /** WordNet's links between rows (word-links.ts), for the re-ranking's word alignment; not in the sentence vectors. */
  links: WordLinks | undefined;

  constructor(
    readonly table: WordTable,
    readonly options: SifOptions = SIF_DEFAULTS,
    /** Unit vector to remove; zeros removes nothing. */
    public commonComponent: Float32Array = new Float32Array(table.dim),
  ) {
    const { a } = options;
    this.wordWeights = Float32Array.from(table.ranks, (rank) => a / (a + zipfProbability(rank)));
  }

  get dim(): number {
    return this.table.dim;
  }

  /** The sentence's vector, unit length (all zeros when no word of it is known). */
  encode(text: string): Float32Array {
    const out = this.average(text);
    const unit = this.commonComponent;
    let dot = 0;
    for (let d = 0; d < out.length; d++) dot += out[d]! * unit[d]!;
    for (let d = 0; d < out.length; d++) out[d]! -= dot * unit[d]!;
    return normalise(out);
  }

  /** The weighted average before the common component is removed (what the component is computed from). */
  average(text: string): Float32Array {
    const { dim, index, vectors, scales } = this.table;
    const sum = new Float32Array(dim);
    let count = 0;
    for (const { word, name } of tokens(text)) {
      if (STOP_WORDS.has(word)) continue;
      let row = index.get(word);
      if (row === undefined) {
        const base = baseForms(word).find((form) => index.has(form));
        if (base === undefined) continue;
        row = index.get(base)!;
      }
      count++;
      const factor = this.wordWeights[row]! * scales[row]! * (name ? this.options.nameWeight : 1);
      const offset = row * dim;
      for (let d = 0; d < dim; d++) sum[d]! += vectors[offset + d]! * factor;
    }
    if (count > 0) for (let d = 0; d < dim; d++) sum[d]! /= count;
    return sum;
  }
}

export function normalise(vector: Float32Array): Float32Array {
  let norm = 0;
  for (const v of vector) norm += v * v;
  norm = Math.sqrt(norm);
  if (norm > 0) for (let d = 0; d < vector.length; d++) vector[d]! /= norm;
  return vector;
}

/**
 * The common component without a corpus to ship: the first principal component of `count`
 * pseudo-sentences of 8 words drawn by Zipf's law from the 50,000 most frequent words (seeded, so
 * every build gets the same). On the evaluation set this scores within 0.03 recall@5 of the distractor
 * notes' own component (bench/recall-eval/README.md), without using any of its text.
 */
export function zipfCommonComponent(encoder: SifEncoder, count = 3000): Float32Array {
  const { words } = encoder.table;
  const limit = Math.min(50_000, words.length);
  let seed = 7;
  const random = () => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed / 2 ** 31;
  };
  const rows: Float32Array[] = [];
  for (let i = 0; i < count; i++) {
    const sentence = Array.from({ length: 8 }, () => words[Math.floor(Math.exp(random() * Math.log(limit)))] ?? '');
    rows.push(encoder.average(sentence.join(' ')));
  }
  return firstPrincipalComponent(rows, encoder.dim);
}

/** Top eigenvector of the rows' (uncentred) second-moment matrix, by power iteration from a fixed start. */
export function firstPrincipalComponent(rows: Float32Array[], dim: number): Float32Array {
  let vector = new Float64Array(dim).fill(1 / Math.sqrt(dim));
  for (let step = 0; step < 100; step++) {
    const next = new Float64Array(dim);
    for (const row of rows) {
      let dot = 0;
      for (let d = 0; d < dim; d++) dot += row[d]! * vector[d]!;
      for (let d = 0; d < dim; d++) next[d]! += dot * row[d]!;
    }
    const norm = Math.sqrt(next.reduce((t, v) => t + v * v, 0)) || 1;
    vector = next.map((v) => v / norm);
  }
  return Float32Array.from(vector);
}
