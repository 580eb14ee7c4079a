/**
 * Common words, stop words found by frequency (as Elasticsearch's cutoff_frequency), the same rule
 * on both engines (memories' recall uses it; chat's windows are small enough to go without). Scoring
 * a word costs a BM25 evaluation for every text that holds it, yet a word in many texts weighs
 * little: its IDF is at most ln 9 ≈ 2.2 at a tenth of them (a word in one text in a thousand: 6.9),
 * 0 at half. A word in at least COMMON_WORD_SHARE of the mind's indexed texts, and in at least
 * COMMON_WORD_MIN_TEXTS of them, gets weight 0: the texts holding one of the other words come
 * first, ranked by BM25 over those words; then, with score 0 and newest first, those that hold only
 * common words. Below 1,000 texts nothing changes.
 */
export const COMMON_WORD_SHARE = 0.1;
export const COMMON_WORD_MIN_TEXTS = 1000;

/** How many of a mind's `texts` indexed texts a word (with its variants, summed) must be in to be common. */
export const commonWordThreshold = (texts: number) => Math.max(COMMON_WORD_MIN_TEXTS, Math.ceil(texts * COMMON_WORD_SHARE));

/** The newest texts the common words' page checks first, before it asks the index (common words are in a tenth of them). */
export const COMMON_WORDS_WINDOW = 400;

/** A question's terms (each a word and its variants) split into those ranked by BM25 and the common ones. */
export interface SplitTerms {
  ranked: string[][];
  common: string[][];
}

/** Splits `groups` by how many of the mind's `texts` hold each (`holding`: a term's count, its variants' summed). */
export function splitByCommonness(groups: string[][], texts: number, holding: (group: string[]) => number): SplitTerms {
  const threshold = commonWordThreshold(texts);
  return { ranked: groups.filter((g) => holding(g) < threshold), common: groups.filter((g) => holding(g) >= threshold) };
}
