import type { Memory } from '@mindservice/contract';
import type { Conn } from '../db/database.js';
import { postgresMindStatistics, tsqueryOf } from '../db/postgres-bm25.js';
import type { KeywordIndex } from './keyword-index.js';
import { BM25_B, BM25_K1, bm25Idf, postgresTermBindings, postgresTermFrequency } from '../lib/bm25.js';
import { applyFilters, VERIFIED_BOOST } from './recall-filter.js';
import { inPageOrder } from './recall-order.js';
import { prefixed } from './rows.js';
import { rankingWords, STOP_WORDS_SQL_ARRAY, searchWords } from '../lib/search-words.js';
import { wordVariants } from '../lib/word-variants.js';

/** The normalised words of key, content and tags (the same words SQLite indexes). */
const searchText = (m: Memory) => [m.key ?? '', m.content, m.tags.join(' ')].map((text) => searchWords(text).join(' ')).join(' ');

/** The row's search_vector (NULL for credentials). */
const searchVector = (conn: Conn, memory: Memory) =>
  memory.category === 'credentials' ? null : conn.raw(`to_tsvector('simple', ?)`, [searchText(memory)]);

/** documentLength (search-text.ts) of a stored search_vector: its lexemes but the stop words. */
export const POSTGRES_DOCUMENT_LENGTH = (vector: string) => `length(ts_delete(${vector}, ${STOP_WORDS_SQL_ARRAY}))`;

/**
 * PostgreSQL's keyword index: the row's own search_vector (migration 0500, with a GIN index),
 * written with the row; the mind's count of indexed memories and their total length are kept in
 * memory_search_stats by a trigger (migration 0531). Ranked recall is BM25 as on SQLite
 * (recall-sqlite.ts): the query's ranking words, each with its variants (word-variants.ts) as one
 * term; a term's number of memories is counted among the mind's own memories, a memory's length is
 * its number of distinct words but stop words (documentLength), and a word's occurrences are its positions.
 */
const SEARCH_TABLES = { rows: 'memories', stats: 'memory_search_stats', count: 'memories' };

export const postgresKeywordIndex: KeywordIndex = {
  scores: 'bm25',
  rowFor: (conn, row, memory) => ({ ...row, search_vector: searchVector(conn, memory) }) as typeof row,
  added: async () => undefined,
  rewritten: async () => undefined,

  async rankedPage(conn, rows, mindId, filter, limit, after) {
    const groups = rankingWords(filter.words).map(wordVariants);
    const all = tsqueryOf([...new Set(groups.flat())]);
    const stats = await postgresMindStatistics(conn, SEARCH_TABLES, mindId, groups);
    const weights = groups.map((_, i) => bm25Idf(stats.indexed, stats.holding[i]!));
    // A term's occurrences in the memory: the positions of the word and (weighted) of its variants.
    const occurrences = groups.map((group, i) => `${postgresTermFrequency('m.search_vector', group)} AS f${i}`);

    const candidates = applyFilters(
      conn('memories as m')
        .whereRaw(`m.search_vector @@ to_tsquery('simple', ?)`, [all])
        .select(
          ...prefixed('m'),
          conn.raw(occurrences.join(', '), groups.flatMap(postgresTermBindings)),
          conn.raw(`${BM25_K1} * (${1 - BM25_B} + ${BM25_B} * ${POSTGRES_DOCUMENT_LENGTH('m.search_vector')} / ?::float8) AS norm`, [
            stats.averageWords,
          ]),
        ),
      mindId,
      filter,
    );
    const weightedSum = groups.map((_, i) => `?::float8 * f${i} * ${BM25_K1 + 1} / (f${i} + norm)`).join(' + ');
    const scored = conn
      .from(candidates.as('c'))
      .select(...prefixed('c'), conn.raw(`(${weightedSum}) * (CASE WHEN c.verified THEN ${VERIFIED_BOOST} ELSE 1 END) AS score`, weights));
    return inPageOrder(conn, rows, scored, { ranked: true, limit, after });
  },
};
