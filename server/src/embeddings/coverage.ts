// How much of a question a re-ranked text holds (rerank.ts weighs its keyword part by it).
import { VARIANT_WEIGHT } from '../search/bm25.js';
import { wordsOf } from '../search/word-lookup.js';
import { wordVariants } from '../search/word-variants.js';
import { rankingWords, searchWords } from '../search/words.js';

export { wordsOf };

/** The question's terms as coverage reads them: each ranking word with its variants. */
export const questionTerms = (q: string): string[][] => rankingWords(searchWords(q)).map(wordVariants);

/**
 * The share of the question's terms (each a word and its variants, word-variants.ts) among
 * `words`: a term counts 1 for the word itself, VARIANT_WEIGHT for a variant only. Holding `enough`
 * terms counts as holding the whole question: a long question's answer rarely repeats all of it.
 */
export function coverage(terms: readonly string[][], holds: (word: string) => boolean, enough = Number.POSITIVE_INFINITY): number {
  if (terms.length === 0) return 1;
  return Math.min(1, termsHeld(terms, holds) / Math.min(terms.length, enough));
}

/** How many of the question's terms `words` holds: 1 for a word itself, VARIANT_WEIGHT for a variant only. */
export function termsHeld(terms: readonly string[][], holds: (word: string) => boolean): number {
  let held = 0;
  for (const [word, ...variants] of terms) {
    if (holds(word!)) held += 1;
    else if (variants.some(holds)) held += VARIANT_WEIGHT;
  }
  return held;
}
