import { FRAMED_QUESTION_WORDS, FRAMING_WORDS } from './framing-words.js';
import { STOP_WORDS } from './stop-words.js';

/**
 * Words for the keyword index and for queries, made the same way on both sides and for memories
 * and chat alike: runs of letters and digits, lower-cased, accents removed. Queries use them as
 * quoted terms, so nothing a user types is ever read as FTS5 or tsquery syntax.
 */
export function searchWords(text: string): string[] {
  const folded = text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase();
  return folded.match(/[\p{L}\p{N}]+/gu) ?? [];
}

/**
 * Every word SQLite indexes carries its mind (`m` + the mind id's 32 hex digits, fixed length), so
 * the index itself keeps minds apart: a search reads only its own mind's postings, and a word's
 * document frequency (BM25's IDF) counts its own mind only. The FTS5 tokenizer `ascii` splits only at
 * ASCII separators and the words hold none, so no word can be split into another mind's.
 */
export const mindPrefix = (mindId: string) => `m${mindId.replaceAll('-', '').toLowerCase()}`;

/**
 * A text's length as BM25 weighs it: its distinct words that are not stop words (the words a
 * question is ranked by), the same on SQLite and PostgreSQL (the tsvector's length without them).
 */
export const documentLength = (words: readonly string[]) => new Set(words.filter((w) => !STOP_WORDS.has(w))).size;

/**
 * The words a query is ranked by: its words that are not stop words (or all of them if none is
 * left), and of a long question only those that name its subject (framing-words.ts).
 */
export function rankingWords(words: readonly string[]): string[] {
  const meaningful = words.filter((w) => !STOP_WORDS.has(w));
  if (meaningful.length === 0) return [...words];
  const topical = meaningful.filter((w) => !FRAMING_WORDS.has(w));
  return new Set(topical).size >= FRAMED_QUESTION_WORDS ? topical : meaningful;
}

/** Words as SQLite's index holds them: each with its mind's prefix, separated by spaces. */
export function indexedText(mindId: string, words: readonly string[]): string {
  const prefix = mindPrefix(mindId);
  return words.map((w) => prefix + w).join(' ');
}
