/** The words of search, for memories and chat alike: how text becomes words, and which words a question is ranked by. */

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

/**
 * A memory's (or message's) length as BM25 weighs it: its distinct words that are not STOP_WORDS (the words a
 * question is ranked by), the same on SQLite and PostgreSQL (length of the tsvector without them).
 */
export const documentLength = (words: readonly string[]) => new Set(words.filter((w) => !STOP_WORDS.has(w))).size;

/**
 * English function words: a question's "what", "did", "the" say nothing about which memory answers
 * it, yet in a mind's few hundred memories they are not rare enough for BM25's IDF to silence them
 * (the common-word rule in recall-sqlite.ts starts at 1,000 memories). Recall ranks by a query's
 * other words on both databases; a query of only such words is searched as it is. Memories are
 * indexed with every word, so nothing needs re-indexing when this list changes.
 */
export const STOP_WORDS: ReadonlySet<string> = new Set(
  (
    'a about above after again against all am an and any are as at be because been before being below between both but by ' +
    'can could did do does doing down during each few for from further had has have having he her here hers herself him ' +
    'himself his how i if in into is it its itself just me more most my myself no nor not now of off on once only or other ' +
    'our ours ourselves out over own same she should so some such than that the their theirs them themselves then there ' +
    'these they this those through to too under until up very was we were what when where which while who whom whose why ' +
    'will with would you your yours yourself yourselves s t d ll m re ve'
  ).split(' '),
);

/** STOP_WORDS as a PostgreSQL text[] literal (plain a-z words: nothing to escape). */
export const STOP_WORDS_SQL_ARRAY = `'{${[...STOP_WORDS].join(',')}}'::text[]`;

/** The words a query is ranked by: its words that are not STOP_WORDS, or all of them if none is left. */
export function rankingWords(words: readonly string[]): string[] {
  const meaningful = words.filter((w) => !STOP_WORDS.has(w));
  return meaningful.length > 0 ? meaningful : [...words];
}
