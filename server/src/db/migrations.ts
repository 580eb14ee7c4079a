import type { Knex } from 'knex';
import { accountsMigrations } from '../accounts/migrations.js';
import { computersMigrations } from '../computers/migrations.js';
import { embeddingMigrations } from '../meaning/migrations.js';
import { memoriesMigrations } from '../memories/migrations.js';
import { searchMigrations } from '../memories/search-migrations.js';
import { mindsMigrations } from '../minds/migrations.js';
import { tasksMigrations } from '../tasks/migrations.js';
import { webhooksMigrations } from '../webhooks/migrations.js';
import { type Migration, withDialect } from './migration.js';

/** Every migration in the order it runs; each area owns its own (names start with the area's number). */
export const migrations: Migration[] = [
  ...accountsMigrations, // 0100_
  ...mindsMigrations, // 0150_
  ...tasksMigrations, // 0200_
  ...webhooksMigrations, // 0300_
  ...computersMigrations, // 0400_
  ...memoriesMigrations, // 0500_
  ...embeddingMigrations, // 0520_
  ...searchMigrations, // 0530_
];

export const migrationSource: Knex.MigrationSource<Migration> = {
  getMigrations: async () => migrations,
  getMigrationName: (m) => m.name,
  getMigration: async (m) => withDialect(m),
};
