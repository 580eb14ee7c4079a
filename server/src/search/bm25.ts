import type { Knex } from 'knex';

/**
 * BM25's parameters, the same on SQLite and PostgreSQL, for memories and chat. k1 is the textbook
 * 1.2; b is 0.3, not 0.75: memories are short and their lengths vary little in meaning (a long turn
 * of a conversation is not less about each of its words). How it was chosen: docs/performance.md.
 */
export const BM25_K1 = 1.2;
export const BM25_B = 0.3;

/**
 * The textbook IDF, ln(1 + (N - n + 0.5) / (n + 0.5)): always positive, so a word in most of a
 * mind's texts (a speaker's name in a conversation) still counts a little.
 */
export const bm25Idf = (texts: number, holding: number) =>
  // A write between reading the statistics and the counts may leave a count above the total.
  Math.log(1 + (Math.max(texts, holding) - holding + 0.5) / (holding + 0.5));

/** The BM25 score whose relevance is one half (a match on about two of a mind's rarer words), and the curve's power. */
export const RELEVANCE_HALF = 8;
export const RELEVANCE_POWER = 3;

/**
 * A keyword hit's `score` as answers show it: BM25 brought to 0..1 as s³ / (s³ + 8³), monotone and
 * the same for every query and every mind's size, so `min_score` means one thing everywhere (the
 * re-ranking by meaning squashes the same way). Pages are ordered and resumed by BM25 itself.
 */
export const keywordRelevance = (bm25: number) =>
  bm25 <= 0 ? 0 : bm25 ** RELEVANCE_POWER / (bm25 ** RELEVANCE_POWER + RELEVANCE_HALF ** RELEVANCE_POWER);

/**
 * An occurrence of a variant of a question's word (word-variants.ts: "tyres" for "tires") counts
 * this much of one of the word itself: variants find what the word alone would miss, but an exact
 * word is better evidence (docs/performance.md has the measurement).
 */
export const VARIANT_WEIGHT = 0.5;

/** Where a page of ranked hits ended, in page order (score, then the order column, then id, all descending). */
export interface RankPosition {
  score: number;
  at: string;
  id: string;
}

/** A ranked search over one mind's texts: what both engines are asked (fts5-engine.ts, tsvector-engine.ts). */
export interface RankedQuery {
  mindId: string;
  /** The question's terms: each a word and its variants (word-variants.ts), the word first. */
  groups: string[][];
  /** What a hit must meet besides holding a term (the area's filters) on the ranking row `r`, with their bindings in order. */
  conditions: string[];
  conditionBindings: Knex.RawBinding[];
  /** SQL over `r` multiplying a hit's score (memories' verified boost), or '1'; no bindings. */
  boost: string;
  /** The page order after the score, both descending: a timestamp column, then `id`. */
  orderColumn: string;
  after?: RankPosition;
  limit: number;
}
