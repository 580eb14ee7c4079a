import type { Memory } from '@mindservice/contract';
import type { Knex } from 'knex';
import { type Conn, sqliteConnection } from '../db/database.js';
import { splitByCommonness } from '../search/common-words.js';
import { type Fts5Entry, Fts5Index, holdingTerm } from '../search/fts5-engine.js';
import { wordVariants } from '../search/word-variants.js';
import { rankingWords, searchWords } from '../search/words.js';
import type { KeywordIndex } from './keyword-index.js';
import { filterConditions, olderThan, type RecallRow, VERIFIED_BOOST } from './recall-filter.js';
import { COLUMNS, type ReadRow, SQLITE_COLUMNS, tagRows } from './rows.js';

// POST /memory's statements run prepared on the transaction's connection, with the seq known from
// the insert: cheaper than knex's query builder and insertMany on the hot path.
const INSERT_MEMORY = `INSERT INTO memories (${COLUMNS.join(', ')}) VALUES (${COLUMNS.map(() => '?').join(', ')})`;
const INSERT_TAG = 'INSERT INTO memory_tags (memory_id, mind_id, tag, updated_at) VALUES (?, ?, ?, ?)';

/** The tables keyword-index-migrations.ts made (0530, time bounds since 0701): the ranking row carries the filtered columns. */
export const MEMORIES_FTS = new Fts5Index({
  rows: 'memories',
  fts: 'memories_fts',
  ftsColumns: ['key', 'content', 'tags'],
  terms: 'memories_fts_terms',
  words: 'memories_fts_words',
  rank: 'memories_rank',
  rankColumns: ['seq', 'id', 'mind_id', 'category', 'verified', 'updated_at', 'expires_at', 'valid_from', 'valid_to', 'words'],
  stats: 'memory_search_stats',
  count: 'memories',
});

/** What the index holds of a memory: its ranking row's values and the words of its key, content and tags. */
export const memoryEntry = (
  mindId: string,
  seq: number,
  m: Pick<Memory, 'id' | 'category' | 'verified' | 'updated_at' | 'key' | 'content' | 'tags' | 'expires_at' | 'valid_from' | 'valid_to'>,
): Fts5Entry => ({
  seq,
  mindId,
  rank: [m.id, mindId, m.category, Number(m.verified), m.updated_at, m.expires_at, m.valid_from, m.valid_to],
  fields: [searchWords(m.key ?? ''), searchWords(m.content), searchWords(m.tags.join(' '))],
});

/** Indexes memories already inserted (credentials never); `knownSeqs` saves looking their seqs up. */
async function index(conn: Conn, mindId: string, memories: Memory[], knownSeqs?: Map<string, number>) {
  const indexed = memories.filter((m) => m.category !== 'credentials');
  if (indexed.length === 0) return;
  let seqs = knownSeqs;
  if (!seqs) {
    const rows = (await conn('memories')
      .whereIn(
        'id',
        indexed.map((m) => m.id),
      )
      .select('id', 'seq')) as Array<{ id: string; seq: number }>;
    seqs = new Map(rows.map((r) => [r.id, r.seq]));
  }
  await MEMORIES_FTS.add(
    conn,
    indexed.map((m) => memoryEntry(mindId, seqs.get(m.id)!, m)),
  );
}

const BOOST = `CASE WHEN r.verified THEN ${VERIFIED_BOOST} ELSE 1 END`;

/** SQLite's keyword index of memories: search/fts5-engine.ts over the tables above. */
export const sqliteKeywordIndex: KeywordIndex = {
  rowFor: (_conn, row) => row,

  async insertOne(conn, rows, mindId, memory) {
    const sqlite = await sqliteConnection(conn);
    const row = rows.toRow(mindId, memory);
    const seq = Number(
      sqlite.prepare(INSERT_MEMORY).run(...COLUMNS.map((c) => (c === 'verified' ? Number(row.verified) : row[c]))).lastInsertRowid,
    );
    const insertTag = sqlite.prepare(INSERT_TAG);
    for (const tag of tagRows(mindId, memory)) insertTag.run(tag.memory_id, tag.mind_id, tag.tag, tag.updated_at);
    await index(conn, mindId, [memory], new Map([[memory.id, seq]]));
  },

  added: (conn, mindId, memories) => index(conn, mindId, memories),

  async rewritten(conn, mindId, memory) {
    await MEMORIES_FTS.remove(conn, memory.id);
    await index(conn, mindId, [memory]);
  },

  /**
   * BM25 over the question's ranking words but the common ones; then, score 0 and newest first,
   * what holds only common words (a question of only common words thus lists its matches newest first).
   */
  async rankedPage(conn, rows, mindId, filter, limit, after) {
    const variants = rankingWords(filter.words).map(wordVariants);
    const stats = await MEMORIES_FTS.statistics(conn, mindId, [...new Set(variants.flat())]);
    // Variants no memory of the mind holds cost a lookup each in the ranking and add nothing.
    const groups = variants.map((group) => group.filter((w, i) => i === 0 || stats.holding.get(w)! > 0));
    const { ranked, common } = splitByCommonness(groups, stats.texts, (group) => holdingTerm(stats, group));
    const inTail = after !== undefined && after.score <= 0;
    const hits: Array<ReadRow & { score: number }> = [];
    if (ranked.length > 0 && !inTail) {
      const conditionBindings: Knex.RawBinding[] = [];
      const conditions = filterConditions(filter, 'r', conditionBindings, false);
      const position = after && { score: after.score, at: after.updatedAt, id: after.id };
      const q = { mindId, groups: ranked, conditions, conditionBindings, boost: BOOST, orderColumn: 'updated_at', after: position, limit };
      hits.push(...(await MEMORIES_FTS.rankedRows<ReadRow>(conn, q, stats, SQLITE_COLUMNS)));
    }
    if (hits.length < limit && common.length > 0) {
      const conditionBindings: Knex.RawBinding[] = [];
      const conditions = filterConditions(filter, 'm', conditionBindings);
      if (inTail) conditions.push(olderThan('m', after, conditionBindings));
      const q = { mindId, conditions, conditionBindings, orderColumn: 'updated_at', limit: limit - hits.length };
      hits.push(
        ...(await MEMORIES_FTS.commonWordsRows<ReadRow>(conn, { ...q, common: common.flat(), ranked: ranked.flat() }, SQLITE_COLUMNS)),
      );
    }
    return hits.map((row): RecallRow => ({ memory: rows.toMemory(row), score: Number(row.score) }));
  },
};
