import type { Knex } from 'knex';

/**
 * Which database a connection talks to. This module imports nothing of ours, so that migrations
 * (loaded by db/database.ts) can ask without importing the database module back.
 */
export const isPostgres = (db: Knex) => db.client.config.client === 'pg';
