import type { Memory } from '@mindservice/contract';
import type { Knex } from 'knex';
import { type Conn, runSql } from '../db/database.js';
import type { ChangeParts } from '../events/recorder.js';
import { rankingColumnsOf } from '../search/tsvector-columns.js';
import { inHitOrder, TsvectorIndex } from '../search/tsvector-engine.js';
import { wordVariants } from '../search/word-variants.js';
import { rankingWords, searchWords } from '../search/words.js';
import type { KeywordIndex } from './keyword-index.js';
import { filterConditions, olderThan, type RecallRow, VERIFIED_BOOST } from './recall-filter.js';
import { COLUMNS, type MemoryRows, prefixed, type ReadRow, tagRows } from './rows.js';

/** The normalised words of key, content and tags (the same words SQLite indexes). */
const searchText = (m: Memory) => [m.key ?? '', m.content, m.tags.join(' ')].map((text) => searchWords(text).join(' ')).join(' ');

/** The row's search_vector (NULL for credentials). */
const searchVector = (conn: Conn, memory: Memory) =>
  memory.category === 'credentials' ? null : conn.raw(`to_tsvector('simple', ?)`, [searchText(memory)]);

/**
 * PostgreSQL's keyword index of memories: the row's own search_vector (migration 0500), written with
 * the row, and what is derived from it (0533: the row's length and repeated words, written by POST
 * /memory's statement or else by a trigger since 0534); each mind's statistics in
 * memory_search_stats, kept by a trigger. Ranked by search/tsvector-engine.ts.
 */
const MEMORIES_TSVECTOR = new TsvectorIndex({ rows: 'memories', stats: 'memory_search_stats', count: 'memories' });
const BOOST = `CASE WHEN r.verified THEN ${VERIFIED_BOOST} ELSE 1 END`;

/**
 * POST /memory's row and its tags as data-modifying WITH parts: alone (insertOne) they are one
 * statement, and the memories service sends them with the event's insert (insertParts, one round
 * trip for the whole write). The tags' foreign key sees the row, checked at the end of the statement.
 * The row's ranking columns are computed here from its vector, once (search/tsvector-columns.ts:
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
  rowFor: (conn, row, memory) => ({ ...row, search_vector: searchVector(conn, memory) }) as typeof row,
  async insertOne(conn, rows, mindId, memory) {
    await runSql(conn, INSERT_MEMORY_AND_TAGS, insertParts(rows, mindId, memory).bindings);
  },
  insertParts,
  added: async () => undefined,
  rewritten: async () => undefined,

  /** BM25 over the question's terms but its common words; then, score 0 and newest first, what holds only common words. */
  async rankedPage(conn, rows, mindId, filter, limit, after) {
    const groups = rankingWords(filter.words).map(wordVariants);
    const { ranked, common } = await MEMORIES_TSVECTOR.splitTerms(conn, mindId, groups, 'updated_at');
    const inTail = after !== undefined && after.score <= 0;
    const hits: RecallRow[] = [];
    if (ranked.length > 0 && !inTail) {
      const conditionBindings: Knex.RawBinding[] = [];
      const conditions = filterConditions(filter, 'r', conditionBindings);
      const position = after && { score: after.score, at: after.updatedAt, id: after.id };
      const q = { mindId, groups: ranked, conditions, conditionBindings, boost: BOOST, orderColumn: 'updated_at', after: position, limit };
      const found = await MEMORIES_TSVECTOR.rankedHits(conn, q);
      const read = (seqs: number[]) =>
        conn('memories as m')
          .whereIn('m.seq', seqs)
          .select('m.seq', ...prefixed('m')) as Promise<Array<ReadRow & { seq: number }>>;
      hits.push(...(await inHitOrder(found, read, (row, score): RecallRow => ({ memory: rows.toMemory(row), score }))));
    }
    if (hits.length < limit && common.length > 0) {
      const conditionBindings: Knex.RawBinding[] = [];
      const conditions = filterConditions(filter, 'm', conditionBindings);
      if (inTail) conditions.push(olderThan('m', after, conditionBindings));
      const q = { mindId, conditions, conditionBindings, orderColumn: 'updated_at', limit: limit - hits.length };
      const found = await MEMORIES_TSVECTOR.commonWordsRows<ReadRow>(
        conn,
        { ...q, common: common.flat(), ranked: ranked.flat() },
        prefixed('m').join(', '),
      );
      hits.push(...found.map((row): RecallRow => ({ memory: rows.toMemory(row), score: 0 })));
    }
    return hits;
  },
};
