/**
 * Words that frame a question about what was said rather than name its subject: "can you list the
 * order in which I brought up the aspects of my budget tracker throughout our conversations" asks
 * about a budget tracker. In a mind of conversation turns such words are rare enough for BM25 to
 * weigh them high, and they match the turns that talk about lists, orders and conversations. A long
 * question is ranked without them (words.ts rankingWords); a short one keeps every word, since there
 * "order" or "list" may well be the subject. Query side only: texts' lengths do not change.
 */
export const FRAMING_WORDS: ReadonlySet<string> = new Set(
  // Saying and remembering.
  (
    'mention mentioned mentioning mentions bring brought bringing discuss discussed discussing talk talked talking ' +
    'tell told say said ask asked remind remember remembered recall recap summarize summarise summary ' +
    // The conversation itself, and when in it.
    'conversation conversations discussion discussions throughout earlier previously ' +
    // The answer asked for.
    'comprehensive list order items aspects different various please give provide walk'
  ).split(' '),
);

/** A question keeps its framing words unless at least this many of its other ranking words are left. */
export const FRAMED_QUESTION_WORDS = 4;
