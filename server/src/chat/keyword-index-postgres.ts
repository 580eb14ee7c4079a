import type { Knex } from 'knex';
import { postgresMindStatistics, tsqueryOf } from '../db/postgres-bm25.js';
import { BM25_B, BM25_K1, bm25Idf, postgresTermBindings, postgresTermFrequency } from '../lib/bm25.js';
import { rankingWords, STOP_WORDS_SQL_ARRAY, searchWords } from '../lib/search-words.js';
import { wordVariants } from '../lib/word-variants.js';
import { afterPosition, type ChatHit, type ChatKeywordIndex, filterConditions, type IndexedMessage, toMessage } from './keyword-index.js';

const ROWS_PER_STATEMENT = 500;

/**
 * PostgreSQL's chat index (migration 0560): the message's own search_vector (the 'simple'
 * configuration over the server's words), with a GIN index, matched with the mind in the same
 * condition, and the mind's count of indexed messages and their total length in chat_search_stats.
 * Ranked by BM25 as memories are (memories/keyword-index-postgres.ts): the question's ranking words,
 * each with its variants as one term, counted among the mind's own messages.
 */
const SEARCH_TABLES = { rows: 'chat_messages', stats: 'chat_search_stats', count: 'messages' };

export const postgresChatIndex: ChatKeywordIndex = {
  scores: 'bm25',

  async added(conn, messages) {
    for (let i = 0; i < messages.length; i += ROWS_PER_STATEMENT) {
      const chunk = messages.slice(i, i + ROWS_PER_STATEMENT);
      await conn.raw(
        `UPDATE chat_messages c SET search_vector = to_tsvector('simple', v.words)
         FROM (VALUES ${chunk.map(() => '(?::integer, ?)').join(', ')}) AS v(seq, words) WHERE c.seq = v.seq`,
        chunk.flatMap((m) => [m.seq, searchWords(m.content).join(' ')]),
      );
    }
  },

  async rankedPage(conn, mindId, filter, limit, after) {
    const groups = rankingWords(filter.words).map(wordVariants);
    const all = tsqueryOf([...new Set(groups.flat())]);
    const stats = await postgresMindStatistics(conn, SEARCH_TABLES, mindId, groups);
    const occurrences = groups.map((group, i) => `${postgresTermFrequency('c.search_vector', group)} AS f${i}`).join(', ');
    const weightedSum = groups.map((_, i) => `?::float8 * f${i} * ${BM25_K1 + 1} / (f${i} + norm)`).join(' + ');
    // In the order of the placeholders in the statement; float8 keeps the score exact across a cursor's round trip.
    const params: Knex.RawBinding[] = [
      ...groups.map((_, i) => bm25Idf(stats.indexed, stats.holding[i]!)),
      ...groups.flatMap(postgresTermBindings),
      stats.averageWords,
      mindId,
      all,
    ];
    const conditions = ['c.mind_id = ?', `c.search_vector @@ to_tsquery('simple', ?)`, ...filterConditions(filter, 'c', params)];
    let position = '';
    if (after) {
      const [sql, bindings] = afterPosition(after);
      position = `WHERE ${sql}`;
      params.push(...bindings);
    }
    params.push(limit);
    const { rows } = (await conn.raw(
      `SELECT * FROM (
         SELECT id, role, content, thread, created_at, (${weightedSum}) AS score FROM (
           SELECT c.id, c.role, c.content, c.thread, c.created_at, ${occurrences},
                  ${BM25_K1} * (${1 - BM25_B} + ${BM25_B} * length(ts_delete(c.search_vector, ${STOP_WORDS_SQL_ARRAY})) / ?::float8) AS norm
           FROM chat_messages c WHERE ${conditions.join(' AND ')}
         ) o
       ) hits ${position}
       ORDER BY score DESC, created_at DESC, id DESC LIMIT ?`,
      params,
    )) as { rows: Array<IndexedMessage & { score: number }> };
    return rows.map((row): ChatHit => ({ message: toMessage(row), score: Number(row.score) }));
  },
};
