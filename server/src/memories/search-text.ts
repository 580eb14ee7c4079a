/**
 * Words for the full-text index and for queries, made the same way on both sides: runs of letters
 * and digits, lower-cased, accents removed. Queries use them as quoted terms, so nothing a user
 * types is ever read as FTS5 syntax (AND, NEAR, *, quotes, colons).
 */
export function searchWords(text: string): string[] {
  const folded = text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase();
  return folded.match(/[\p{L}\p{N}]+/gu) ?? [];
}

/**
 * Every indexed word carries its mind (`m` + the mind id's 32 hex digits, fixed length), so the
 * index itself keeps minds apart: a search reads only its own mind's postings, however many other
 * minds use the same word, and a word's document frequency (BM25's IDF) counts its own mind only.
 */
export const mindPrefix = (mindId: string) => `m${mindId.replaceAll('-', '').toLowerCase()}`;

export const indexedText = (prefix: string, text: string) =>
  searchWords(text)
    .map((w) => prefix + w)
    .join(' ');
