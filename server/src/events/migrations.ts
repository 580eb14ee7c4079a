import type { MigrationStep } from '../db/migration.js';

/** The event outbox (events/recorder.ts); deleting a mind deletes its events. Part of migration 0100 (server/src/migrations.ts). */
export const eventsTable: MigrationStep = {
  async up(db) {
    await db.schema.createTable('events', (t) => {
      t.string('id', 36).primary();
      t.string('mind_id', 36).notNullable().references('id').inTable('minds').onDelete('CASCADE');
      t.string('type', 64).notNullable();
      t.text('data').notNullable();
      t.string('created_at', 30).notNullable();
      t.index(['mind_id', 'created_at']);
    });
  },
  async down(db) {
    await db.schema.dropTable('events');
  },
};
