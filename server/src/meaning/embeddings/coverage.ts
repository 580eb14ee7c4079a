import { VARIANT_WEIGHT } from '../../lib/bm25.js';
import { searchWords } from '../../lib/search-words.js';

// How much of a question a re-ranked text holds (rerank.ts weighs its keyword part by it).

/**
 * The share of the question's terms (each a word and its variants, word-variants.ts) among
 * `words`: a term counts 1 for the word itself, VARIANT_WEIGHT for a variant only.
 */
export function coverage(terms: readonly string[][], holds: (word: string) => boolean): number {
  if (terms.length === 0) return 1;
  let held = 0;
  for (const [word, ...variants] of terms) {
    if (holds(word!)) held += 1;
    else if (variants.some(holds)) held += VARIANT_WEIGHT;
  }
  return held / terms.length;
}

const NOT_ASCII = /[^\p{ASCII}]/u;
const isWordChar = (c: number) => (c >= 97 && c <= 122) || (c >= 48 && c <= 57);

/**
 * Whether a text holds a search word (lib/search-words.ts). An ASCII text is searched in place, the
 * word standing alone between non-letters (a tenth of the cost of splitting it, which a window of
 * new texts would pay on every recall); any other text is split as the index splits it.
 */
export function wordsOf(text: string): (word: string) => boolean {
  if (NOT_ASCII.test(text)) {
    const words = new Set(searchWords(text));
    return (word) => words.has(word);
  }
  const lower = text.toLowerCase();
  return (word) => {
    for (let at = lower.indexOf(word); at >= 0; at = lower.indexOf(word, at + 1)) {
      const end = at + word.length;
      if ((at === 0 || !isWordChar(lower.charCodeAt(at - 1))) && (end === lower.length || !isWordChar(lower.charCodeAt(end)))) return true;
    }
    return false;
  };
}
