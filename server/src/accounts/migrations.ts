import type { Migration } from '../db/migration.js';

/** Users, minds and the event outbox: the tables every other area refers to. */
export const accountsMigrations: Migration[] = [
  {
    name: '0100_users_minds_events',
    async up(db) {
      await db.schema.createTable('users', (t) => {
        t.string('id', 36).primary();
        t.string('email', 254).notNullable();
        t.string('email_normalized', 254).notNullable().unique();
        t.string('display_name', 200).nullable();
        t.string('password_hash', 100).notNullable();
        t.string('created_at', 30).notNullable();
      });
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
      await db.schema.dropTable('minds');
      await db.schema.dropTable('users');
    },
  },
  {
    name: '0110_rate_limits_service_secrets',
    async up(db) {
      // Shared state for several instances on one database: the ?key= rate limit windows and
      // generated secrets (a JWT secret every instance must agree on).
      await db.schema.createTable('rate_limits', (t) => {
        t.string('key', 100).primary();
        t.bigInteger('window_start').notNullable();
        t.integer('count').notNullable();
      });
      await db.schema.createTable('service_secrets', (t) => {
        t.string('name', 64).primary();
        t.string('value', 200).notNullable();
      });
    },
    async down(db) {
      await db.schema.dropTable('service_secrets');
      await db.schema.dropTable('rate_limits');
    },
  },
];
