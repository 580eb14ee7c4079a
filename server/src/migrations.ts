import { usersTable } from './accounts/migrations.js';
import { chatMigrations } from './chat/migrations.js';
import { computersMigrations } from './computers/migrations.js';
import { migrationOf, type Migration, migrationSourceOf } from './db/migration.js';
import { serviceSecretsTable } from './db/migrations.js';
import { eventsTable } from './events/migrations.js';
import { rateLimitsTable } from './http/migrations.js';
import { embeddingMigrations } from './meaning/migrations.js';
import { memoriesMigrations } from './memories/migrations.js';
import { keywordIndexMigrations } from './memories/keyword-index-migrations.js';
import { timeMigrations } from './memories/time-migrations.js';
import { mindsMigrations, mindsTable } from './minds/migrations.js';
import { oauthMigrations } from './oauth/migrations.js';
import { tasksMigrations } from './tasks/migrations.js';
import { webhooksMigrations } from './webhooks/migrations.js';

/**
 * Every migration in the order it runs. Each folder owns the migrations of its tables (names start
 * with the area's number); this list, in the composition root, is the only place that knows them
 * all, and db/ runs what it is given.
 */
export const migrations: Migration[] = [
  // 0100 and 0110 each created several folders' tables. Databases know them by these names, so each
  // stays one migration, made of its tables' steps in the order they always ran.
  migrationOf('0100_users_minds_events', [usersTable, mindsTable, eventsTable]),
  migrationOf('0110_rate_limits_service_secrets', [rateLimitsTable, serviceSecretsTable]),
  ...mindsMigrations, // 0150_
  ...tasksMigrations, // 0200_
  ...webhooksMigrations, // 0300_
  ...computersMigrations, // 0400_
  ...memoriesMigrations, // 0500_
  ...embeddingMigrations, // 0520_
  ...keywordIndexMigrations, // 0530_
  ...chatMigrations, // 0560_
  ...oauthMigrations, // 0600_
  ...timeMigrations, // 0700_
];

export const migrationSource = migrationSourceOf(migrations);
