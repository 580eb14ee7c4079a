import type { Knex } from 'knex';

/**
 * BM25's parameters, the same on SQLite and PostgreSQL, for memories and chat. k1 is the textbook
 * 1.2; b is 1, full length normalisation: in real conversations a long turn holds every question's
 * words once and crowded out the short turn that states the fact. How it was chosen: docs/performance.md.
 */
export const BM25_K1 = 1.2;
export const BM25_B = 1;
// A term counts once in a text (its frequency is 1 or 0, VARIANT_WEIGHT for a variant only), as a
// text's length counts distinct words: a long turn that repeats a word no longer outweighs a short
// one that says it once.

/** BM25's length factor, k1 · (1 - b + b · length / average); `ratio` is SQL for length / average. */
export const lengthNorm = (ratio: string) => `${BM25_K1} * (${1 - BM25_B} + ${BM25_B} * ${ratio})`;

/**
 * The textbook IDF, ln(1 + (N - n + 0.5) / (n + 0.5)): always positive, so a word in most of a
 * mind's texts (a speaker's name in a conversation) still counts a little.
 */
export const bm25Idf = (texts: number, holding: number) =>
  // A write between reading the statistics and the counts may leave a count above the total.
  Math.log(1 + (Math.max(texts, holding) - holding + 0.5) / (holding + 0.5));

/**
 * What the terms' weights (IDFs) are divided by: the best BM25 the question could have in the mind,
 * each of its terms in a single text (the highest IDF) once, at average length. A text's score is
 * then BM25 relative to that (1 for a text holding every word of a question of rare words; near 0
 * for one holding words most texts hold), whatever the question's length and the mind's size (which
 * move raw BM25 from about 1 to 50). Pages keep their order (one factor per question);
 * score-calibration.ts maps it to the likelihood of answering.
 */
export const questionScale = (terms: number, texts: number) => terms * bm25Idf(Math.max(texts, 1), 1);

/**
 * The re-ranking's keyword part squashes the relative BM25 as s³ / (s³ + half³): one half at a
 * relative score of 0.25 (about a quarter of the best the question could score).
 */
export const RELEVANCE_HALF = 0.25;
export const RELEVANCE_POWER = 3;

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
