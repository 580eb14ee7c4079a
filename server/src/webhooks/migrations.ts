import type { Migration } from '../db/migration.js';

export const webhooksMigrations: Migration[] = [];
