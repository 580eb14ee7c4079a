import type { Memory } from '@mindservice/contract';
import type { Knex } from 'knex';
import { type Conn, runSql } from '../db/database.js';
import type { ChangeParts } from '../events/recorder.js';
import { inHitOrder, postgresRankedHits, tsqueryOf } from '../db/postgres-bm25.js';
import { rankingColumnsOf } from '../db/postgres-ranking-columns.js';
import { rankingWords, searchWords } from '../lib/search-words.js';
import { wordVariants } from '../lib/word-variants.js';
import type { KeywordIndex } from './keyword-index.js';
import { COMMON_WORD_MIN_MEMORIES, COMMON_WORDS_WINDOW, commonWordThreshold } from './common-words.js';
import { filterConditions, olderThan, type PagePosition, type RecallFilter, type RecallRow, VERIFIED_BOOST } from './recall-filter.js';
import { COLUMNS, type MemoryRows, prefixed, type ReadRow, tagRows } from './rows.js';

/** The normalised words of key, content and tags (the same words SQLite indexes). */
const searchText = (m: Memory) => [m.key ?? '', m.content, m.tags.join(' ')].map((text) => searchWords(text).join(' ')).join(' ');

/** The row's search_vector (NULL for credentials). */
const searchVector = (conn: Conn, memory: Memory) =>
  memory.category === 'credentials' ? null : conn.raw(`to_tsvector('simple', ?)`, [searchText(memory)]);

/**
 * PostgreSQL's keyword index: the row's own search_vector (migration 0500, with a GIN index),
 * written with the row, and what is derived from it (0533: the row's length and repeated words,
 * written by POST /memory's statement or else by a trigger since 0534); each mind's count of
 * indexed memories and their total length are kept in memory_search_stats by a trigger. Ranked
 * recall is BM25 as on SQLite (recall-sqlite.ts), in one statement (db/postgres-bm25.ts): the
 * query's ranking words, each with its variants (word-variants.ts) as one term, counted among the
 * mind's own memories.
 */
const SEARCH_TABLES = { rows: 'memories', stats: 'memory_search_stats', count: 'memories' };

/**
 * POST /memory's row and its tags as data-modifying WITH parts: alone (insertOne) they are one
 * statement, and the memories service sends them with the event's insert (insertParts, one round
 * trip for the whole write). The tags' foreign key sees the row, checked at the end of the statement.
 * The row's ranking columns are computed here from its vector, once (db/postgres-ranking-columns.ts:
 * generated columns cost every statement a planning of their own).
 */
const RANKING = rankingColumnsOf('v');
const INSERT_PARTS = [
  `memory_vector AS (SELECT v, ${RANKING.words} AS words, ${RANKING.counts} AS counts FROM (SELECT to_tsvector('simple', ?) AS v) AS searched)`,
  `memory_written AS (INSERT INTO memories (${COLUMNS.map((c) => `"${c}"`).join(', ')}, search_vector, search_words, search_counts)
     VALUES (${COLUMNS.map(() => '?').join(', ')}, (SELECT v FROM memory_vector), (SELECT words FROM memory_vector), (SELECT counts FROM memory_vector)))`,
  'tags_written AS (INSERT INTO memory_tags (memory_id, mind_id, tag, updated_at) SELECT ?, ?, tag, ? FROM unnest(?::text[]) AS tag)',
];
const INSERT_MEMORY_AND_TAGS = `WITH ${INSERT_PARTS.join(', ')} SELECT 1`;

function insertParts(rows: MemoryRows, mindId: string, memory: Memory): ChangeParts {
  const row = rows.toRow(mindId, memory);
  const tags = tagRows(mindId, memory).map((t) => t.tag);
  const text = memory.category === 'credentials' ? null : searchText(memory);
  return { parts: INSERT_PARTS, bindings: [text, ...COLUMNS.map((c) => row[c]), memory.id, mindId, memory.updated_at, tags] };
}

export const postgresKeywordIndex: KeywordIndex = {
  scores: 'bm25',
  rowFor: (conn, row, memory) => ({ ...row, search_vector: searchVector(conn, memory) }) as typeof row,
  async insertOne(conn, rows, mindId, memory) {
    await runSql(conn, INSERT_MEMORY_AND_TAGS, insertParts(rows, mindId, memory).bindings);
  },
  insertParts,
  added: async () => undefined,
  rewritten: async () => undefined,

  /** BM25 over the question's terms but its common words (common-words.ts); then, score 0 and newest first, what holds only common words. */
  async rankedPage(conn, rows, mindId, filter, limit, after) {
    const { ranked, common } = await splitByCommonness(conn, mindId, rankingWords(filter.words).map(wordVariants));
    const inTail = after !== undefined && after.score <= 0;
    const hits = ranked.length > 0 && !inTail ? await bm25Page(conn, rows, mindId, filter, ranked, limit, after) : [];
    if (hits.length < limit && common.length > 0) {
      const rest = await commonWordsPage(
        conn,
        rows,
        mindId,
        filter,
        common.flat(),
        ranked.flat(),
        limit - hits.length,
        inTail ? after : undefined,
      );
      hits.push(...rest);
    }
    return hits;
  },
};

/** The newest indexed memories a word is counted in, to tell whether it is common (exact for a mind with no more). */
const COUNTED_WINDOW = 2000;

