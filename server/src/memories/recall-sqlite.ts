import type { Knex } from 'knex';
import type { Conn } from '../db/database.js';
import { filterConditions, type PagePosition, type RecallFilter, type RecallRow, VERIFIED_BOOST } from './recall-filter.js';
import { type MemoryRows, type ReadRow, SQLITE_COLUMNS } from './rows.js';
import { mindPrefix } from './search-text.js';

/**
 * Common words, stop words found by frequency (as Elasticsearch's cutoff_frequency). Scoring a word
 * costs a BM25 evaluation for every memory that holds it, yet a word in many memories weighs little:
 * its IDF is at most ln 9 ≈ 2.2 at a tenth of them (a word in one memory in a thousand: 6.9), 0 at
 * half. A word in at least this share of all indexed memories, and in at least
 * COMMON_WORD_MIN_MEMORIES of the mind's, gets weight 0 in recall (see recallSqlite); the others are
 * ranked by BM25 as they are. Below 1,000 memories nothing changes.
 */
export const COMMON_WORD_SHARE = 0.1;
export const COMMON_WORD_MIN_MEMORIES = 1000;

/**
 * Ranked recall on SQLite: FTS5 with BM25 (negative, lower is better, so it is negated), times
 * the verified boost; the mind prefix on every indexed word restricts the search to the mind.
 * Common words (COMMON_WORD_SHARE) get weight 0: the memories holding one of the other
 * words come first, ranked by BM25 over those words; then, with score 0 and newest first, those
 * that hold only common words. A q of only common words thus lists its matches newest first.
 */
export async function recallSqlite(
  conn: Conn,
  rows: MemoryRows,
  mindId: string,
  filter: RecallFilter,
  limit: number,
  after?: PagePosition,
): Promise<RecallRow[]> {
  const { ranked, common } = await splitCommonWords(conn, mindPrefix(mindId), filter.words);
  const inTail = after !== undefined && after.score <= 0;
  const hits = ranked.length > 0 && !inTail ? await bm25Page(conn, mindId, filter, ranked, limit, after) : [];
  if (hits.length < limit && common.length > 0) {
    hits.push(...(await commonWordsPage(conn, mindId, filter, common, ranked, limit - hits.length, inTail ? after : undefined)));
  }
  return hits.map((row) => ({ memory: rows.toMemory(row), score: Number(row.score) }));
}

type ScoredRow = ReadRow & { score: number };

/**
 * One page ranked by BM25. BM25 has to be computed for every memory holding a word; the ranking
 * columns come from the narrow memories_rank (seq, id, category, verified, updated_at) and only
 * the page's rows are read from memories.
 */
async function bm25Page(
  conn: Conn,
  mindId: string,
  filter: RecallFilter,
  words: string[],
  limit: number,
  after?: PagePosition,
): Promise<ScoredRow[]> {
  const params: Knex.RawBinding[] = [matchAny(mindPrefix(mindId), words)];
  const conditions = filterConditions(filter, 'r', params, false);
  let position = '';
  if (after) {
    position = 'WHERE score < ? OR (score = ? AND (updated_at < ? OR (updated_at = ? AND id < ?)))';
    params.push(after.score, after.score, after.updatedAt, after.updatedAt, after.id);
  }
  params.push(limit, mindId);
  return (await conn.raw(
    `WITH hits AS MATERIALIZED (
       SELECT * FROM (
         SELECT r.seq, r.updated_at, r.id, -bm25(memories_fts) * (CASE WHEN r.verified THEN ${VERIFIED_BOOST} ELSE 1 END) AS score
         FROM memories_fts JOIN memories_rank r ON r.seq = memories_fts.rowid
         WHERE memories_fts MATCH ?${conditions.map((c) => ` AND ${c}`).join('')}
       ) ${position}
       ORDER BY score DESC, updated_at DESC, id DESC LIMIT ?)
     SELECT ${SQLITE_COLUMNS}, hits.score AS score FROM hits CROSS JOIN memories m ON m.seq = hits.seq
     WHERE m.mind_id = ? ORDER BY hits.score DESC, hits.updated_at DESC, hits.id DESC`,
    params,
  )) as ScoredRow[];
}

