import type { Migration } from '../db/migration.js';

/**
 * Minds live in the accounts migrations (0100); what the minds area added later starts at 0150.
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
];
