import { inHitOrder, TsvectorIndex } from '../search/tsvector-engine.js';
import { wordVariants } from '../search/word-variants.js';
import { rankingWords, searchWords } from '../search/words.js';
import { type ChatHit, type ChatKeywordIndex, type IndexedMessage, MESSAGE_COLUMNS, rankedQuery, toMessage } from './keyword-index.js';

const ROWS_PER_STATEMENT = 500;

/** The message's own search_vector (migration 0560) and chat_search_stats (0561): search/tsvector-engine.ts. */
const CHAT_TSVECTOR = new TsvectorIndex({ rows: 'chat_messages', stats: 'chat_search_stats', count: 'messages' });

/** PostgreSQL's chat index: the vector is written after the row (its statistics kept by a trigger). */
export const postgresChatIndex: ChatKeywordIndex = {
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
    const hits = await CHAT_TSVECTOR.rankedHits(
      conn,
      rankedQuery(mindId, rankingWords(filter.words).map(wordVariants), filter, limit, after),
    );
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
