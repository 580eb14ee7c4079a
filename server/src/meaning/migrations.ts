import type { Knex } from 'knex';
import type { DialectName } from '../db/dialect.js';
import type { Migration } from '../db/migration.js';

/**
 * Embeddings of memories, for recall by meaning. `embedding_queue` holds the memories whose vector is missing
 * or out of date; triggers on `memories` fill it in the transaction of every write that changes what
 * is embedded (key, content, tags, category; not a verify),
 * so no write path can forget it and a crash loses nothing. `version` grows with each change: the
 * worker removes a row only if it is still the version it embedded. Credentials are never queued.
 * `memory_vectors` holds one vector per memory (float32, little-endian) with its model's name.
 */
/** What is embedded changed: key, content, tags or category (a verify or a source change is not). */
const SQLITE_CHANGED = `(new.key IS NOT old.key OR new.content IS NOT old.content OR new.tags IS NOT old.tags OR new.category IS NOT old.category)`;
const SQLITE_QUEUE = `INSERT INTO embedding_queue (memory_seq, mind_id, version) VALUES (new.seq, new.mind_id, 1)
       ON CONFLICT (memory_seq) DO UPDATE SET version = version + 1, claimed_until = NULL;`;

const SQLITE_TRIGGERS = [
  `CREATE TRIGGER embedding_queue_on_insert AFTER INSERT ON memories WHEN new.category != 'credentials' BEGIN
     ${SQLITE_QUEUE}
   END`,
  `CREATE TRIGGER embedding_queue_on_update AFTER UPDATE ON memories
     WHEN new.category != 'credentials' AND ${SQLITE_CHANGED} BEGIN
     ${SQLITE_QUEUE}
   END`,
  // A memory turned into a credential: its vector and queue entry go.
  `CREATE TRIGGER memory_vectors_on_credential AFTER UPDATE OF category ON memories WHEN new.category = 'credentials' BEGIN
     DELETE FROM memory_vectors WHERE memory_seq = new.seq;
     DELETE FROM embedding_queue WHERE memory_seq = new.seq;
   END`,
];

const POSTGRES_TRIGGERS = [
  `CREATE FUNCTION embedding_queue_on_write() RETURNS trigger LANGUAGE plpgsql AS $$
   BEGIN
     IF NEW.category = 'credentials' THEN
       DELETE FROM memory_vectors WHERE memory_seq = NEW.seq;
       DELETE FROM embedding_queue WHERE memory_seq = NEW.seq;
     ELSIF TG_OP = 'INSERT' OR NEW.content IS DISTINCT FROM OLD.content OR NEW.key IS DISTINCT FROM OLD.key
        OR NEW.tags IS DISTINCT FROM OLD.tags OR NEW.category IS DISTINCT FROM OLD.category THEN
       INSERT INTO embedding_queue (memory_seq, mind_id, version) VALUES (NEW.seq, NEW.mind_id, 1)
         ON CONFLICT (memory_seq) DO UPDATE SET version = embedding_queue.version + 1, claimed_until = NULL;
     END IF;
     RETURN NULL;
   END $$`,
  `CREATE TRIGGER embedding_queue_on_write AFTER INSERT OR UPDATE ON memories
     FOR EACH ROW EXECUTE FUNCTION embedding_queue_on_write()`,
];

/** The queue's triggers per database, and what takes them away again. */
const TRIGGERS: Record<DialectName, { create: string[]; drop: string[] }> = {
  sqlite: {
    create: SQLITE_TRIGGERS,
    drop: [
      'DROP TRIGGER IF EXISTS embedding_queue_on_insert',
      'DROP TRIGGER IF EXISTS embedding_queue_on_update',
      'DROP TRIGGER IF EXISTS memory_vectors_on_credential',
    ],
  },
  postgres: {
    create: POSTGRES_TRIGGERS,
    drop: ['DROP TRIGGER IF EXISTS embedding_queue_on_write ON memories', 'DROP FUNCTION IF EXISTS embedding_queue_on_write()'],
  },
};

export const embeddingMigrations: Migration[] = [
  {
    name: '0520_memory_embeddings',
    async up(db: Knex, dialect) {
      await db.schema.createTable('embedding_queue', (t) => {
        t.integer('memory_seq').primary().references('seq').inTable('memories').onDelete('CASCADE');
        t.string('mind_id', 36).notNullable();
        t.integer('version').notNullable();
        t.string('claimed_until', 30).nullable();
        t.index(['mind_id'], 'embedding_queue_mind');
      });
      await db.schema.createTable('memory_vectors', (t) => {
        t.integer('memory_seq').primary().references('seq').inTable('memories').onDelete('CASCADE');
        t.string('mind_id', 36).notNullable();
        t.string('model', 200).notNullable();
        t.binary('vector').notNullable();
        t.string('embedded_at', 30).notNullable();
        t.index(['mind_id', 'embedded_at'], 'memory_vectors_mind_recency');
      });
      // The model the stored vectors were made with; a different one at start re-embeds everything.
      await db.schema.createTable('embedding_state', (t) => {
        t.integer('id').primary();
        t.string('model', 200).nullable();
      });
      await db('embedding_state').insert({ id: 1, model: null });
      for (const sql of TRIGGERS[dialect.name].create) await db.raw(sql);
      // Memories written before this migration wait for their first embedding like new ones.
      await db.raw(
        `INSERT INTO embedding_queue (memory_seq, mind_id, version) SELECT seq, mind_id, 1 FROM memories WHERE category != 'credentials'`,
      );
    },
    async down(db: Knex, dialect) {
      for (const sql of TRIGGERS[dialect.name].drop) await db.raw(sql);
      await db.schema.dropTable('embedding_state');
      await db.schema.dropTable('memory_vectors');
      await db.schema.dropTable('embedding_queue');
    },
  },
  {
    // Who holds a claim (store.ts CLAIM_OWNER): on SQLite the service and `mind-service
    // reindex` claim too, and a dead process's claims are given back at once.
    name: '0521_embedding_claim_owner',
    async up(db: Knex) {
      await db.raw('ALTER TABLE embedding_queue ADD COLUMN claimed_by VARCHAR(80)');
    },
    async down(db: Knex) {
      // Plain SQL: knex rebuilds a SQLite table to drop a column, which its triggers do not survive.
      await db.raw('ALTER TABLE embedding_queue DROP COLUMN claimed_by');
    },
  },
];
