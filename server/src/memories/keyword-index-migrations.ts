import type { Knex } from 'knex';
import type { Migration } from '../db/migration.js';
import { STOP_WORDS_SQL_ARRAY } from '../search/stop-words.js';
import { rankingColumnsMigration, writtenRankingColumnsMigration } from '../search/tsvector-columns.js';
import { documentLength, indexedText, searchWords } from '../search/words.js';

/** What SQLite's index holds for a memory: the indexed text of its key, content and tags, and its length. */
function indexEntry(mindId: string, key: string | null, content: string, tags: string[]) {
  const fields = [searchWords(key ?? ''), searchWords(content), searchWords(tags.join(' '))];
  return { texts: fields.map((words) => indexedText(mindId, words)), words: documentLength(fields.flat()) };
}

/**
 * SQLite's search index, rebuilt so that no mind can write into another mind's part of it and no
 * mind's writes move another mind's scores.
 *
 * - Tokenizer `ascii` instead of `unicode61`: the server makes the words itself (search/words.ts:
 *   letters and digits, joined by spaces), and `ascii` splits only at ASCII separators, so the index
 *   holds exactly the words the server wrote, each starting with its own mind's prefix. unicode61
 *   split some words again where its older Unicode tables saw a separator (U+19B0 and others), so a
 *   word stored in one mind could put its second half, carrying another mind's prefix, in that
 *   mind's part of the index.
 * - BM25's statistics per mind: memories_rank gains the mind and the memory's length in words, and
 *   memory_search_stats keeps each mind's number of indexed memories and words (kept by triggers on
 *   memories_rank), so search/fts5-engine.ts ranks with the mind's own numbers. FTS5's bm25() uses the
 *   whole table's, which every tenant's writes moved (and so could be read back from scores).
 * - memories_fts_terms (fts5vocab, 'instance'): a word's occurrences per memory, and
 *   memories_fts_words (fts5vocab, 'row'): a word's number of memories, for that ranking.
 */
const SQLITE_UP = [
  // From whatever index there was (0500's, or this one when it is run again to rebuild).
  'DROP TABLE IF EXISTS memories_fts_terms',
  'DROP TABLE IF EXISTS memories_fts_words',
  'DROP TABLE IF EXISTS memory_search_stats',
  'DROP TRIGGER IF EXISTS memories_fts_delete',
  'DROP TABLE IF EXISTS memories_fts',
  `CREATE VIRTUAL TABLE memories_fts USING fts5(key, content, tags, content='', contentless_delete=1, tokenize='ascii')`,
  `CREATE TRIGGER memories_fts_delete AFTER DELETE ON memories BEGIN
     DELETE FROM memories_fts WHERE rowid = old.seq;
   END`,
  `CREATE VIRTUAL TABLE memories_fts_terms USING fts5vocab(memories_fts, 'instance')`,
  `CREATE VIRTUAL TABLE memories_fts_words USING fts5vocab(memories_fts, 'row')`,
  'DROP TRIGGER IF EXISTS memories_rank_delete',
  'DROP TABLE IF EXISTS memories_rank',
  `CREATE TABLE memories_rank (
     seq INTEGER PRIMARY KEY,
     id VARCHAR(36) NOT NULL,
     mind_id VARCHAR(36) NOT NULL,
     category VARCHAR(16) NOT NULL,
     verified BOOLEAN NOT NULL,
     updated_at VARCHAR(30) NOT NULL,
     words INTEGER NOT NULL)`,
  `CREATE TRIGGER memories_rank_delete AFTER DELETE ON memories BEGIN
     DELETE FROM memories_rank WHERE seq = old.seq;
   END`,
  `CREATE TABLE memory_search_stats (
     mind_id VARCHAR(36) PRIMARY KEY REFERENCES minds(id) ON DELETE CASCADE,
     memories INTEGER NOT NULL,
     words INTEGER NOT NULL)`,
  `CREATE TRIGGER memories_rank_counted AFTER INSERT ON memories_rank BEGIN
     INSERT INTO memory_search_stats (mind_id, memories, words) VALUES (new.mind_id, 1, new.words)
       ON CONFLICT (mind_id) DO UPDATE SET memories = memories + 1, words = words + excluded.words;
   END`,
  `CREATE TRIGGER memories_rank_uncounted AFTER DELETE ON memories_rank BEGIN
     UPDATE memory_search_stats SET memories = memories - 1, words = words - old.words WHERE mind_id = old.mind_id;
   END`,
];

