import type { Migration } from '../db/migration.js';

/**
 * Webhooks and their durable delivery queue, after svix: the message is the `events` row, one
 * delivery per (event, webhook), one attempt row per HTTP request. Everything goes with its mind.
 */
export const webhooksMigrations: Migration[] = [
  {
    name: '0300_webhooks',
    async up(db) {
      await db.schema.createTable('webhooks', (t) => {
        t.string('id', 36).primary();
        t.string('mind_id', 36).notNullable().references('id').inTable('minds').onDelete('CASCADE');
        t.string('url', 2000).notNullable();
        t.string('events', 2000).notNullable();
        // Encrypted (AES-256-GCM): deliveries must be signed with the secret, so it cannot be only hashed.
        t.text('secret_encrypted').notNullable();
        t.boolean('enabled').notNullable();
        t.string('created_at', 30).notNullable();
        t.string('last_call', 30).nullable();
        t.integer('last_status').nullable();
        t.text('last_error').nullable();
        t.unique(['mind_id', 'url'], { indexName: 'webhooks_mind_url_unique' });
      });
      await db.schema.createTable('webhook_deliveries', (t) => {
        t.string('id', 36).primary();
        t.string('mind_id', 36).notNullable().references('id').inTable('minds').onDelete('CASCADE');
        t.string('webhook_id', 36).notNullable().references('id').inTable('webhooks').onDelete('CASCADE');
        t.string('event_id', 36).notNullable().references('id').inTable('events').onDelete('CASCADE');
        t.string('event', 64).notNullable();
        t.string('status', 16).notNullable(); // pending | succeeded | failed
        t.integer('attempt_count').notNullable();
        t.string('next_attempt_at', 30).nullable(); // set while pending
        // A worker's claim: a lease, so a crashed worker's rows are sent again once it runs out.
        t.string('locked_until', 30).nullable();
        t.string('lock_token', 36).nullable();
        t.string('created_at', 30).notNullable();
        // Only pending rows have a next_attempt_at, so this index holds exactly the queue. (An index on
        // (status, next_attempt_at) would tempt SQLite's planner away from the primary key in the claim.)
        t.index(['next_attempt_at'], 'webhook_deliveries_due');
        t.index(['webhook_id', 'created_at'], 'webhook_deliveries_log');
        t.index(['lock_token'], 'webhook_deliveries_lock');
        t.index(['event_id']);
      });
      await db.schema.createTable('webhook_attempts', (t) => {
        t.string('id', 36).primary();
        t.string('mind_id', 36).notNullable().references('id').inTable('minds').onDelete('CASCADE');
        t.string('delivery_id', 36).notNullable().references('id').inTable('webhook_deliveries').onDelete('CASCADE');
        t.integer('attempt').notNullable();
        t.string('at', 30).notNullable();
        t.integer('status_code').nullable();
        t.text('error').nullable();
        t.integer('duration_ms').notNullable();
        t.index(['delivery_id', 'attempt']);
      });
    },
    async down(db) {
      await db.schema.dropTable('webhook_attempts');
      await db.schema.dropTable('webhook_deliveries');
      await db.schema.dropTable('webhooks');
    },
  },
  {
    // The pending deliveries of one webhook, newest first: the worker keeps at most
    // MIND_MAX_PENDING_DELIVERIES_PER_WEBHOOK of them (deliveries-store.ts failExcessPending).
    // Partial, so it holds only the queue, never the delivery history.
    name: '0310_webhook_deliveries_pending',
    async up(db) {
      await db.raw("CREATE INDEX webhook_deliveries_pending ON webhook_deliveries (webhook_id, created_at, id) WHERE status = 'pending'");
    },
    async down(db) {
      await db.raw('DROP INDEX IF EXISTS webhook_deliveries_pending');
    },
  },
];
