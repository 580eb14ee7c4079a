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
 * SQLite's index splits only at ASCII separators (tokenizer `ascii`, migration 0530), and the words
 * hold none, so it stores exactly these prefixed words: no word can be split into another mind's.
 */
export const mindPrefix = (mindId: string) => `m${mindId.replaceAll('-', '').toLowerCase()}`;

export const indexedText = (prefix: string, words: string[]) => words.map((w) => prefix + w).join(' ');

/**
 * What SQLite's index holds for a memory: the indexed text of its key, content and tags, and its
 * length in words (BM25's document length).
 */
export function indexEntry(mindId: string, key: string | null, content: string, tags: string[]) {
  const prefix = mindPrefix(mindId);
  const fields = [searchWords(key ?? ''), searchWords(content), searchWords(tags.join(' '))];
  return {
    texts: fields.map((words) => indexedText(prefix, words)) as [key: string, content: string, tags: string],
    words: fields.reduce((n, words) => n + words.length, 0),
  };
}