/**
 * Newest first, score 0: the memories holding one of the common words and none of the ranked
 * ones. Common words are in at least a tenth of the indexed memories, so walking the newest (after
 * the filters) and checking each in the index finds a page quickly; if the newest 400 do not
 * fill it, the matches are collected from the index instead (slower, but bounded by the index).
 */
async function commonWordsPage(
  conn: Conn,
  mindId: string,
  filter: RecallFilter,
  common: string[],
  ranked: string[],
  limit: number,
  after?: PagePosition,
) {
  const prefix = mindPrefix(mindId);
  const run = async (window: boolean) => {
    const params: Knex.RawBinding[] = [mindId];
    const conditions = filterConditions(filter, 'm', params);
    if (after) {
      conditions.push('(m.updated_at < ? OR (m.updated_at = ? AND m.id < ?))');
      params.push(after.updatedAt, after.updatedAt, after.id);
    }
    const holds = window
      ? 'EXISTS (SELECT 1 FROM memories_fts WHERE memories_fts MATCH ? AND rowid = m.seq)'
      : 'm.seq IN (SELECT rowid FROM memories_fts WHERE memories_fts MATCH ?)';
    const lacks = window
      ? 'NOT EXISTS (SELECT 1 FROM memories_fts WHERE memories_fts MATCH ? AND rowid = m.seq)'
      : 'm.seq NOT IN (SELECT rowid FROM memories_fts WHERE memories_fts MATCH ?)';
    const match = [holds, ...(ranked.length > 0 ? [lacks] : [])];
    const matchParams = [matchAny(prefix, common), ...(ranked.length > 0 ? [matchAny(prefix, ranked)] : [])];
    const order = 'ORDER BY m.updated_at DESC, m.id DESC';
    const where = `m.mind_id = ?${conditions.map((c) => ` AND ${c}`).join('')}`;
    const sql = window
      ? `SELECT ${SQLITE_COLUMNS}, 0 AS score FROM (SELECT m.* FROM memories m WHERE ${where} ${order} LIMIT 400) m WHERE ${match.join(' AND ')} ${order} LIMIT ?`
      : `SELECT ${SQLITE_COLUMNS}, 0 AS score FROM memories m WHERE ${where} AND ${match.join(' AND ')} ${order} LIMIT ?`;
    return (await conn.raw(sql, [...params, ...matchParams, limit])) as ScoredRow[];
  };
  let found = await run(true);
  if (found.length < limit) found = await run(false);
  return found;
}

/** An FTS5 query for any of the words, each a quoted term with the mind's prefix (never FTS5 syntax). */
const matchAny = (prefix: string, words: string[]) => words.map((w) => `"${prefix}${w}"`).join(' OR ');

/**
 * Splits the words of a SQLite search into those ranked by BM25 and the common ones: in at least
 * COMMON_WORD_SHARE of all indexed memories and in at least COMMON_WORD_MIN_MEMORIES. The number of
 * indexed memories is FTS5's own row count, the first varint of its averages record; a word's count stops at the threshold.
 */
async function splitCommonWords(conn: Conn, prefix: string, words: string[]): Promise<{ ranked: string[]; common: string[] }> {
  const [averages] = (await conn.raw('SELECT block FROM memories_fts_data WHERE id = 1')) as Array<{ block: Buffer }>;
  const indexed = averages ? readVarint(averages.block) : 0;
  const threshold = Math.max(COMMON_WORD_MIN_MEMORIES, Math.ceil(indexed * COMMON_WORD_SHARE));
  if (indexed < threshold) return { ranked: words, common: [] };
  const ranked: string[] = [];
  const common: string[] = [];
  for (const word of words) {
    const [{ n }] = (await conn.raw('SELECT count(*) AS n FROM (SELECT 1 FROM memories_fts WHERE memories_fts MATCH ? LIMIT ?)', [
      matchAny(prefix, [word]),
      threshold,
    ])) as [{ n: number }];
    (n >= threshold ? common : ranked).push(word);
  }
  return { ranked, common };
}

/** SQLite's variable-length integer (also FTS5's): big-endian 7-bit groups, the ninth byte whole. */
function readVarint(bytes: Uint8Array): number {
  let value = 0;
  for (let i = 0; i < 9 && i < bytes.length; i++) {
    const byte = bytes[i]!;
    if (i === 8) return value * 256 + byte;
    value = value * 128 + (byte & 0x7f);
    if (byte < 0x80) return value;
  }
  return value;
}
