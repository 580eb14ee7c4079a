import type { DialectName } from '../db/dialect.js';
import type { Migration } from '../db/migration.js';

/** The keyword index's tables per database (see memories/keyword-index.ts): made with `memories`, dropped before it. */
const SEARCH_INDEX: Record<DialectName, { create: string[]; drop: string[] }> = {
  /**
   * SQLite full-text index over non-credentials memories. Contentless (the text lives only in
   * `memories`) with contentless_delete so rows can be removed by rowid. The rowid is memories.seq,
   * an INTEGER PRIMARY KEY, so VACUUM never renumbers it. The store writes the indexed text (each word
   * prefixed with its mind, see search/words.ts) in the transaction of the change; this trigger removes
   * index rows for every deleted memory, including those removed by ON DELETE CASCADE when a mind is
   * deleted (SQLite fires triggers for foreign-key actions).
   */
  sqlite: {
    create: [
      `CREATE VIRTUAL TABLE memories_fts USING fts5(key, content, tags,
     content='', contentless_delete=1, tokenize='unicode61 remove_diacritics 2')`,
      `CREATE TRIGGER memories_fts_delete AFTER DELETE ON memories BEGIN
     DELETE FROM memories_fts WHERE rowid = old.seq;
   END`,
    ],
    drop: ['DROP TRIGGER IF EXISTS memories_fts_delete', 'DROP TABLE IF EXISTS memories_fts'],
  },
  /**
   * PostgreSQL: a tsvector column (the 'simple' configuration over the same normalised words as SQLite,
   * NULL for credentials) with a GIN index; recall filters by mind and ranks by BM25 (keyword-index-postgres.ts). The column
   * and its index go with the table.
   */
  postgres: {
    create: [
      'ALTER TABLE memories ADD COLUMN search_vector tsvector',
      'CREATE INDEX memories_search ON memories USING GIN (search_vector)',
    ],
    drop: [],
  },
};

/** Memories (with their tags and search index), chat messages and scripts, all per mind. */
export const memoriesMigrations: Migration[] = [
  {
    name: '0500_memories_chat_scripts',
    async up(db, dialect) {
      await db.schema.createTable('memories', (t) => {
        // Integer key for the search index's rowid; the API id is the UUID.
        t.increments('seq');
        t.string('id', 36).notNullable().unique();
        t.string('mind_id', 36).notNullable().references('id').inTable('minds').onDelete('CASCADE');
        t.string('category', 16).notNullable();
        t.string('key', 200).nullable();
        // Plain text; '' for credentials, whose text is only in content_encrypted.
        t.text('content').notNullable();
        // base64 of iv (12 bytes) + GCM tag (16 bytes) + ciphertext; credentials only.
        t.text('content_encrypted').nullable();
        t.text('tags').notNullable(); // JSON array, for reading
        t.boolean('verified').notNullable();
        t.string('verified_at', 30).nullable();
        t.string('source', 200).nullable();
        t.string('created_at', 30).notNullable();
        t.string('updated_at', 30).notNullable();
        // NULL keys are distinct on both SQLite and PostgreSQL: only named memories are unique.
        t.unique(['mind_id', 'category', 'key'], { indexName: 'memories_mind_category_key' });
        t.index(['mind_id', 'updated_at', 'id'], 'memories_mind_recency');
        t.index(['mind_id', 'category', 'updated_at', 'id'], 'memories_mind_category_recency');
      });
      // Tag filters (`tags=a&tags=b`) need an index per tag; the JSON copy above is for reading.
      await db.schema.createTable('memory_tags', (t) => {
        t.string('memory_id', 36).notNullable().references('id').inTable('memories').onDelete('CASCADE');
        t.string('mind_id', 36).notNullable().references('id').inTable('minds').onDelete('CASCADE');
        t.string('tag', 100).notNullable();
        // The memory's updated_at, copied so a tag filter walks this index newest first and stops at the page size.
        t.string('updated_at', 30).notNullable();
        t.primary(['memory_id', 'tag']);
        t.index(['mind_id', 'tag', 'updated_at', 'memory_id'], 'memory_tags_recency');
      });
      for (const sql of SEARCH_INDEX[dialect.name].create) await db.raw(sql);

      await db.schema.createTable('chat_messages', (t) => {
        // Insertion order breaks ties between messages of the same millisecond.
        t.increments('seq');
        t.string('id', 36).notNullable().unique();
        t.string('mind_id', 36).notNullable().references('id').inTable('minds').onDelete('CASCADE');
        t.string('thread', 200).notNullable();
        t.string('role', 8).notNullable();
        t.text('content').notNullable();
        t.string('created_at', 30).notNullable();
        t.index(['mind_id', 'thread', 'created_at', 'seq'], 'chat_messages_thread_order');
      });

      await db.schema.createTable('scripts', (t) => {
        t.string('id', 36).primary();
        t.string('mind_id', 36).notNullable().references('id').inTable('minds').onDelete('CASCADE');
        t.string('name', 200).notNullable();
        t.text('description').nullable();
        t.string('language', 50).nullable();
        t.text('content').notNullable();
        t.string('created_at', 30).notNullable();
        t.string('updated_at', 30).notNullable();
        t.unique(['mind_id', 'name'], { indexName: 'scripts_mind_name' });
      });
    },
    async down(db, dialect) {
      await db.schema.dropTable('scripts');
      await db.schema.dropTable('chat_messages');
      for (const sql of SEARCH_INDEX[dialect.name].drop) await db.raw(sql);
      await db.schema.dropTable('memory_tags');
      await db.schema.dropTable('memories');
    },
  },
  {
    // SQLite only. Ranking reads, for every memory matching a word, whether it is verified (the
    // boost), its category (a filter) and its page order (updated_at, id). From `memories` that is a
    // lookup into a wide table per match; this narrow copy of the indexed (non-credentials)
    // memories, keyed like the index by seq, makes it a cheap one. The store keeps it in step in the
    // transaction of every change; the trigger removes rows of deleted memories, including those
    // removed by ON DELETE CASCADE. PostgreSQL ranks from the memories row itself.
    name: '0510_memories_rank',
    onlyOn: ['sqlite'],
    async up(db) {
      await db.raw(`CREATE TABLE memories_rank (
        seq INTEGER PRIMARY KEY,
        id VARCHAR(36) NOT NULL,
        category VARCHAR(16) NOT NULL,
        verified BOOLEAN NOT NULL,
        updated_at VARCHAR(30) NOT NULL)`);
      await db.raw(`INSERT INTO memories_rank (seq, id, category, verified, updated_at)
        SELECT seq, id, category, verified, updated_at FROM memories WHERE category != 'credentials'`);
      await db.raw(`CREATE TRIGGER memories_rank_delete AFTER DELETE ON memories BEGIN
        DELETE FROM memories_rank WHERE seq = old.seq;
      END`);
    },
    async down(db) {
      await db.raw('DROP TRIGGER IF EXISTS memories_rank_delete');
      await db.raw('DROP TABLE IF EXISTS memories_rank');
    },
  },
];
