import type { Knex } from 'knex';
import type { Conn } from '../db/database.js';
import { keywordIndexOf } from './keyword-index-choice.js';
import { applyFilters, type PagePosition, type RecallFilter, type RecallRow } from './recall-filter.js';
import { inPageOrder } from './recall-order.js';
import { type MemoryRows, prefixed } from './rows.js';

/**
 * One page of recall, `limit` rows after `after` in page order (the caller asks for one more than
 * it shows, to know whether there is a next page). With words: ranked by the database's keyword
 * index (for credentials, which are not indexed, a key and tag match by recency); without: newest
 * first.
 */
export async function recallPage(
  conn: Conn,
  rows: MemoryRows,
  mindId: string,
  filter: RecallFilter,
  limit: number,
  after?: PagePosition,
): Promise<RecallRow[]> {
  const ranked = filter.words.length > 0 && filter.category !== 'credentials';
  if (ranked) return keywordIndexOf(conn).rankedPage(conn, rows, mindId, filter, limit, after);
  return inPageOrder(conn, rows, recencyQuery(conn, mindId, filter), { limit, after });
}

/** Newest first, both databases. */
function recencyQuery(conn: Conn, mindId: string, filter: RecallFilter): Knex.QueryBuilder {
  const [firstTag, ...otherTags] = filter.tags;
  if (firstTag !== undefined) {
    // Driven by the first tag's index (newest first), with its copies of updated_at and id as the
    // page order, so the database stops after one page instead of checking every memory.
    const columns = prefixed('m').filter((c) => c !== 'm.id' && c !== 'm.updated_at');
    const query = conn('memory_tags as t')
      .join('memories as m', 'm.id', 't.memory_id')
      .where('t.mind_id', mindId)
      .andWhere('t.tag', firstTag)
      .select(...columns, 't.memory_id as id', 't.updated_at as updated_at', conn.raw('0 AS score'));
    return matchKeyAndTags(applyFilters(query, mindId, { ...filter, tags: otherTags }), filter.words);
  }
  const query = conn('memories as m').select(...prefixed('m'), conn.raw('0 AS score'));
  return matchKeyAndTags(applyFilters(query, mindId, filter), filter.words);
}

/** Credentials are not indexed: with words, each must appear in the key or the tags. */
function matchKeyAndTags(query: Knex.QueryBuilder, words: string[]) {
  for (const word of words) {
    query.whereRaw(`lower(coalesce(m.key, '') || ' ' || m.tags) LIKE ? ESCAPE '\\'`, [`%${word.replace(/[\\%_]/g, '\\$&')}%`]);
  }
  return query;
}
