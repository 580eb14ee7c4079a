import type { Knex } from 'knex';
import { inHitOrder, postgresRankedHits } from '../db/postgres-bm25.js';
import { rankingWords, searchWords } from '../lib/search-words.js';
import { wordVariants } from '../lib/word-variants.js';
import { type ChatHit, type ChatKeywordIndex, filterConditions, type IndexedMessage, MESSAGE_COLUMNS, toMessage } from './keyword-index.js';

const ROWS_PER_STATEMENT = 500;

/**
 * PostgreSQL's chat index (migration 0560): the message's own search_vector (the 'simple'
 * configuration over the server's words), with a GIN index, matched with the mind in the same
 * condition, the row's length and repeated words derived from it (0561), and the mind's count of
 * indexed messages and their total length in chat_search_stats. Ranked by BM25 as memories are, in
 * one statement (db/postgres-bm25.ts): the question's ranking words, each with its variants as one
 * term, counted among the mind's own messages.
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
    const conditionBindings: Knex.RawBinding[] = [];
    const hits = await postgresRankedHits(conn, {
      tables: SEARCH_TABLES,
      alias: 'c',
      mindId,
      groups: rankingWords(filter.words).map(wordVariants),
      conditions: filterConditions(filter, 'c', conditionBindings),
      conditionBindings,
      boost: '1',
      orderColumn: 'created_at',
      after: after && { score: after.score, at: after.createdAt, id: after.id },
      limit,
    });
    return inHitOrder(
      hits,
      (seqs) =>
        conn('chat_messages')
          .whereIn('seq', seqs)
          .select('seq', ...MESSAGE_COLUMNS) as Promise<IndexedMessage[]>,
      (row, score): ChatHit => ({ message: toMessage(row), score }),
    );
  },
};
