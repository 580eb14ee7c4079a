import { sqliteConnection } from '../db/database.js';
import type { KeywordIndex } from './keyword-index.js';
import { recallSqlite } from './recall-sqlite.js';
import { COLUMNS, tagRows } from './rows.js';
import { addToSearchIndex, removeFromSearchIndex } from './search-index.js';

// POST /memory's statements run prepared on the transaction's connection, with the seq known from
// the insert: cheaper than knex's query builder and insertMany on the hot path.
const INSERT_MEMORY = `INSERT INTO memories (${COLUMNS.join(', ')}) VALUES (${COLUMNS.map(() => '?').join(', ')})`;
const INSERT_TAG = 'INSERT INTO memory_tags (memory_id, mind_id, tag, updated_at) VALUES (?, ?, ?, ?)';

/**
 * SQLite's keyword index: the FTS5 table memories_fts and the ranking rows of memories_rank, keyed
 * by memories.seq and written beside the row (search-index.ts); ranked by BM25 over each mind's own
 * memories (recall-sqlite.ts).
 */
export const sqliteKeywordIndex: KeywordIndex = {
  scores: 'bm25',
  rowFor: (_conn, row) => row,

  async insertOne(conn, rows, mindId, memory, sink) {
    const sqlite = await sqliteConnection(conn);
    const row = rows.toRow(mindId, memory);
    const seq = Number(
      sqlite.prepare(INSERT_MEMORY).run(...COLUMNS.map((c) => (c === 'verified' ? Number(row.verified) : row[c]))).lastInsertRowid,
    );
    const insertTag = sqlite.prepare(INSERT_TAG);
    for (const tag of tagRows(mindId, memory)) insertTag.run(tag.memory_id, tag.mind_id, tag.tag, tag.updated_at);
    await addToSearchIndex(conn, sink, mindId, [memory], new Map([[memory.id, seq]]));
  },

  added: (conn, sink, mindId, memories) => addToSearchIndex(conn, sink, mindId, memories),

  async rewritten(conn, sink, mindId, memory) {
    await conn.raw('DELETE FROM memories_rank WHERE seq = (SELECT seq FROM memories WHERE id = ?)', [memory.id]);
    await removeFromSearchIndex(conn, sink, memory.id);
    await addToSearchIndex(conn, sink, mindId, [memory]);
  },

  rankedPage: recallSqlite,
};
