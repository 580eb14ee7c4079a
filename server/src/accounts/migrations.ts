import type { MigrationStep } from '../db/migration.js';

/** Users: the table minds (and so every other area) refer to. Part of migration 0100 (server/src/migrations.ts). */
export const usersTable: MigrationStep = {
  async up(db) {
    await db.schema.createTable('users', (t) => {
      t.string('id', 36).primary();
      t.string('email', 254).notNullable();
      t.string('email_normalized', 254).notNullable().unique();
      t.string('display_name', 200).nullable();
      t.string('password_hash', 100).notNullable();
      t.string('created_at', 30).notNullable();
    });
  },
  async down(db) {
    await db.schema.dropTable('users');
  },
};