interface StoredRow {
  seq: number;
  id: string;
  mind_id: string;
  category: string;
  verified: number;
  updated_at: string;
  key: string | null;
  content: string;
  tags: string;
}

/** Indexes the stored memories again, 500 at a time (the text of memories is plain, credentials aside). */
async function reindexAll(db: Knex) {
  for (let after = 0; ; ) {
    const rows = (await db('memories')
      .where('seq', '>', after)
      .andWhereNot('category', 'credentials')
      .orderBy('seq')
      .limit(500)
      .select('seq', 'id', 'mind_id', 'category', 'verified', 'updated_at', 'key', 'content', 'tags')) as StoredRow[];
    if (rows.length === 0) return;
    after = rows.at(-1)!.seq;
    for (const row of rows) {
      const { texts, words } = indexEntry(row.mind_id, row.key, row.content, JSON.parse(row.tags) as string[]);
      await db.raw('INSERT INTO memories_fts (rowid, key, content, tags) VALUES (?, ?, ?, ?)', [row.seq, ...texts]);
      await db.raw('INSERT INTO memories_rank (seq, id, mind_id, category, verified, updated_at, words) VALUES (?, ?, ?, ?, ?, ?, ?)', [
        row.seq,
        row.id,
        row.mind_id,
        row.category,
        row.verified,
        row.updated_at,
        words,
      ]);
    }
  }
}

export const keywordIndexMigrations: Migration[] = [
  {
    // SQLite only: PostgreSQL's search_vector lives in the mind's own row, is matched with the mind
    // in the same condition, and ts_rank reads nothing but that row.
    name: '0530_search_index_per_mind',
    onlyOn: ['sqlite'],
    async up(db) {
      for (const sql of SQLITE_UP) await db.raw(sql);
      await reindexAll(db);
    },
    async down(db) {
      for (const name of ['memories_rank_counted', 'memories_rank_uncounted']) await db.raw(`DROP TRIGGER IF EXISTS ${name}`);
      await db.raw('DROP TABLE IF EXISTS memory_search_stats');
      await db.raw('DROP TABLE IF EXISTS memories_fts_terms');
      await db.raw('DROP TABLE IF EXISTS memories_fts_words');
      // memories_rank back in 0510's shape, or the code of that time cannot write its rows. The index
      // keeps the ascii tokenizer: that code wrote the same words and searched through the same index.
      await db.raw('ALTER TABLE memories_rank DROP COLUMN mind_id');
      await db.raw('ALTER TABLE memories_rank DROP COLUMN words');
    },
  },
  {
    // PostgreSQL only: BM25 over each mind's own memories needs the mind's number of indexed memories
    // and their total length (search/tsvector-engine.ts); SQLite keeps them since 0530 (0532 measures
    // them as this does).
    name: '0531_search_stats_postgres',
    onlyOn: ['postgres'],
    async up(db) {
      for (const sql of POSTGRES_STATS_UP) await db.raw(sql);
    },
    async down(db) {
      await db.raw('DROP TRIGGER IF EXISTS memory_search_stats_change ON memories');
      await db.raw('DROP FUNCTION IF EXISTS memory_search_stats_change()');
      await db.raw('DROP TABLE IF EXISTS memory_search_stats');
    },
  },
  {
    // SQLite only: a memory's length for BM25 becomes its distinct words but stop words
    // (search/words.ts documentLength), as on PostgreSQL, instead of all its words.
    name: '0532_search_lengths_sqlite',
    onlyOn: ['sqlite'],
    up: (db) => measureLengths(db, (row) => indexEntry(row.mind_id, row.key, row.content, JSON.parse(row.tags) as string[]).words),
    // 0530's lengths: every word of key, content and tags.
    down: (db) =>
      measureLengths(db, (row) => [row.key ?? '', row.content, (JSON.parse(row.tags) as string[]).join(' ')].flatMap(searchWords).length),
  },
  {
    // PostgreSQL only: each memory's length and repeated words as columns, and each mind's statistics
    // in a row per backend (search/tsvector-columns.ts rankingColumnsMigration), for recall that scores
    // its candidates in one pass and writes of one mind that do not wait for each other.
    name: '0533_search_ranking_postgres',
    onlyOn: ['postgres'],
    async up(db) {
      for (const sql of RANKING_0533.up) await db.raw(sql);
    },
    async down(db) {
      for (const sql of RANKING_0533.down) await db.raw(sql);
      await db.raw('DROP FUNCTION IF EXISTS search_word_counts(tsvector)');
    },
  },
  {
    // PostgreSQL only: the ranking columns are written by POST /memory's statement itself, and by a
    // trigger for every other writer, instead of being generated (search/tsvector-columns.ts).
    name: '0534_search_columns_written_postgres',
    onlyOn: ['postgres'],
    async up(db) {
      for (const sql of COLUMNS_WRITTEN_0534.up) await db.raw(sql);
    },
    async down(db) {
      for (const sql of COLUMNS_WRITTEN_0534.down) await db.raw(sql);
    },
  },
];

