import type { Memory } from '@mindservice/contract';
import type { Conn } from '../db/database.js';
import type { KeywordIndex } from './keyword-index.js';
import { applyFilters, VERIFIED_BOOST } from './recall-filter.js';
import { inPageOrder } from './recall-order.js';
import { prefixed } from './rows.js';
import { rankingWords, searchWords } from './search-text.js';
import { wordVariants } from './word-variants.js';

/** The normalised words of key, content and tags (the same words SQLite indexes). */
const searchText = (m: Memory) => [m.key ?? '', m.content, m.tags.join(' ')].map((text) => searchWords(text).join(' ')).join(' ');

/** The row's search_vector (NULL for credentials). */
const searchVector = (conn: Conn, memory: Memory) =>
  memory.category === 'credentials' ? null : conn.raw(`to_tsvector('simple', ?)`, [searchText(memory)]);

/**
 * PostgreSQL's keyword index: the row's own search_vector (migration 0500, with a GIN index),
 * written with the row, so nothing else changes with a write. Ranked recall: the mind's memories
 * whose vector holds any of the query's ranking words or their variants (word-variants.ts), with their ts_rank times the verified boost as `score`.
 */
export const postgresKeywordIndex: KeywordIndex = {
  scores: 'ts_rank',
  rowFor: (conn, row, memory) => ({ ...row, search_vector: searchVector(conn, memory) }) as typeof row,
  added: async () => undefined,
  rewritten: async () => undefined,

  rankedPage(conn, rows, mindId, filter, limit, after) {
    const boost = `(CASE WHEN m.verified THEN ${VERIFIED_BOOST} ELSE 1 END)`;
    // Words are letters and digits only (searchWords), so they are safe as tsquery terms.
    // float8 keeps the score exact across a cursor's round trip.
    const tsquery = [...new Set(rankingWords(filter.words).flatMap(wordVariants))].join(' | ');
    const query = conn('memories as m')
      .whereRaw(`m.search_vector @@ to_tsquery('simple', ?)`, [tsquery])
      .select(...prefixed('m'), conn.raw(`ts_rank(m.search_vector, to_tsquery('simple', ?))::float8 * ${boost} AS score`, [tsquery]));
    return inPageOrder(conn, rows, applyFilters(query, mindId, filter), { ranked: true, limit, after });
  },
};
