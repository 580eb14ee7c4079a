import type { Knex } from 'knex';
import type { DialectName } from '../db/dialect.js';
import type { Migration } from '../db/migration.js';
import { STOP_WORDS_SQL_ARRAY } from '../search/stop-words.js';
import { rankingColumnsMigration } from '../search/tsvector-columns.js';
import { indexChatMessages } from './keyword-index-choice.js';

/**
 * The keyword index of chat messages (chat/keyword-index.ts), made as memories' is (memories/
 * keyword-index-migrations.ts), and an index on (mind_id, seq) for the mind's last stored messages
 * across threads (the candidates chat search ranks by meaning) and the last one's seq.
 *
 * - SQLite: chat_fts, an FTS5 table without content (rowid = chat_messages.seq, tokenizer `ascii`:
 *   the server writes the words, each with its mind's prefix, so no word reaches another mind's part
 *   of the index); chat_fts_terms and chat_fts_words (fts5vocab) for BM25 with the mind's own
 *   statistics; chat_rank, the narrow row ranking and the filters read (thread, role, created_at,
 *   length: search/words.ts documentLength); chat_search_stats, each mind's indexed messages and
 *   their total length, kept by triggers.
 *   Triggers on chat_messages take a deleted message out of all of them (the mind's purge deletes
 *   chat_messages in chunks; the cascade of the mind's row takes the statistics).
 * - PostgreSQL: a tsvector column in the message's row (the same words, 'simple'), with a GIN index,
 *   and chat_search_stats kept by a trigger on the column (lengths as documentLength: the distinct
 *   lexemes but today's stop words).
 */
const LENGTH = (vector: string) => `length(ts_delete(${vector}, ${STOP_WORDS_SQL_ARRAY}))`;
/** 0560's trigger function on PostgreSQL (0561 brings it back on the way down). */
const STATS_FUNCTION_0560 = `
     BEGIN
       IF TG_OP <> 'INSERT' AND OLD.search_vector IS NOT NULL THEN
         UPDATE chat_search_stats SET messages = messages - 1, words = words - ${LENGTH('OLD.search_vector')}
         WHERE mind_id = OLD.mind_id;
       END IF;
       IF TG_OP <> 'DELETE' AND NEW.search_vector IS NOT NULL THEN
         INSERT INTO chat_search_stats (mind_id, messages, words) VALUES (NEW.mind_id, 1, ${LENGTH('NEW.search_vector')})
         ON CONFLICT (mind_id) DO UPDATE SET messages = chat_search_stats.messages + 1,
           words = chat_search_stats.words + excluded.words;
       END IF;
       RETURN NULL;
     END `;
const CREATE: Record<DialectName, string[]> = {
  sqlite: [
    `CREATE VIRTUAL TABLE chat_fts USING fts5(content, content='', contentless_delete=1, tokenize='ascii')`,
    `CREATE VIRTUAL TABLE chat_fts_terms USING fts5vocab(chat_fts, 'instance')`,
    `CREATE VIRTUAL TABLE chat_fts_words USING fts5vocab(chat_fts, 'row')`,
    `CREATE TABLE chat_rank (
       seq INTEGER PRIMARY KEY,
       id VARCHAR(36) NOT NULL,
       mind_id VARCHAR(36) NOT NULL,
       thread VARCHAR(200) NOT NULL,
       role VARCHAR(8) NOT NULL,
       created_at VARCHAR(30) NOT NULL,
       words INTEGER NOT NULL)`,
    `CREATE TABLE chat_search_stats (
       mind_id VARCHAR(36) PRIMARY KEY REFERENCES minds(id) ON DELETE CASCADE,
       messages INTEGER NOT NULL,
       words INTEGER NOT NULL)`,
    `CREATE TRIGGER chat_messages_unindexed AFTER DELETE ON chat_messages BEGIN
       DELETE FROM chat_fts WHERE rowid = old.seq;
       DELETE FROM chat_rank WHERE seq = old.seq;
     END`,
    `CREATE TRIGGER chat_rank_counted AFTER INSERT ON chat_rank BEGIN
       INSERT INTO chat_search_stats (mind_id, messages, words) VALUES (new.mind_id, 1, new.words)
         ON CONFLICT (mind_id) DO UPDATE SET messages = messages + 1, words = words + excluded.words;
     END`,
    `CREATE TRIGGER chat_rank_uncounted AFTER DELETE ON chat_rank BEGIN
       UPDATE chat_search_stats SET messages = messages - 1, words = words - old.words WHERE mind_id = old.mind_id;
     END`,
  ],
  postgres: [
    'ALTER TABLE chat_messages ADD COLUMN search_vector tsvector',
    'CREATE INDEX chat_messages_search ON chat_messages USING GIN (search_vector)',
    `CREATE TABLE chat_search_stats (
       mind_id varchar(36) PRIMARY KEY REFERENCES minds(id) ON DELETE CASCADE,
       messages bigint NOT NULL,
       words bigint NOT NULL)`,
    `CREATE FUNCTION chat_search_stats_change() RETURNS trigger LANGUAGE plpgsql AS $$${STATS_FUNCTION_0560}$$`,
    `CREATE TRIGGER chat_search_stats_change AFTER INSERT OR DELETE OR UPDATE OF search_vector, mind_id ON chat_messages
     FOR EACH ROW EXECUTE FUNCTION chat_search_stats_change()`,
  ],
};

