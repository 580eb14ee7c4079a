/** BM25's parameters, FTS5's own (k1 = 1.2, b = 0.75), on both databases, so scores keep one scale. */
export const BM25_K1 = 1.2;
export const BM25_B = 0.75;

/** FTS5's IDF (fts5_aux.c): never below a millionth, so a word in most memories still counts a little. */
export const bm25Idf = (memories: number, holding: number) =>
  // A write between reading the statistics and the counts may leave a count above the total.
  Math.max(Math.log((Math.max(memories, holding) - holding + 0.5) / (holding + 0.5)), 1e-6);