/**
 * The question's terms (a word and its variants each) split into ranked and common
 * (common-words.ts) by how many of the mind's memories hold them. SQLite reads each word's count
 * from its index; here an exact count costs a visit to every memory holding the word (50 ms for a
 * word in a tenth of 100,000), the very cost the rule saves. So a word is counted in the mind's
 * newest COUNTED_WINDOW indexed memories, in one pass over them (about a millisecond), and its
 * share there stands for its share of the mind: exact for a mind of up to COUNTED_WINDOW
 * memories, an estimate from the newest beyond that. A mind under COMMON_WORD_MIN_MEMORIES has
 * no common words and is not counted at all.
 */
async function splitByCommonness(conn: Conn, mindId: string, groups: string[][]): Promise<{ ranked: string[][]; common: string[][] }> {
  if (groups.length === 0) return { ranked: groups, common: [] };
  const words = [...new Set(groups.flat())];
  const counted = words.map((_, i) => `count(*) FILTER (WHERE search_vector @@ to_tsquery('simple', ?)) AS c${i}`);
  // One statement, unnamed (planned with the words as constants): the mind's count from its
  // statistics, and the window (walking the mind's recency index) only where the rule can apply.
  const [row] = (
    await conn.raw(
      `WITH mind AS MATERIALIZED (
         SELECT coalesce(sum(${SEARCH_TABLES.count}), 0) AS memories FROM ${SEARCH_TABLES.stats} WHERE mind_id = ?)
       SELECT mind.memories, w.* FROM mind, LATERAL (
         SELECT count(*) AS n, ${counted.join(', ')} FROM (
           SELECT search_vector FROM memories
           WHERE mind_id = ? AND search_vector IS NOT NULL AND mind.memories >= ${COMMON_WORD_MIN_MEMORIES}
           ORDER BY updated_at DESC, id DESC LIMIT ${COUNTED_WINDOW}) x) w`,
      [mindId, ...words, mindId],
    )
  ).rows as Record<string, string>[];
  const memories = Number(row?.memories ?? 0);
  if (memories < COMMON_WORD_MIN_MEMORIES) return { ranked: groups, common: [] };
  const window = Number(row!.n);
  const share = new Map(words.map((word, i) => [word, window > 0 ? Number(row![`c${i}`]) / window : 0]));
  // As SQLite counts a term: the word's memories and its variants' added up.
  const threshold = commonWordThreshold(memories);
  const isCommon = (group: string[]) => group.reduce((sum, word) => sum + share.get(word)!, 0) * memories >= threshold;
  return { ranked: groups.filter((g) => !isCommon(g)), common: groups.filter(isCommon) };
}

/** One page ranked by BM25 over `groups` with the mind's statistics (db/postgres-bm25.ts); the page's rows read in hit order. */
async function bm25Page(
  conn: Conn,
  rows: MemoryRows,
  mindId: string,
  filter: RecallFilter,
  groups: string[][],
  limit: number,
  after?: PagePosition,
): Promise<RecallRow[]> {
  const conditionBindings: Knex.RawBinding[] = [];
  const conditions = filterConditions(filter, 'm', conditionBindings);
  const hits = await postgresRankedHits(conn, {
    tables: SEARCH_TABLES,
    alias: 'm',
    mindId,
    groups,
    conditions,
    conditionBindings,
    boost: `CASE WHEN m.verified THEN ${VERIFIED_BOOST} ELSE 1 END`,
    orderColumn: 'updated_at',
    after: after && { score: after.score, at: after.updatedAt, id: after.id },
    limit,
  });
  return inHitOrder(
    hits,
    (seqs) =>
      conn('memories as m')
        .whereIn('m.seq', seqs)
        .select('m.seq', ...prefixed('m')) as Promise<Array<ReadRow & { seq: number }>>,
    (row, score) => ({ memory: rows.toMemory(row), score }),
  );
}

/**
 * Newest first, score 0: the memories holding one of the common words and none of the ranked ones,
 * as on SQLite (recall-sqlite.ts): the newest COMMON_WORDS_WINDOW after the filters are checked
 * first (common words are in a tenth of them); if they do not fill the page, the index is asked.
 */
async function commonWordsPage(
  conn: Conn,
  rows: MemoryRows,
  mindId: string,
  filter: RecallFilter,
  common: string[],
  ranked: string[],
  limit: number,
  after?: PagePosition,
): Promise<RecallRow[]> {
  const read = async (window: boolean) => {
    const bindings: Knex.RawBinding[] = [mindId];
    const conditions = ['m.mind_id = ?', ...filterConditions(filter, 'm', bindings)];
    if (after) conditions.push(olderThan('m', after, bindings));
    const matches = ["m.search_vector @@ to_tsquery('simple', ?)"];
    bindings.push(tsqueryOf(common));
    if (ranked.length > 0) {
      matches.push("NOT (m.search_vector @@ to_tsquery('simple', ?))");
      bindings.push(tsqueryOf(ranked));
    }
    const order = 'ORDER BY m.updated_at DESC, m.id DESC';
    const sql = window
      ? `SELECT ${prefixed('m').join(', ')} FROM (SELECT * FROM memories m WHERE ${conditions.join(' AND ')} ${order} LIMIT ${COMMON_WORDS_WINDOW}) m
         WHERE ${matches.join(' AND ')} ${order} LIMIT ?`
      : `SELECT ${prefixed('m').join(', ')} FROM memories m WHERE ${[...conditions, ...matches].join(' AND ')} ${order} LIMIT ?`;
    return (await conn.raw(sql, [...bindings, limit])).rows as ReadRow[];
  };
  let found = await read(true);
  if (found.length < limit) found = await read(false);
  return found.map((row) => ({ memory: rows.toMemory(row), score: 0 }));
}
