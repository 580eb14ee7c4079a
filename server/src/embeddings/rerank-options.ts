import { RELEVANCE_HALF, RELEVANCE_POWER } from '../search/bm25.js';
import { asksSummary } from './answer-type.js';
import { namesSomeone } from './tokens.js';

// The re-ranking's weights (rerank.ts): what each one does, the four sets, and which set a question
// gets (rerankOptionsFor). docs/performance.md has how they were chosen.

export interface RerankOptions {
  /** How many nearest other candidates a memory's density is the mean cosine to. */
  neighbours: number;
  /** Weight of the density taken off the sentence cosine. */
  densityWeight: number;
  /** Share of the word alignment in the meaning part (the rest is the density-corrected cosine, min-max scaled over the window). */
  alignWeight: number;
  /** Word cosines at or below this count 0; above, they are stretched to 0..1 (unrelated GloVe words sit at 0.1-0.35). */
  floor: number;
  /** Share of the query -> memory direction in the alignment (the rest is memory -> query). */
  forwardShare: number;
  /** Keyword part as fusion.ts: weight · s^p / (s^p + half^p); the rest of the score is the meaning part. */
  keywordWeight: number;
  keywordHalf: number;
  keywordPower: number;
  /**
   * The keyword part times coverage^this: coverage is the share of the question's ranking words
   * (search/words.ts, each with its variants at VARIANT_WEIGHT) the candidate's text holds (as
   * re-ranked: for a memory its key, the start of its content and its tags); 0: off.
   */
  keywordCoverage: number;
  /** Holding this many of the question's ranking words counts as full coverage (a long question's answer rarely holds all). */
  coverageWords: number;
  /**
   * What the same word counts in the word alignment (1: as any perfect match). Below 1, the
   * alignment rewards related words more and repeats less of what the keyword part says already.
   */
  exactWeight: number;
  /**
   * How much two words' closeness to the direction all text shares is taken off their cosine in the
   * word alignment (0: off). Such words ("take", "thing", "work") are close to every word: uncorrected,
   * they match whatever a memory says, and a rarer word's true match (dishes, cuisine) counts no more.
   */
  hubWeight: number;
  /**
   * For a question that asks when (answer-type.ts): taken off the score of a candidate that names
   * no time, date, day or recurrence (0: off). The answer to "when" holds one; most texts hold none.
   */
  timeWeight: number;
  /**
   * For a question that asks for advice (answer-type.ts): taken off the score of a candidate that
   * states no preference or standing rule (0: off). What to suggest to someone follows from what
   * they said they prefer, like or always want.
   */
  preferenceWeight: number;
  /**
   * In the word alignment, two words WordNet puts one under the other (word-links.ts: mom/mother,
   * operation/surgery, apple/fruit) count at least this cosine (0: off). GloVe places many such
   * pairs apart: a question's general word and the memory's specific one are rarely used together.
   */
  linkSimilarity: number;
}

/**
 * For a question some keyword hit holds two of the words of (recall/hybrid.ts): the usual question
 * of a conversation's memories. Chosen on real conversations' tuning half (bench/beam-eval), the
 * generated set as a second opinion (the numbers: docs/performance.md).
 */
export const RERANK_DEFAULTS: RerankOptions = {
  neighbours: 3,
  // A turn like many others of its conversation is close to every question about their subject.
  densityWeight: 2,
  // Question words matched one by one, mostly from the question's side: what a conversation's
  // answering turn has and its neighbours lack is one or two specific words.
  alignWeight: 0.8,
  floor: 0.3,
  forwardShare: 0.7,
  keywordWeight: 0.45,
  // The keyword part squashes relative BM25 (search/bm25.ts).
  keywordHalf: RELEVANCE_HALF,
  keywordPower: RELEVANCE_POWER,
  // A hit holding one of a question's words loses most of its keyword part; four of a long
  // question's words are as telling as all of them (an answering turn holds a few).
  keywordCoverage: 2,
  coverageWords: 4,
  exactWeight: 0.8,
  // Measured on conversations, the correction cost hit@5: a turn's matches are in common words.
  hubWeight: 0,
  // On conversations it changed no hit@5 and moved scores off their bands (docs/performance.md).
  timeWeight: 0,
  // Measured on conversations, links gained nothing on the tuning half and cost up to 0.003 (docs/performance.md).
  linkSimilarity: 0,
  // 0.05 ranked fewer of the preferences first, 0.2 no more than 0.1 (docs/performance.md).
  preferenceWeight: 0.1,
};

/**
 * For a question that asks for a summary (answer-type.ts asksSummary): the same, but a memory like
 * many others of the window is not pushed down. The density correction serves a question after one
 * fact, which a turn unlike its neighbours holds; a summary is of what was said most, the turns
 * typical of its subject (measured: docs/performance.md).
 */
export const RERANK_SUMMARY: RerankOptions = { ...RERANK_DEFAULTS, densityWeight: 0 };

/**
 * For a question in other words (no keyword hit holds two of its words: recall reads a wide vector
 * window): a keyword part only for the rare hit that holds most of a short question, the rest by
 * meaning, with words that are close to every word corrected. Chosen on the paraphrase set's dev
 * half (bench/recall-eval), which opens that window for 127 of its 135 questions.
 */
export const RERANK_OTHER_WORDS: RerankOptions = {
  ...RERANK_DEFAULTS,
  densityWeight: 0.75,
  alignWeight: 0.5,
  forwardShare: 1,
  keywordWeight: 0.35,
  // Holding three words counts as all of them (a question of three words or fewer needs all).
  keywordCoverage: 3,
  coverageWords: 3,
  hubWeight: 0.4,
  // Any weight from 0.1 up ranks the same (the time-less candidates all fall behind); 0.1 moves scores least.
  timeWeight: 0.1,
  linkSimilarity: 0.7,
  // On the paraphrase set it put one fact fewer in the first five (docs/performance.md).
  preferenceWeight: 0,
};

/**
 * For a question in other words that names someone ("What hobbies does Jolene have?"): the name,
 * found by words, decides more, and no word is corrected or linked, so that other people's memories
 * of the same kind of thing do not outrank theirs (measured: docs/performance.md).
 */
export const RERANK_NAMED: RerankOptions = { ...RERANK_OTHER_WORDS, keywordWeight: 0.55, hubWeight: 0, linkSimilarity: 0 };

/**
 * The weights for `question`; `wide`: no keyword hit holds two of its words, so the re-ranking reads
 * a wide vector window (recall/hybrid.ts). Recall and chat search choose the same way.
 */
export function rerankOptionsFor(question: string, wide = false): RerankOptions {
  if (wide) return namesSomeone(question) ? RERANK_NAMED : RERANK_OTHER_WORDS;
  return asksSummary(question) ? RERANK_SUMMARY : RERANK_DEFAULTS;
}

/**
 * Where hubWeight's correction is 0: a word this close to the shared direction (the commonest words
 * reach 0.8-0.9, rare ones 0-0.2), chosen with the weight; rarer words' matches gain.
 */
export const HUB_CENTRE = 0.75;
