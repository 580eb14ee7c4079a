import type { MigrationStep } from './migration.js';

/**
 * Generated secrets shared by the instances on one database (db/service-secret.ts: a JWT secret
 * every instance must agree on). Part of migration 0110 (server/src/migrations.ts).
 */
export const serviceSecretsTable: MigrationStep = {
  async up(db) {
    await db.schema.createTable('service_secrets', (t) => {
      t.string('name', 64).primary();
      t.string('value', 200).notNullable();
    });
  },
  async down(db) {
    await db.schema.dropTable('service_secrets');
  },
};
