/**
 * BM25's parameters, the same on SQLite and PostgreSQL. k1 is the textbook 1.2; b is 0.3, not 0.75:
 * memories are short and their lengths vary little in meaning (a long turn of a conversation is not
 * less about each of its words), and on bench/conversation-eval's tuning half b = 0.3 found the
 * answering turn in the first five for 0.610 of the questions against 0.585 with 0.75.
 */
export const BM25_K1 = 1.2;
export const BM25_B = 0.3;

/**
 * The textbook IDF, ln(1 + (N - n + 0.5) / (n + 0.5)): always positive, so a word in most of a
 * mind's memories (a speaker's name in a conversation) still counts a little.
 */
export const bm25Idf = (memories: number, holding: number) =>
  // A write between reading the statistics and the counts may leave a count above the total.
  Math.log(1 + (Math.max(memories, holding) - holding + 0.5) / (holding + 0.5));

/** The BM25 score whose relevance is one half (a match on about two of a mind's rarer words), and the curve's power. */
export const RELEVANCE_HALF = 8;
export const RELEVANCE_POWER = 3;

/**
 * A keyword hit's `score` as answers show it: BM25 (verified boost included) brought to 0..1 as
 * s³ / (s³ + 8³), the keyword part of the re-ranking (rerank.ts), monotone, and the same for every query and every mind's size of the same words,
 * so `min_score` means one thing everywhere. Pages are ordered and resumed by the BM25 score itself.
 */
export const keywordRelevance = (bm25: number) =>
  bm25 <= 0 ? 0 : bm25 ** RELEVANCE_POWER / (bm25 ** RELEVANCE_POWER + RELEVANCE_HALF ** RELEVANCE_POWER);

/**
 * An occurrence of a variant of a question's word (lib/word-variants.ts: "tyres" for "tires") counts
 * this much of one of the word itself: variants find what the word alone would miss, but an exact
 * word is better evidence (on bench/recall-eval's paraphrases full weight cost 1.5 points of r@5).
 */
export const VARIANT_WEIGHT = 0.5;

/**
 * SQLite: a term's weighted occurrences among fts5vocab `instance` rows `v` grouped by document;
 * binds the group's words in order (the word first, then its variants).
 */
export const sqliteTermFrequency = (group: readonly unknown[]) =>
  group.length === 1
    ? 'sum(v.term = ?)'
    : `(sum(v.term = ?) + ${VARIANT_WEIGHT} * sum(v.term IN (${group
        .slice(1)
        .map(() => '?')
        .join(', ')})))`;
