import type { Memory } from '@mindservice/contract';
import type { Knex } from 'knex';
import { type Conn, runSql } from '../db/database.js';
import { inHitOrder, postgresRankedHits } from '../db/postgres-bm25.js';
import { rankingWords, searchWords } from '../lib/search-words.js';
import { wordVariants } from '../lib/word-variants.js';
import type { KeywordIndex } from './keyword-index.js';
import { filterConditions, VERIFIED_BOOST } from './recall-filter.js';
import { COLUMNS, prefixed, type ReadRow, tagRows } from './rows.js';

/** The normalised words of key, content and tags (the same words SQLite indexes). */
const searchText = (m: Memory) => [m.key ?? '', m.content, m.tags.join(' ')].map((text) => searchWords(text).join(' ')).join(' ');

/** The row's search_vector (NULL for credentials). */
const searchVector = (conn: Conn, memory: Memory) =>
  memory.category === 'credentials' ? null : conn.raw(`to_tsvector('simple', ?)`, [searchText(memory)]);

/**
 * PostgreSQL's keyword index: the row's own search_vector (migration 0500, with a GIN index),
 * written with the row, and what the database derives from it (0533: the row's length and repeated
 * words); each mind's count of indexed memories and their total length are kept in
 * memory_search_stats by a trigger. Ranked recall is BM25 as on SQLite (recall-sqlite.ts), in one
 * statement (db/postgres-bm25.ts): the query's ranking words, each with its variants
 * (word-variants.ts) as one term, counted among the mind's own memories.
 */
const SEARCH_TABLES = { rows: 'memories', stats: 'memory_search_stats', count: 'memories' };

/**
 * POST /memory's row and its tags in one statement (one round trip, planned once per connection):
 * the tags' foreign key sees the row, checked at the end of the statement.
 */
const INSERT_MEMORY_AND_TAGS = `WITH memory AS (
    INSERT INTO memories (${COLUMNS.map((c) => `"${c}"`).join(', ')}, search_vector)
    VALUES (${COLUMNS.map(() => '?').join(', ')}, to_tsvector('simple', ?))
  )
  INSERT INTO memory_tags (memory_id, mind_id, tag, updated_at) SELECT ?, ?, tag, ? FROM unnest(?::text[]) AS tag`;

export const postgresKeywordIndex: KeywordIndex = {
  scores: 'bm25',
  rowFor: (conn, row, memory) => ({ ...row, search_vector: searchVector(conn, memory) }) as typeof row,
  async insertOne(conn, rows, mindId, memory) {
    const row = rows.toRow(mindId, memory);
    const tags = tagRows(mindId, memory).map((t) => t.tag);
    const text = memory.category === 'credentials' ? null : searchText(memory);
    await runSql(conn, INSERT_MEMORY_AND_TAGS, [...COLUMNS.map((c) => row[c]), text, memory.id, mindId, memory.updated_at, tags]);
  },
  added: async () => undefined,
  rewritten: async () => undefined,

  async rankedPage(conn, rows, mindId, filter, limit, after) {
    const conditionBindings: Knex.RawBinding[] = [];
    const conditions = filterConditions(filter, 'm', conditionBindings);
    const hits = await postgresRankedHits(conn, {
      tables: SEARCH_TABLES,
      alias: 'm',
      mindId,
      groups: rankingWords(filter.words).map(wordVariants),
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
  },
};
