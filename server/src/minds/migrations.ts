import { randomUUID } from 'node:crypto';
import type { Migration, MigrationStep } from '../db/migration.js';

/** The minds of a user; deleting the user deletes them. Part of migration 0100 (server/src/migrations.ts). */
export const mindsTable: MigrationStep = {
  async up(db) {
    await db.schema.createTable('minds', (t) => {
      t.string('id', 36).primary();
      t.string('user_id', 36).notNullable().references('id').inTable('users').onDelete('CASCADE');
      t.string('name', 200).notNullable();
      t.text('description').nullable();
      t.string('key_hash', 64).notNullable().unique();
      t.string('created_at', 30).notNullable();
      t.string('last_activity', 30).nullable();
      t.string('disabled_at', 30).nullable();
      t.index(['user_id']);
    });
  },
  async down(db) {
    await db.schema.dropTable('minds');
  },
};

/**
 * What the minds area added after 0100 starts at 0150.
 * `deleted_at`: DELETE /minds/:id marks the mind (it is gone for the API at once) and a background
 * purge removes its rows in chunks, then the row itself (minds/purge.ts). The partial index holds
 * only the minds waiting for that, so the purge finds them without reading the table.
 */
export const mindsMigrations: Migration[] = [
  {
    name: '0150_minds_deleted_at',
    async up(db) {
      await db.schema.alterTable('minds', (t) => {
        t.string('deleted_at', 30).nullable();
      });
      await db.raw('CREATE INDEX minds_deleting ON minds (deleted_at) WHERE deleted_at IS NOT NULL');
    },
    async down(db) {
      await db.raw('DROP INDEX IF EXISTS minds_deleting');
      await db.schema.alterTable('minds', (t) => {
        t.dropColumn('deleted_at');
      });
    },
  },
  {
    // DELETE /minds/:id writes here, not to the mind's row: every write of the mind locks that row
    // (foreign keys, last_activity) until it commits, so an UPDATE of it waited for the writers on
    // PostgreSQL. No foreign key either, for the same reason. Minds marked before are carried over.
    name: '0151_mind_deletions',
    async up(db) {
      await db.schema.createTable('mind_deletions', (t) => {
        t.string('mind_id', 36).primary();
        t.string('deleted_at', 30).notNullable();
      });
      await db.raw('INSERT INTO mind_deletions (mind_id, deleted_at) SELECT id, deleted_at FROM minds WHERE deleted_at IS NOT NULL');
    },
    async down(db) {
      // Before this, `deleted_at` was the mark: minds deleted since (their row may be unmarked yet) get it back.
      await db.raw(`UPDATE minds SET deleted_at = (SELECT d.deleted_at FROM mind_deletions d WHERE d.mind_id = minds.id)
        WHERE deleted_at IS NULL AND id IN (SELECT mind_id FROM mind_deletions)`);
      await db.schema.dropTable('mind_deletions');
    },
  },
  {
    // A mind has several keys, each revocable, scoped and maybe expiring: the lookup reads this table.
    // `minds.key_hash` stays (older rows and code wrote it) with the first key's hash; nothing reads it.
    name: '0152_mind_keys',
    async up(db) {
      await db.schema.createTable('mind_keys', (t) => {
        t.string('id', 36).primary();
        t.string('mind_id', 36).notNullable().references('id').inTable('minds').onDelete('CASCADE');
        t.string('key_hash', 64).notNullable().unique();
        t.string('label', 200).notNullable();
        t.string('scope', 8).notNullable();
        t.string('prefix', 8).nullable();
        t.string('source', 16).notNullable();
        t.string('client_name', 200).nullable();
        t.string('created_at', 30).notNullable();
        t.string('expires_at', 30).nullable();
        t.string('last_used_at', 30).nullable();
        t.string('revoked_at', 30).nullable();
        t.index(['mind_id', 'created_at']);
      });
      // Every mind's key so far, as its first key; the prefix of a stored hash is unknown (null).
      for (let after = ''; ; ) {
        const minds: Array<{ id: string; key_hash: string; created_at: string }> = await db('minds')
          .where('id', '>', after)
          .orderBy('id')
          .limit(500)
          .select('id', 'key_hash', 'created_at');
        if (minds.length === 0) break;
        await db('mind_keys').insert(
          minds.map((m) => ({
            id: randomUUID(),
            mind_id: m.id,
            key_hash: m.key_hash,
            label: 'original',
            scope: 'full',
            prefix: null,
            source: 'api',
            created_at: m.created_at,
          })),
        );
        after = minds.at(-1)!.id;
      }
    },
    async down(db) {
      // Before this a mind had one key: its oldest live full key; a mind without one keeps none that works.
      await db.raw(`UPDATE minds SET key_hash = COALESCE(
          (SELECT k.key_hash FROM mind_keys k WHERE k.mind_id = minds.id AND k.scope = 'full' AND k.revoked_at IS NULL
             AND k.expires_at IS NULL ORDER BY k.created_at, k.id LIMIT 1),
          'revoked:' || minds.id)`);
      await db.schema.dropTable('mind_keys');
    },
  },
];
