import type { Knex } from 'knex';
import { type Conn, runSql } from '../db/database.js';
import { filterConditions, olderThan, type PagePosition, type RecallFilter, type RecallRow, VERIFIED_BOOST } from './recall-filter.js';
import { type MemoryRows, type ReadRow, SQLITE_COLUMNS } from './rows.js';
import { BM25_B as B, BM25_K1 as K1, bm25Idf as idf, sqliteTermFrequency } from '../lib/bm25.js';
import { mindPrefix, rankingWords } from '../lib/search-words.js';
import { wordVariants } from '../lib/word-variants.js';
import { COMMON_WORDS_WINDOW, commonWordThreshold } from './common-words.js';

/**
 * Ranked recall on SQLite: BM25 over the mind's own memories (bm25Page) by the query's ranking
 * words (search-text.ts: without stop words), times the verified boost;
 * the mind prefix on every indexed word restricts the search to the mind. Common words
 * (common-words.ts) get weight 0: the memories holding one of the other words come first, ranked
 * by BM25 over those words; then, with score 0 and newest first, those that hold only common words.
 * A q of only common words thus lists its matches newest first.
 */
export async function recallSqlite(
  conn: Conn,
  rows: MemoryRows,
  mindId: string,
  filter: RecallFilter,
  limit: number,
  after?: PagePosition,
): Promise<RecallRow[]> {
  const variants = rankingWords(filter.words).map(wordVariants);
  const stats = await mindStatistics(conn, mindId, [...new Set(variants.flat())]);
  // Variants no memory of the mind holds cost a lookup each in the ranking and add nothing.
  const groups = variants.map((group) => group.filter((w, i) => i === 0 || stats.holding.get(w)! > 0));
  const threshold = commonWordThreshold(stats.memories);
  const ranked = groups.filter((g) => holdingGroup(stats, g) < threshold);
  const common = groups.filter((g) => holdingGroup(stats, g) >= threshold);
  const inTail = after !== undefined && after.score <= 0;
  const hits = ranked.length > 0 && !inTail ? await bm25Page(conn, mindId, filter, ranked, stats, limit, after) : [];
  if (hits.length < limit && common.length > 0) {
    hits.push(
      ...(await commonWordsPage(conn, mindId, filter, common.flat(), ranked.flat(), limit - hits.length, inTail ? after : undefined)),
    );
  }
  return hits.map((row) => ({ memory: rows.toMemory(row), score: Number(row.score) }));
}

/** BM25's statistics of a mind: its indexed memories, their average length in words, and how many hold each word. */
interface MindStatistics {
  memories: number;
  averageWords: number;
  holding: Map<string, number>;
}

/**
 * The mind's statistics from memory_search_stats, and each word's number of memories from the
 * index's own counts (memories_fts_words): the words carry the mind's prefix, so these are the mind's.
 */
async function mindStatistics(conn: Conn, mindId: string, words: string[]): Promise<MindStatistics> {
  const prefix = mindPrefix(mindId);
  // One statement: recall runs it for every question.
  const counts = words.map((_, i) => `, (SELECT doc FROM memories_fts_words WHERE term = ?) AS w${i}`).join('');
  const [row] = await runSql<Record<string, number | null>>(
    conn,
    `SELECT s.memories, s.words${counts} FROM (SELECT 1) LEFT JOIN memory_search_stats s ON s.mind_id = ?`,
    [...words.map((w) => prefix + w), mindId],
  );
  const memories = row?.memories ?? 0;
  const holding = new Map(words.map((w, i) => [w, row?.[`w${i}`] ?? 0]));
  return { memories, averageWords: memories > 0 ? row!.words! / memories || 1 : 1, holding };
}

/**
 * How many memories hold a word or one of its variants (word-variants.ts), as BM25 counts a term:
 * the sum, at most every memory (variants seldom share a memory, so the sum is close to the union).
 */
const holdingGroup = (stats: MindStatistics, group: string[]) =>
  Math.min(
    Math.max(stats.memories, 1),
    group.reduce((n, w) => n + stats.holding.get(w)!, 0),
  );

type ScoredRow = ReadRow & { score: number };

/**
 * One page ranked by BM25 with the mind's own statistics (mindStatistics) and each memory's length
 * in words (memories_rank.words): FTS5's formula (bm25() in fts5_aux.c), whose own bm25() takes the
 * number of memories and their average length from the whole table, where every tenant's writes
 * would move them. A word's occurrences per memory come from memories_fts_terms, looked up by the
 * prefixed word, so only the mind's own postings are read, grouped once by memory; the rows are
 * matched to the mind before anything is limited. Only the page's rows are read from memories.
 */
async function bm25Page(
  conn: Conn,
  mindId: string,
  filter: RecallFilter,
  groups: string[][],
  stats: MindStatistics,
  limit: number,
  after?: PagePosition,
): Promise<ScoredRow[]> {
  const prefix = mindPrefix(mindId);
  const termsOf = groups.map((group) => group.map((w) => prefix + w));
  const terms = [...new Set(termsOf.flat())];
  // A word and its variants are one term: their occurrences add up.
  const frequencies = termsOf.map((group, i) => `${sqliteTermFrequency(group)} AS f${i}`).join(', ');
  const lengthNorm = `${K1} * (${1 - B} + ${B} * r.words / ?)`;
  const weightedSum = groups.map((_, i) => `? * f${i} * ${K1 + 1} / (f${i} + norm)`).join(' + ');
  const weights = groups.map((group) => idf(stats.memories, holdingGroup(stats, group)));
  // In the order of the placeholders in the statement.
  const params: Knex.RawBinding[] = [...weights, stats.averageWords, ...termsOf.flat(), ...terms, mindId];
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
         SELECT seq, updated_at, id, (${weightedSum}) * (CASE WHEN verified THEN ${VERIFIED_BOOST} ELSE 1 END) AS score FROM (
           SELECT r.seq, r.updated_at, r.id, r.verified, o.*, ${lengthNorm} AS norm
           FROM (SELECT v.doc, ${frequencies}
                 FROM memories_fts_terms v WHERE v.term IN (${terms.map(() => '?').join(', ')})
                 GROUP BY v.doc) o
           JOIN memories_rank r ON r.seq = o.doc
           WHERE r.mind_id = ? AND ${conditions.join(' AND ')})
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
 * the filters) and checking each in the index finds a page quickly; if the newest COMMON_WORDS_WINDOW do not
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
    if (after) conditions.push(olderThan('m', after, params));
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
      ? `SELECT ${SQLITE_COLUMNS}, 0 AS score FROM (SELECT m.* FROM memories m WHERE ${where} ${order} LIMIT ${COMMON_WORDS_WINDOW}) m WHERE ${match.join(' AND ')} ${order} LIMIT ?`
      : `SELECT ${SQLITE_COLUMNS}, 0 AS score FROM memories m WHERE ${where} AND ${match.join(' AND ')} ${order} LIMIT ?`;
    return (await conn.raw(sql, [...params, ...matchParams, limit])) as ScoredRow[];
  };
  let found = await run(true);
  if (found.length < limit) found = await run(false);
  return found;
}

/** An FTS5 query for any of the words, each a quoted term with the mind's prefix (never FTS5 syntax). */
const matchAny = (prefix: string, words: string[]) => words.map((w) => `"${prefix}${w}"`).join(' OR ');
