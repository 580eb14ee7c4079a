import { searchWords } from './words.js';

const NOT_ASCII = /[^\p{ASCII}]/u;
const isWordChar = (c: number) => (c >= 97 && c <= 122) || (c >= 48 && c <= 57);

/**
 * Whether a text holds a search word (words.ts), as `searchWords(text).includes(word)` says.
 * An ASCII text is searched in place, the word standing alone between non-letters (a tenth of the
 * cost of splitting it, which a window of long texts would pay on every recall or chat search); any
 * other text is split as the index splits it.
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
