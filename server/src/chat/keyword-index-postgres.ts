import type { Knex } from 'knex';
import { afterPosition, type ChatHit, type ChatKeywordIndex, filterConditions, type IndexedMessage, toMessage } from './keyword-index.js';
import { rankingWords, searchWords } from '../lib/search-words.js';
import { wordVariants } from '../lib/word-variants.js';

const ROWS_PER_STATEMENT = 500;

/**
 * PostgreSQL's chat index (migration 0560): the message's own search_vector (the 'simple'
 * configuration over the server's words), with a GIN index, matched with the mind in the same
 * condition; ts_rank reads nothing but the row, so no other mind's messages move a score. Queried
 * by the question's ranking words and their variants, as memories are (lib/search-words.ts).
 */
export const postgresChatIndex: ChatKeywordIndex = {
  scores: 'ts_rank',

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
    // Words are letters and digits only, so they are safe as tsquery terms; float8 keeps the score
    // exact across a cursor's round trip.
    const tsquery = [...new Set(rankingWords(filter.words).flatMap(wordVariants))].join(' | ');
    const params: Knex.RawBinding[] = [tsquery, mindId, tsquery];
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
         SELECT c.id, c.role, c.content, c.thread, c.created_at,
                ts_rank(c.search_vector, to_tsquery('simple', ?))::float8 AS score
         FROM chat_messages c WHERE ${conditions.join(' AND ')}
       ) hits ${position}
       ORDER BY score DESC, created_at DESC, id DESC LIMIT ?`,
      params,
    )) as { rows: Array<IndexedMessage & { score: number }> };
    return rows.map((row): ChatHit => ({ message: toMessage(row), score: Number(row.score) }));
  },
};
