import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { loadConfig } from '../src/lib/config.js';
import { BACKSTOP_PAGES } from '../src/db/checkpointer.js';
import { type Db, dialectOf, migrateLatest, openDatabase } from '../src/db/database.js';
import { migrations, migrationSource } from '../src/migrations.js';
import { freshPostgresSchema, TEST_DATABASE_URL } from './harness.js';

/** Tables of the current database or schema, knex's own bookkeeping left out. */
async function tables(db: Db): Promise<string[]> {
  const names: string[] =
    dialectOf(db).name === 'postgres'
      ? await db('information_schema.tables').whereRaw('table_schema = current_schema()').pluck('table_name')
      : await db('sqlite_master').where({ type: 'table' }).pluck('name');
  return names.filter((n) => !n.startsWith('knex_') && !n.startsWith('sqlite_')).sort();
}

describe(`migrations (${TEST_DATABASE_URL ? 'PostgreSQL' : 'SQLite'})`, () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'mind-migrations-'));
  let db: Db;
  let dropSchema = async () => {};
  before(async () => {
    const env: Record<string, string> = { MIND_DATA_DIR: dataDir };
    if (TEST_DATABASE_URL) {
      const schema = await freshPostgresSchema(TEST_DATABASE_URL);
      env.DATABASE_URL = schema.url;
      dropSchema = schema.drop;
    }
    db = openDatabase(loadConfig(env));
  });
  after(async () => {
    await db.destroy();
    await dropSchema();
    rmSync(dataDir, { recursive: true, force: true });
  });

  test('names are unique and in order', () => {
    const names = migrations.map((m) => m.name);
    assert.equal(new Set(names).size, names.length);
    assert.deepEqual([...names].sort(), names);
  });

  test('migrations databases may have applied keep their names and order (knex knows them by name)', () => {
    const applied = [
      '0100_users_minds_events',
      '0110_rate_limits_service_secrets',
      '0150_minds_deleted_at',
      '0151_mind_deletions',
      '0200_tasks',
      '0300_webhooks',
      '0310_webhook_deliveries_pending',
      '0400_computers',
      '0401_command_screenshots',
      '0500_memories_chat_scripts',
      '0510_memories_rank',
      '0520_memory_embeddings',
      '0521_embedding_claim_owner',
      '0530_search_index_per_mind',
    ];
    assert.deepEqual(
      migrations.map((m) => m.name).filter((name) => applied.includes(name)),
      applied,
    );
  });

  test('migrate up, all the way down, and up again; an up-to-date database changes nothing', async () => {
    const applied = await migrateLatest(db, migrations);
    assert.deepEqual(
      applied,
      migrations.map((m) => m.name),
    );
    const created = await tables(db);
    assert.ok(created.includes('minds') && created.includes('tasks') && created.includes('memories'));
    assert.deepEqual(await migrateLatest(db, migrations), []);
    assert.deepEqual(await tables(db), created);
    await db.migrate.rollback({ migrationSource }, true);
    assert.deepEqual(await tables(db), [], 'down migrations leave tables behind');
    assert.deepEqual(
      await migrateLatest(db, migrations),
      migrations.map((m) => m.name),
    );
    assert.deepEqual(await tables(db), created);
  });

  test('SQLite runs in WAL mode with a busy timeout, foreign keys on, temporary files in memory and checkpoints left to the worker', {
    skip: TEST_DATABASE_URL ? 'SQLite only' : false,
  }, async () => {
    const [{ journal_mode }] = await db.raw('pragma journal_mode');
    const [{ timeout }] = await db.raw('pragma busy_timeout');
    const [{ foreign_keys }] = await db.raw('pragma foreign_keys');
    const [{ temp_store }] = await db.raw('pragma temp_store');
    const [{ wal_autocheckpoint }] = await db.raw('pragma wal_autocheckpoint');
    assert.equal(journal_mode, 'wal');
    assert.equal(timeout, 5000);
    assert.equal(foreign_keys, 1);
    assert.equal(temp_store, 2, 'temp_store = MEMORY');
    assert.equal(wal_autocheckpoint, BACKSTOP_PAGES);
  });
});