const DROP: Record<DialectName, string[]> = {
  sqlite: [
    'DROP TRIGGER IF EXISTS chat_messages_unindexed',
    'DROP TRIGGER IF EXISTS chat_rank_counted',
    'DROP TRIGGER IF EXISTS chat_rank_uncounted',
    'DROP TABLE IF EXISTS chat_search_stats',
    'DROP TABLE IF EXISTS chat_rank',
    'DROP TABLE IF EXISTS chat_fts_terms',
    'DROP TABLE IF EXISTS chat_fts_words',
    'DROP TABLE IF EXISTS chat_fts',
  ],
  postgres: [
    'DROP TRIGGER IF EXISTS chat_search_stats_change ON chat_messages',
    'DROP FUNCTION IF EXISTS chat_search_stats_change()',
    'DROP TABLE IF EXISTS chat_search_stats',
    'DROP INDEX IF EXISTS chat_messages_search',
    'ALTER TABLE chat_messages DROP COLUMN IF EXISTS search_vector',
  ],
};

/** Indexes the stored messages, 500 at a time. */
async function indexAll(db: Knex) {
  for (let after = 0; ; ) {
    const rows = (await db('chat_messages')
      .where('seq', '>', after)
      .orderBy('seq')
      .limit(500)
      .select('seq', 'id', 'mind_id', 'thread', 'role', 'content', 'created_at')) as Parameters<typeof indexChatMessages>[1];
    if (rows.length === 0) return;
    after = rows.at(-1)!.seq;
    await indexChatMessages(db, rows);
  }
}

export const chatMigrations: Migration[] = [
  {
    name: '0560_chat_search',
    async up(db, dialect) {
      for (const sql of CREATE[dialect.name]) await db.raw(sql);
      await db.schema.alterTable('chat_messages', (t) => t.index(['mind_id', 'seq'], 'chat_messages_mind_seq'));
      await indexAll(db);
    },
    async down(db, dialect) {
      await db.schema.alterTable('chat_messages', (t) => t.dropIndex(['mind_id', 'seq'], 'chat_messages_mind_seq'));
      for (const sql of DROP[dialect.name]) await db.raw(sql);
    },
  },
  {
    // PostgreSQL only: as 0533 for memories (search/tsvector-columns.ts rankingColumnsMigration).
    name: '0561_chat_ranking_postgres',
    onlyOn: ['postgres'],
    async up(db) {
      for (const sql of RANKING_0561.up) await db.raw(sql);
    },
    async down(db) {
      for (const sql of RANKING_0561.down) await db.raw(sql);
    },
  },
];

const RANKING_0561 = rankingColumnsMigration({
  rows: 'chat_messages',
  stats: 'chat_search_stats',
  count: 'messages',
  statsFunction: 'chat_search_stats_change',
  stopWords: STOP_WORDS_SQL_ARRAY,
  previousFunction: STATS_FUNCTION_0560,
});
