import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, describe, test } from 'node:test';
import Database from 'better-sqlite3';
import { WalCheckpointer } from '../src/db/checkpointer.js';

describe('WAL checkpoints on a worker thread', () => {
  const dir = mkdtempSync(join(tmpdir(), 'mind-checkpoint-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  test('committed pages reach the database file without the writing connection checkpointing; stop ends the thread', async () => {
    const file = join(dir, 'mind.sqlite');
    const db = new Database(file);
    db.pragma('journal_mode = WAL');
    db.pragma('wal_autocheckpoint = 0'); // this connection never copies the WAL back
    db.exec('CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT)');
    const insert = db.prepare('INSERT INTO notes (body) VALUES (?)');
    db.transaction(() => {
      for (let i = 0; i < 2000; i++) insert.run(`note ${i} `.repeat(50));
    })();
    const before = statSync(file).size;
    assert.ok(statSync(`${file}-wal`).size > 1_000_000, 'the notes are in the WAL');

    const errors: string[] = [];
    const checkpointer = WalCheckpointer.start(file, (message) => errors.push(message), 20);
    let size = before;
    for (let waited = 0; size < 1_000_000 && waited < 5000; waited += 50) {
      await sleep(50);
      size = statSync(file).size;
    }
    assert.ok(size > 1_000_000, `the database file grew from ${before} to ${size} bytes: the worker copied the WAL into it`);
    // Writes go on while it runs; stop() settles once the thread has ended.
    insert.run('after the checkpoint');
    await checkpointer.stop();
    assert.deepEqual(errors, []);
    assert.equal((db.prepare('SELECT count(*) AS n FROM notes').get() as { n: number }).n, 2001);
    db.close();
  });

  test('started at the first write: no thread while the database is only read; then the WAL is copied as by start', async () => {
    const file = join(dir, 'lazy.sqlite');
    const db = new Database(file);
    db.pragma('journal_mode = WAL');
    db.pragma('wal_autocheckpoint = 0');
    db.exec('CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT)');
    const errors: string[] = [];
    const checkpointer = WalCheckpointer.startAtFirstWrite(file, (message) => errors.push(message), 20);
    db.prepare('SELECT count(*) AS n FROM notes').get();
    await sleep(300);
    assert.equal(checkpointer.running, false, 'reads start no thread');

    const insert = db.prepare('INSERT INTO notes (body) VALUES (?)');
    db.transaction(() => {
      for (let i = 0; i < 2000; i++) insert.run(`note ${i} `.repeat(50));
    })();
    let size = statSync(file).size;
    for (let waited = 0; size < 1_000_000 && waited < 5000; waited += 50) {
      await sleep(50);
      size = statSync(file).size;
    }
    assert.equal(checkpointer.running, true, 'the write started the thread');
    assert.ok(size > 1_000_000, `the database file grew to ${size} bytes: the thread copied the WAL into it`);
    await checkpointer.stop();
    assert.deepEqual(errors, []);
    db.close();
  });

  test('stopped before any write, it never starts', async () => {
    const file = join(dir, 'unwritten.sqlite');
    const db = new Database(file);
    db.pragma('journal_mode = WAL');
    const checkpointer = WalCheckpointer.startAtFirstWrite(file, () => undefined, 20);
    await checkpointer.stop();
    db.exec('CREATE TABLE notes (id INTEGER PRIMARY KEY)');
    await sleep(200);
    assert.equal(checkpointer.running, false);
    db.close();
  });

  test('a database it cannot open is reported, not thrown', async () => {
    const errors: string[] = [];
    const checkpointer = WalCheckpointer.start(join(dir, 'missing', 'mind.sqlite'), (message) => errors.push(message), 20);
    for (let waited = 0; errors.length === 0 && waited < 5000; waited += 50) await sleep(50);
    assert.match(errors[0] ?? '', /unable to open|directory/i);
    await checkpointer.stop();
  });
});
