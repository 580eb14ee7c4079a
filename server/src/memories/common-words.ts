/**
 * Common words, stop words found by frequency (as Elasticsearch's cutoff_frequency), the same rule
 * on SQLite (recall-sqlite.ts) and PostgreSQL (keyword-index-postgres.ts). Scoring a word costs a
 * BM25 evaluation for every memory that holds it, yet a word in many memories weighs little: its IDF
 * is at most ln 9 ≈ 2.2 at a tenth of them (a word in one memory in a thousand: 6.9), 0 at half. A
 * word in at least this share of the mind's indexed memories, and in at least
 * COMMON_WORD_MIN_MEMORIES of them, gets weight 0 in recall: the memories holding one of the other
 * words come first, ranked by BM25 over those words; then, with score 0 and newest first, those
 * that hold only common words. Below 1,000 memories nothing changes.
 */
export const COMMON_WORD_SHARE = 0.1;
export const COMMON_WORD_MIN_MEMORIES = 1000;

/** How many of a mind's `memories` indexed memories a word (with its variants, summed) must be in to be common. */
export const commonWordThreshold = (memories: number) => Math.max(COMMON_WORD_MIN_MEMORIES, Math.ceil(memories * COMMON_WORD_SHARE));

/** The newest memories the common words' page checks first, before it asks the index (common words are in a tenth of them). */
export const COMMON_WORDS_WINDOW = 400;
