import type { Migration } from '../db/migration.js';

/**
 * OAuth for hosted assistants (docs/mcp.md, "OAuth connectors"): the clients that registered or
 * whose metadata document was fetched, the codes of the consent page, and the grants with their
 * refresh tokens. Codes and refresh tokens are stored as SHA-256 hashes only; the access token is a
 * Mind Key (mind_keys, source `oauth`), so the Keys tab lists and revokes it.
 */
export const oauthMigrations: Migration[] = [
  {
    name: '0600_oauth',
    async up(db) {
      await db.schema.createTable('oauth_clients', (t) => {
        // A registered client's random id, or the https URL of its metadata document.
        t.string('id', 2048).primary();
        t.string('client_name', 200).notNullable();
        t.text('redirect_uris').notNullable(); // a JSON array
        t.string('kind', 16).notNullable(); // registered | document
        t.string('created_at', 30).notNullable();
        t.index(['created_at']);
      });
      await db.schema.createTable('oauth_grants', (t) => {
        t.string('id', 36).primary();
        t.string('client_id', 2048).notNullable().references('id').inTable('oauth_clients').onDelete('CASCADE');
        t.string('mind_id', 36).notNullable().references('id').inTable('minds').onDelete('CASCADE');
        // The access token of the moment: a Mind Key's id (its row goes when the grant rotates).
        t.string('key_id', 36).notNullable();
        t.string('scope', 8).notNullable();
        t.string('created_at', 30).notNullable();
        t.string('expires_at', 30).notNullable();
        t.string('revoked_at', 30).nullable();
        t.index(['client_id']);
        t.index(['key_id']);
      });
      await db.schema.createTable('oauth_codes', (t) => {
        t.string('code_hash', 64).primary();
        t.string('client_id', 2048).notNullable().references('id').inTable('oauth_clients').onDelete('CASCADE');
        t.string('mind_id', 36).notNullable().references('id').inTable('minds').onDelete('CASCADE');
        t.text('redirect_uri').notNullable();
        t.string('code_challenge', 128).notNullable();
        t.string('scope', 8).notNullable();
        t.string('created_at', 30).notNullable();
        t.string('expires_at', 30).notNullable();
        t.string('used_at', 30).nullable();
        // The grant the code was exchanged for: a code used twice revokes it.
        t.string('grant_id', 36).nullable();
        t.index(['expires_at']);
      });
      await db.schema.createTable('oauth_refresh_tokens', (t) => {
        t.string('token_hash', 64).primary();
        t.string('grant_id', 36).notNullable().references('id').inTable('oauth_grants').onDelete('CASCADE');
        t.string('created_at', 30).notNullable();
        t.string('used_at', 30).nullable();
        t.index(['grant_id']);
      });
    },
    async down(db) {
      await db.schema.dropTable('oauth_refresh_tokens');
      await db.schema.dropTable('oauth_codes');
      await db.schema.dropTable('oauth_grants');
      await db.schema.dropTable('oauth_clients');
    },
  },
];
