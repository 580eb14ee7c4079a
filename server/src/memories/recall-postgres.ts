import type { Knex } from 'knex';
import type { Conn } from '../db/database.js';
import { applyFilters, type RecallFilter, VERIFIED_BOOST } from './recall-filter.js';
import { prefixed } from './rows.js';

/**
 * Ranked recall on PostgreSQL: the mind's memories whose search_vector holds any of the words,
 * with their ts_rank times the verified boost as `score` (recall.ts pages them).
 */
export function rankedQueryPostgres(conn: Conn, mindId: string, filter: RecallFilter): Knex.QueryBuilder {
  const boost = `(CASE WHEN m.verified THEN ${VERIFIED_BOOST} ELSE 1 END)`;
  // Words are letters and digits only (searchWords), so they are safe as tsquery terms.
  // float8 keeps the score exact across a cursor's round trip.
  const tsquery = filter.words.join(' | ');
  const query = conn('memories as m')
    .whereRaw(`m.search_vector @@ to_tsquery('simple', ?)`, [tsquery])
    .select(...prefixed('m'), conn.raw(`ts_rank(m.search_vector, to_tsquery('simple', ?))::float8 * ${boost} AS score`, [tsquery]));
  return applyFilters(query, mindId, filter);
}
