import type { Knex } from 'knex';
import { type Conn, runSql } from '../db/database.js';
import { BM25_B, BM25_K1, bm25Idf, postgresTermBindings, postgresTermFrequency } from '../lib/bm25.js';
import { rankingWords, STOP_WORDS_SQL_ARRAY, searchWords } from '../lib/search-words.js';
import { wordVariants } from '../lib/word-variants.js';
import { afterPosition, type ChatHit, type ChatKeywordIndex, filterConditions, type IndexedMessage, toMessage } from './keyword-index.js';

const ROWS_PER_STATEMENT = 500;

/** Words are letters and digits only (searchWords), so they are safe as tsquery terms. */
const tsqueryOf = (words: string[]) => words.join(' | ');

/**
 * PostgreSQL's chat index (migration 0560): the message's own search_vector (the 'simple'
 * configuration over the server's words), with a GIN index, matched with the mind in the same
 * condition, and the mind's count of indexed messages and their total length in chat_search_stats.
 * Ranked by BM25 as memories are (memories/keyword-index-postgres.ts): the question's ranking words,
 * each with its variants as one term, counted among the mind's own messages.
 */
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
    const stats = await mindStatistics(conn, mindId, groups, all);
    const occurrences = groups.map((group, i) => `${postgresTermFrequency('c.search_vector', group)} AS f${i}`).join(', ');
    const weightedSum = groups.map((_, i) => `?::float8 * f${i} * ${BM25_K1 + 1} / (f${i} + norm)`).join(' + ');
    // In the order of the placeholders in the statement; float8 keeps the score exact across a cursor's round trip.
    const params: Knex.RawBinding[] = [
      ...groups.map((_, i) => bm25Idf(stats.messages, stats.holding[i]!)),
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

/** BM25's statistics of a mind for the question: its indexed messages, their average length, and how many hold each term. */
async function mindStatistics(conn: Conn, mindId: string, groups: string[][], all: string) {
  const holding = groups.map((_, i) => `count(*) FILTER (WHERE search_vector @@ to_tsquery('simple', ?)) AS d${i}`).join(', ');
  const [row] = await runSql<Record<string, string | number | null>>(
    conn,
    `SELECT s.messages, s.words, h.* FROM (SELECT ${holding} FROM chat_messages
       WHERE mind_id = ? AND search_vector @@ to_tsquery('simple', ?)) h
     LEFT JOIN chat_search_stats s ON s.mind_id = ?`,
    [...groups.map(tsqueryOf), mindId, all, mindId],
  );
  const messages = Number(row?.messages ?? 0);
  return {
    messages,
    averageWords: messages > 0 ? Number(row!.words) / messages || 1 : 1,
    holding: groups.map((_, i) => Number(row?.[`d${i}`] ?? 0)),
  };
}
