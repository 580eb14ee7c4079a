import type { Knex } from 'knex';
import type { Migration } from '../db/migration.js';

/**
 * Memories over time: when a memory is forgotten (expires_at), when its fact held in the world
 * (valid_from, valid_to), what replaced it (superseded_by), and its earlier versions.
 */
export const timeMigrations: Migration[] = [
  {
    name: '0700_memories_over_time',
    async up(db) {
      // Raw ALTERs: knex would rebuild SQLite's table for a column with a foreign key.
      for (const column of ['expires_at', 'valid_from', 'valid_to']) await db.raw(`ALTER TABLE memories ADD COLUMN ${column} VARCHAR(30)`);
      // A successor deleted (by hand or by expiry) leaves its predecessor current again, not pointing nowhere.
      await db.raw('ALTER TABLE memories ADD COLUMN superseded_by VARCHAR(36) REFERENCES memories(id) ON DELETE SET NULL');
      // Not partial: deleting a memory looks up its predecessor by it (the foreign key's action).
      await db.raw('CREATE INDEX memories_superseded_by ON memories (superseded_by)');
      // The expiry purge walks only the memories that expire.
      await db.raw('CREATE INDEX memories_expiry ON memories (expires_at) WHERE expires_at IS NOT NULL');
      await db.schema.createTable('memory_versions', (t) => {
        t.increments('seq');
        // The cipher binds a credentials version's content to this id: it cannot be moved to another version or memory.
        t.string('id', 36).notNullable().unique();
        t.string('memory_id', 36).notNullable().references('id').inTable('memories').onDelete('CASCADE');
        t.string('mind_id', 36).notNullable().references('id').inTable('minds').onDelete('CASCADE');
        t.string('category', 16).notNullable();
        t.string('key', 200).nullable();
        t.text('content').notNullable();
        t.text('content_encrypted').nullable();
        t.text('tags').notNullable();
        t.string('source', 200).nullable();
        t.string('expires_at', 30).nullable();
        t.string('valid_from', 30).nullable();
        t.string('valid_to', 30).nullable();
        t.string('at', 30).notNullable();
        t.string('replaced_at', 30).notNullable();
        t.index(['memory_id', 'seq'], 'memory_versions_memory');
        t.index(['mind_id'], 'memory_versions_mind');
      });
    },
    async down(db) {
      await db.schema.dropTable('memory_versions');
      await db.raw('DROP INDEX IF EXISTS memories_expiry');
      await db.raw('DROP INDEX IF EXISTS memories_superseded_by');
      for (const column of ['superseded_by', 'valid_to', 'valid_from', 'expires_at'])
        await db.raw(`ALTER TABLE memories DROP COLUMN ${column}`);
    },
  },
  {
    // SQLite ranks over memories_rank (0510, 0530): the time filters apply there before ranking and
    // paging, so the copy carries them; a trigger keeps them in step with any change of the row.
    name: '0701_memories_rank_time_sqlite',
    onlyOn: ['sqlite'],
    async up(db) {
      for (const column of ['expires_at', 'valid_from', 'valid_to']) {
        await db.raw(`ALTER TABLE memories_rank ADD COLUMN ${column} VARCHAR(30)`);
      }
      // The copies of what the rows hold (none on a database migrated from before 0700; some when the
      // ranking copy was rebuilt by 0530 again).
      await db.raw(`UPDATE memories_rank SET (expires_at, valid_from, valid_to) =
        (SELECT m.expires_at, m.valid_from, m.valid_to FROM memories m WHERE m.seq = memories_rank.seq)`);
      await db.raw('DROP TRIGGER IF EXISTS memories_rank_time');
      await db.raw(`CREATE TRIGGER memories_rank_time AFTER UPDATE OF expires_at, valid_from, valid_to ON memories BEGIN
        UPDATE memories_rank SET expires_at = new.expires_at, valid_from = new.valid_from, valid_to = new.valid_to WHERE seq = new.seq;
      END`);
    },
    async down(db) {
      await db.raw('DROP TRIGGER IF EXISTS memories_rank_time');
      for (const column of ['valid_to', 'valid_from', 'expires_at']) await db.raw(`ALTER TABLE memories_rank DROP COLUMN ${column}`);
    },
  },
  {
    // SQLite's newest-first walks (the common words' window, the newest page) check the time bounds
    // in the recency indexes: a row expired or past costs no read of its table row.
    name: '0702_memories_recency_time_sqlite',
    onlyOn: ['sqlite'],
    async up(db) {
      await recencyIndexes(db, ['expires_at', 'valid_from', 'valid_to']);
    },
    async down(db) {
      await recencyIndexes(db, []);
    },
  },
];

/** The memories' recency indexes, with `timeColumns` (and the category the walk of every category checks) after their order. */
async function recencyIndexes(db: Knex, timeColumns: string[]) {
  const time = timeColumns.map((c) => `, ${c}`).join('');
  await db.raw('DROP INDEX IF EXISTS memories_mind_recency');
  await db.raw(`CREATE INDEX memories_mind_recency ON memories (mind_id, updated_at, id${time ? `, category${time}` : ''})`);
  await db.raw('DROP INDEX IF EXISTS memories_mind_category_recency');
  await db.raw(`CREATE INDEX memories_mind_category_recency ON memories (mind_id, category, updated_at, id${time})`);
}
