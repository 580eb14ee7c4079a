import type { MigrationStep } from '../db/migration.js';

/**
 * The `?key=` rate limit windows (and the failure limits' on PostgreSQL) that several instances on one
 * database share (http/rate-limit.ts `DatabaseRateLimiter`). Part of migration 0110 (server/src/migrations.ts).
 */
export const rateLimitsTable: MigrationStep = {
  async up(db) {
    await db.schema.createTable('rate_limits', (t) => {
      t.string('key', 100).primary();
      t.bigInteger('window_start').notNullable();
      t.integer('count').notNullable();
    });
  },
  async down(db) {
    await db.schema.dropTable('rate_limits');
  },
};
