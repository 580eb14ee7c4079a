import type { SifEncoder } from './sif.js';
import { baseForms, STOP_WORDS, tokens } from './tokens.js';

// A text's words as the re-ranking's word alignment reads them (rerank.ts).

/** A text's content words as rows of the word table, with their weights. */
export interface Bag {
  rows: Int32Array;
  weights: Float32Array;
  /** Words missing from the table, matched by spelling only. */
  unknown: string[];
  unknownWeight: number;
}

/** Known words of a text the word alignment looks at, at most. */
export const ALIGN_WORDS = 48;

/** The content words of a text (stop words left out; names weighed as in the sentence vectors). */
export function wordBag(encoder: SifEncoder, text: string): Bag {
  const { index } = encoder.table;
  const nameWeight = encoder.options.nameWeight;
  const rows: number[] = [];
  const weights: number[] = [];
  const unknown: string[] = [];
  let unknownWeight = 0;
  for (const { word, name } of tokens(text)) {
    if (STOP_WORDS.has(word)) continue;
    let row = index.get(word);
    if (row === undefined) {
      const base = baseForms(word).find((form) => index.has(form));
      if (base !== undefined) row = index.get(base);
    }
    const factor = name ? nameWeight : 1;
    if (row === undefined) {
      if (!unknown.includes(word)) {
        unknown.push(word);
        unknownWeight += factor;
      }
    } else if (!rows.includes(row)) {
      rows.push(row);
      weights.push(encoder.wordWeights[row]! * factor);
    }
  }
  // The most telling words only (highest weight: the rarest), so aligning a long memory costs what a
  // short one does; short texts (a turn, a note) keep every word.
  if (rows.length > ALIGN_WORDS) {
    const kept = rows
      .map((_, i) => i)
      .sort((a, b) => weights[b]! - weights[a]! || a - b)
      .slice(0, ALIGN_WORDS);
    return {
      rows: Int32Array.from(kept, (i) => rows[i]!),
      weights: Float32Array.from(kept, (i) => weights[i]!),
      unknown,
      unknownWeight,
    };
  }
  return { rows: Int32Array.from(rows), weights: Float32Array.from(weights), unknown, unknownWeight };
}

/** Estimated bytes a bag adds to its text's memo entry. */
export function bagBytes(bag: Bag): number {
  return 8 * bag.rows.length + bag.unknown.reduce((t, w) => t + 2 * w.length + 32, 0);
}