/** SQLite: every ranking row's length measured again, 500 at a time, and each mind's statistics summed again. */
async function measureLengths(db: Knex, lengthOf: (row: StoredRow) => number) {
  for (let after = 0; ; ) {
    const rows = (await db('memories as m')
      .join('memories_rank as r', 'r.seq', 'm.seq')
      .where('m.seq', '>', after)
      .orderBy('m.seq')
      .limit(500)
      .select('m.seq', 'm.mind_id', 'm.key', 'm.content', 'm.tags')) as StoredRow[];
    if (rows.length === 0) break;
    after = rows.at(-1)!.seq;
    for (const row of rows)
      await db('memories_rank')
        .where({ seq: row.seq })
        .update({ words: lengthOf(row) });
  }
  await db.raw('DELETE FROM memory_search_stats');
  await db.raw(
    'INSERT INTO memory_search_stats (mind_id, memories, words) SELECT mind_id, count(*), sum(words) FROM memories_rank GROUP BY mind_id',
  );
}

/**
 * PostgreSQL: memory_search_stats keeps each mind's number of indexed memories (search_vector not
 * NULL: credentials have none) and the sum of their lengths (search/words.ts documentLength), kept
 * by a trigger in the transaction of every write, and filled from the memories there are.
 */
// Today's STOP_WORDS: a change to them needs a migration that writes this function and the sums again.
const LENGTH = (vector: string) => `length(ts_delete(${vector}, ${STOP_WORDS_SQL_ARRAY}))`;
/** 0531's trigger function (0533 brings it back on the way down). */
const STATS_FUNCTION_0531 = `
   BEGIN
     IF TG_OP <> 'INSERT' AND OLD.search_vector IS NOT NULL THEN
       UPDATE memory_search_stats SET memories = memories - 1, words = words - ${LENGTH('OLD.search_vector')}
       WHERE mind_id = OLD.mind_id;
     END IF;
     IF TG_OP <> 'DELETE' AND NEW.search_vector IS NOT NULL THEN
       INSERT INTO memory_search_stats (mind_id, memories, words) VALUES (NEW.mind_id, 1, ${LENGTH('NEW.search_vector')})
       ON CONFLICT (mind_id) DO UPDATE SET memories = memory_search_stats.memories + 1,
         words = memory_search_stats.words + excluded.words;
     END IF;
     RETURN NULL;
   END `;
const POSTGRES_STATS_UP = [
  `CREATE TABLE memory_search_stats (
     mind_id varchar(36) PRIMARY KEY REFERENCES minds(id) ON DELETE CASCADE,
     memories bigint NOT NULL,
     words bigint NOT NULL)`,
  `CREATE FUNCTION memory_search_stats_change() RETURNS trigger LANGUAGE plpgsql AS $$${STATS_FUNCTION_0531}$$`,
  `CREATE TRIGGER memory_search_stats_change AFTER INSERT OR DELETE OR UPDATE OF search_vector, mind_id ON memories
   FOR EACH ROW EXECUTE FUNCTION memory_search_stats_change()`,
  `INSERT INTO memory_search_stats (mind_id, memories, words)
   SELECT mind_id, count(*), sum(${LENGTH('search_vector')}) FROM memories WHERE search_vector IS NOT NULL GROUP BY mind_id`,
];

const COLUMNS_WRITTEN_0534 = writtenRankingColumnsMigration('memories');

const RANKING_0533 = rankingColumnsMigration({
  rows: 'memories',
  stats: 'memory_search_stats',
  count: 'memories',
  statsFunction: 'memory_search_stats_change',
  stopWords: STOP_WORDS_SQL_ARRAY,
  previousFunction: STATS_FUNCTION_0531,
});
