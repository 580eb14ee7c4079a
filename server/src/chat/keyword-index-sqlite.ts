import type { Knex } from 'knex';
import { type Conn, runSql } from '../db/database.js';
import { BM25_B as B, BM25_K1 as K1, bm25Idf as idf, sqliteTermFrequency } from '../lib/bm25.js';
import { documentLength, mindPrefix, rankingWords, searchWords } from '../lib/search-words.js';
import { wordVariants } from '../lib/word-variants.js';
import { afterPosition, type ChatHit, type ChatKeywordIndex, filterConditions, type IndexedMessage, toMessage } from './keyword-index.js';

/** Rows per statement when indexing (4 and 7 bindings a row: well under SQLite's limit). */
const ROWS_PER_STATEMENT = 100;

/**
 * SQLite's chat index (migration 0560): chat_fts holds each message's words with its mind's prefix
 * (rowid = seq), chat_rank its narrow ranking row. Ranked by BM25 (lib/bm25.ts) computed with the
 * mind's own statistics (chat_search_stats, chat_fts_words), not FTS5's bm25(), whose message count
 * and average length are the whole table's: another mind's messages would move this mind's scores.
 */
export const sqliteChatIndex: ChatKeywordIndex = {
  scores: 'bm25',

  async added(conn, messages) {
    for (let i = 0; i < messages.length; i += ROWS_PER_STATEMENT) {
      const chunk = messages.slice(i, i + ROWS_PER_STATEMENT).map((m) => ({ m, words: searchWords(m.content) }));
      const values = (n: number) =>
        Array(chunk.length)
          .fill(`(${Array(n).fill('?').join(', ')})`)
          .join(', ');
      await runSql(
        conn,
        `INSERT INTO chat_rank (seq, id, mind_id, thread, role, created_at, words) VALUES ${values(7)}`,
        chunk.flatMap(({ m, words }) => [m.seq, m.id, m.mind_id, m.thread, m.role, m.created_at, documentLength(words)]),
      );
      // One statement for the chunk: FTS5 writes a segment per statement in a transaction.
      await runSql(
        conn,
        `INSERT INTO chat_fts (rowid, content) VALUES ${values(2)}`,
        chunk.flatMap(({ m, words }) => [m.seq, words.map((w) => mindPrefix(m.mind_id) + w).join(' ')]),
      );
    }
  },

  async rankedPage(conn, mindId, filter, limit, after) {
    const prefix = mindPrefix(mindId);
    // As memories' recall (memories/recall-sqlite.ts): the ranking words, each with its variants as one term.
    const groups = rankingWords(filter.words).map((w) => wordVariants(w).map((v) => prefix + v));
    const terms = [...new Set(groups.flat())];
    const stats = await mindStatistics(conn, mindId, terms);
    const holdingOf = new Map(terms.map((t, i) => [t, stats.holding[i]!]));
    const holding = (group: string[]) =>
      Math.min(
        Math.max(stats.messages, 1),
        group.reduce((n, t) => n + holdingOf.get(t)!, 0),
      );
    const frequencies = groups.map((group, i) => `${sqliteTermFrequency(group)} AS f${i}`).join(', ');
    const weightedSum = groups.map((_, i) => `? * f${i} * ${K1 + 1} / (f${i} + norm)`).join(' + ');
    // In the order of the placeholders in the statement.
    const params: Knex.RawBinding[] = [
      ...groups.map((g) => idf(stats.messages, holding(g))),
      stats.averageWords,
      ...groups.flat(),
      ...terms,
      mindId,
    ];
    const conditions = ['r.mind_id = ?', ...filterConditions(filter, 'r', params)];
    let position = '';
    if (after) {
      const [sql, bindings] = afterPosition(after);
      position = `WHERE ${sql}`;
      params.push(...bindings);
    }
    params.push(limit);
    // The mind's postings only (the prefixed words), grouped once by message; rows matched to the
    // mind and the filters before the limit; only the page's messages are read.
    const rows = (await conn.raw(
      `WITH hits AS MATERIALIZED (
         SELECT * FROM (
           SELECT seq, created_at, id, (${weightedSum}) AS score FROM (
             SELECT r.seq, r.created_at, r.id, o.*, ${K1} * (${1 - B} + ${B} * r.words / ?) AS norm
             FROM (SELECT v.doc, ${frequencies} FROM chat_fts_terms v
                   WHERE v.term IN (${terms.map(() => '?').join(', ')}) GROUP BY v.doc) o
             JOIN chat_rank r ON r.seq = o.doc
             WHERE ${conditions.join(' AND ')})
         ) ${position}
         ORDER BY score DESC, created_at DESC, id DESC LIMIT ?)
       SELECT c.id, c.role, c.content, c.thread, c.created_at, hits.score AS score
       FROM hits CROSS JOIN chat_messages c ON c.seq = hits.seq
       ORDER BY hits.score DESC, hits.created_at DESC, hits.id DESC`,
      params,
    )) as Array<IndexedMessage & { score: number }>;
    return rows.map((row): ChatHit => ({ message: toMessage(row), score: Number(row.score) }));
  },
};

/** The mind's indexed messages, their average length in words, and how many hold each (prefixed) word. */
async function mindStatistics(conn: Conn, mindId: string, terms: string[]) {
  const counts = terms.map((_, i) => `, (SELECT doc FROM chat_fts_words WHERE term = ?) AS w${i}`).join('');
  const [row] = await runSql<Record<string, number | null>>(
    conn,
    `SELECT s.messages, s.words${counts} FROM (SELECT 1) LEFT JOIN chat_search_stats s ON s.mind_id = ?`,
    [...terms, mindId],
  );
  const messages = row?.messages ?? 0;
  return {
    messages,
    averageWords: messages > 0 ? row!.words! / messages || 1 : 1,
    holding: terms.map((_, i) => row?.[`w${i}`] ?? 0),
  };
}
