/**
 * English function words: a question's "what", "did", "the" say nothing about which text answers
 * it, yet in a mind's few hundred memories they are not rare enough for BM25's IDF to silence them
 * (the common-word rule, common-words.ts, starts at 1,000). Search ranks by a query's other words on
 * both databases; a query of only such words is searched as it is. Texts are indexed with every
 * word, so nothing needs indexing again when this list changes; PostgreSQL's lengths and statistics
 * use it in SQL (tsvector-columns.ts), so a change there needs a migration.
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
