import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { loadConfig } from '../src/config.js';
import { migrateLatest, openDatabase } from '../src/db/database.js';
import { migrations, migrationSource } from '../src/db/migrations.js';

describe('migrations', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'mind-migrations-'));
  const db = openDatabase(loadConfig({ MIND_DATA_DIR: dataDir }));
  after(async () => {
    await db.destroy();
    rmSync(dataDir, { recursive: true, force: true });
  });

  test('names are unique and in order', () => {
    const names = migrations.map((m) => m.name);
    assert.equal(new Set(names).size, names.length);
    assert.deepEqual([...names].sort(), names);
  });

  test('migrate up, all the way down, and up again; an up-to-date database changes nothing', async () => {
    const applied = await migrateLatest(db);
    assert.deepEqual(applied, migrations.map((m) => m.name));
    assert.deepEqual(await migrateLatest(db), []);
    await db.migrate.rollback({ migrationSource }, true);
    const tables = await db('sqlite_master').where({ type: 'table' }).andWhere('name', 'not like', 'knex_%').andWhere('name', 'not like', 'sqlite_%').pluck('name');
    assert.deepEqual(tables, [], 'down migrations leave tables behind');
    assert.deepEqual(await migrateLatest(db), migrations.map((m) => m.name));
  });

  test('SQLite runs in WAL mode with a busy timeout and foreign keys on', async () => {
    const [{ journal_mode }] = await db.raw('pragma journal_mode');
    const [{ timeout }] = await db.raw('pragma busy_timeout');
    const [{ foreign_keys }] = await db.raw('pragma foreign_keys');
    assert.equal(journal_mode, 'wal');
    assert.equal(timeout, 5000);
    assert.equal(foreign_keys, 1);
  });
});
