// Migrations that change rows, run over rows (after backstage's migrations tests): a fresh database is
// migrated to just before the migration, rows are written with the schema of that time (plain knex
// inserts, as the code of that time wrote them), the migration runs and the rows are checked, and its
// down must give them back in the earlier shape. A real SQLite file, and PostgreSQL in the PG run.
import assert from 'node:assert/strict';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { loadConfig } from '../src/lib/config.js';
import { type Db, migrateLatest, openDatabase } from '../src/db/database.js';
import { documentLength } from '../src/search/words.js';
import { migrations, migrationSource } from '../src/migrations.js';
import { bearer, freshPostgresSchema, startService, TEST_DATABASE_URL } from './harness.js';
import { eventually } from './webhooks/receiver.js';

const POSTGRES = TEST_DATABASE_URL !== undefined;
const DB_NAME = POSTGRES ? 'PostgreSQL' : 'SQLite';

// ---------------------------------------------------------------------------------------------------
// A fresh database, and moving it one migration at a time

interface TestDatabase {
  db: Db;
  /** What a service needs to open the same database. */
  env: Record<string, string>;
}

/** Runs `fn` on a database of its own (a SQLite file in a new directory, or a new PostgreSQL schema). */
async function withDatabase(fn: (t: TestDatabase) => Promise<void>) {
  const dataDir = mkdtempSync(join(tmpdir(), 'mind-migrations-data-'));
  const env: Record<string, string> = { MIND_DATA_DIR: dataDir };
  const schema = TEST_DATABASE_URL ? await freshPostgresSchema(TEST_DATABASE_URL) : undefined;
  if (schema) env.DATABASE_URL = schema.url;
  const db = openDatabase(loadConfig(env));
  try {
    await fn({ db, env });
  } finally {
    await db.destroy();
    await schema?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const NAMES = migrations.map((m) => m.name);

async function migrateUpOnce(db: Db, name: string) {
  const [, applied] = (await db.migrate.up({ migrationSource })) as [number, string[]];
  assert.deepEqual(applied, [name]);
}

async function migrateDownOnce(db: Db, name: string) {
  const [, undone] = (await db.migrate.down({ migrationSource })) as [number, string[]];
  assert.deepEqual(undone, [name]);
}

/** Runs every migration before `name`, in order, on a fresh database. */
async function migrateUntilBefore(db: Db, name: string) {
  const index = NAMES.indexOf(name);
  assert.ok(index >= 0, `no migration named ${name}`);
  const [done] = (await db.migrate.list({ migrationSource })) as [Array<{ name: string }>, unknown];
  for (const next of NAMES.slice(done.length, index)) await migrateUpOnce(db, next);
}

// ---------------------------------------------------------------------------------------------------
// Rows as the code of each time wrote them

// Recent (the service's sweepers would purge old finished commands at once), whole seconds.
const T0 = Math.floor(Date.now() / 1000 - 86_400) * 1000;
const at = (seconds: number) => new Date(T0 + seconds * 1000).toISOString();
const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

interface Mind {
  id: string;
  key: string;
}

/** 0100: a user and its minds (Mind Keys kept as hashes, as always). */
async function seedAccount(db: Db, mindCount: number): Promise<{ userId: string; minds: Mind[] }> {
  const userId = randomUUID();
  const email = `${userId}@example.com`;
  await db('users').insert({ id: userId, email, email_normalized: email, display_name: 'Ada', password_hash: 'x', created_at: at(0) });
  const minds: Mind[] = [];
  for (let i = 0; i < mindCount; i++) {
    const mind = { id: randomUUID(), key: `mk_${randomBytes(32).toString('base64url')}` };
    await db('minds').insert({
      id: mind.id,
      user_id: userId,
      name: `mind ${i}`,
      description: null,
      key_hash: sha256(mind.key),
      created_at: at(i),
      last_activity: at(i),
      disabled_at: null,
    });
    minds.push(mind);
  }
  return { userId, minds };
}

interface SeedMemory {
  mind: string;
  category: string;
  key: string | null;
  content: string;
  tags: string[];
  verified?: boolean;
}

interface StoredMemory extends SeedMemory {
  id: string;
  seq: number;
  updatedAt: string;
}

/** The words the store has always indexed (the seeds are plain ASCII, where this is searchWords' rule). */
const wordsOf = (text: string) => text.toLowerCase().match(/[a-z0-9]+/g) ?? [];
const memoryWords = (m: SeedMemory) => [wordsOf(m.key ?? ''), wordsOf(m.content), wordsOf(m.tags.join(' '))];
const mindPrefix = (mindId: string) => `m${mindId.replaceAll('-', '')}`;

let clock = 100;

/**
 * Memories as the store wrote them from 0500 on: the row (credentials: text only encrypted), its
 * tags, and its search index: on SQLite an FTS row of mind-prefixed words (and from 0510 a ranking
 * row), on PostgreSQL the row's search_vector. Credentials are never indexed.
 */
async function insertMemories(db: Db, seeds: SeedMemory[]): Promise<StoredMemory[]> {
  // 0510's ranking rows; from 0530 on (with the mind and the length) the test writes its own.
  const rankTable = !POSTGRES && (await db.schema.hasTable('memories_rank')) && !(await db.schema.hasColumn('memories_rank', 'words'));
  const stored: StoredMemory[] = [];
  for (const seed of seeds) {
    const id = randomUUID();
    const updatedAt = at(clock++);
    const secret = seed.category === 'credentials';
    const words = memoryWords(seed);
    await db('memories').insert({
      id,
      mind_id: seed.mind,
      category: seed.category,
      key: seed.key,
      content: secret ? '' : seed.content,
      content_encrypted: secret ? randomBytes(48).toString('base64') : null,
      tags: JSON.stringify(seed.tags),
      verified: seed.verified ?? false,
      verified_at: seed.verified ? updatedAt : null,
      source: 'chat 2026-01-05',
      created_at: updatedAt,
      updated_at: updatedAt,
      ...(POSTGRES ? { search_vector: secret ? null : db.raw(`to_tsvector('simple', ?)`, [words.flat().join(' ')]) } : {}),
    });
    for (const tag of seed.tags) await db('memory_tags').insert({ memory_id: id, mind_id: seed.mind, tag, updated_at: updatedAt });
    const { seq } = (await db('memories').where({ id }).first('seq')) as { seq: number };
    if (!POSTGRES && !secret) {
      const prefixed = words.map((field) => field.map((w) => mindPrefix(seed.mind) + w).join(' '));
      await db.raw('INSERT INTO memories_fts (rowid, key, content, tags) VALUES (?, ?, ?, ?)', [seq, ...prefixed]);
      if (rankTable) {
        await db('memories_rank').insert({ seq, id, category: seed.category, verified: seed.verified ?? false, updated_at: updatedAt });
      }
    }
    stored.push({ ...seed, id, seq: Number(seq), updatedAt });
  }
  return stored;
}

/** Two minds' memories: a word both use ("quokka"), one only one uses, credentials whose key holds words. */
const memorySeeds = (a: string, b: string): SeedMemory[] => [
  { mind: a, category: 'fact', key: 'island', content: 'The quokka lives on Rottnest island', tags: ['animals', 'travel'], verified: true },
  { mind: a, category: 'preference', key: null, content: 'Prefers tea over coffee in the morning', tags: ['drinks'] },
  { mind: a, category: 'credentials', key: 'wifi password', content: 'hunter2', tags: ['home'] },
  { mind: b, category: 'fact', key: null, content: 'A quokka photo from the ferry', tags: ['animals'] },
  { mind: b, category: 'event', key: 'budget', content: 'Meeting notes about the quarterly budget', tags: [] },
  { mind: b, category: 'credentials', key: 'quokka api', content: 'sk-123', tags: [] },
];

const indexed = (memories: StoredMemory[]) => memories.filter((m) => m.category !== 'credentials');

/** Every row of the memory tables, for "nothing changed" (PostgreSQL's search_vector included). */
async function memoryTables(db: Db) {
  return {
    memories: await db('memories').orderBy('seq').select('*'),
    tags: await db('memory_tags').orderBy(['memory_id', 'tag']).select('*'),
  };
}

/** SQLite: the memories (rowids) whose indexed text holds `word` in `mind`'s part of the index. */
async function searchIndex(db: Db, mind: string, word: string): Promise<number[]> {
  const rows = (await db.raw('SELECT rowid FROM memories_fts WHERE memories_fts MATCH ? ORDER BY rowid', [
    `"${mindPrefix(mind)}${word}"`,
  ])) as Array<{ rowid: number }>;
  return rows.map((r) => Number(r.rowid));
}

/** SQLite: a table's column names. */
async function columns(db: Db, table: string): Promise<string[]> {
  return ((await db.raw(`PRAGMA table_info(${table})`)) as Array<{ name: string }>).map((c) => c.name);
}

// ---------------------------------------------------------------------------------------------------
// The migrations

describe(`migrations over rows (${DB_NAME})`, () => {
  test('0151_mind_deletions: minds marked deleted before it are carried over; down marks every deleted mind again', async () => {
    await withDatabase(async ({ db }) => {
      await migrateUntilBefore(db, '0151_mind_deletions');
      const { minds } = await seedAccount(db, 3);
      const [alive, deletedBefore, deletedAfter] = minds as [Mind, Mind, Mind];
      await db('minds')
        .where({ id: deletedBefore.id })
        .update({ deleted_at: at(50) });

      await migrateUpOnce(db, '0151_mind_deletions');
      assert.deepEqual(await db('mind_deletions').select('mind_id', 'deleted_at'), [{ mind_id: deletedBefore.id, deleted_at: at(50) }]);
      assert.equal(
        await db('minds')
          .count({ n: '*' })
          .first()
          .then((r) => Number(r?.n)),
        3,
        'no mind row lost',
      );

      // Today DELETE /minds/:id writes only here when the mind's row is busy (minds/deletions.ts).
      await db('mind_deletions').insert({ mind_id: deletedAfter.id, deleted_at: at(60) });
      await migrateDownOnce(db, '0151_mind_deletions');
      assert.equal(await db.schema.hasTable('mind_deletions'), false);
      assert.deepEqual(await db('minds').orderBy('created_at').select('id', 'deleted_at'), [
        { id: alive.id, deleted_at: null },
        { id: deletedBefore.id, deleted_at: at(50) },
        { id: deletedAfter.id, deleted_at: at(60) },
      ]);
    });
  });

  test("0152_mind_keys: each mind's key becomes its first key (original, full, api, no prefix); down gives each mind one working key", async () => {
    await withDatabase(async ({ db }) => {
      await migrateUntilBefore(db, '0152_mind_keys');
      const { minds } = await seedAccount(db, 3);
      const [rotated, kept, revoked] = minds as [Mind, Mind, Mind];

      await migrateUpOnce(db, '0152_mind_keys');
      const rows = await db('mind_keys')
        .orderBy('created_at')
        .select(
          'mind_id',
          'key_hash',
          'label',
          'scope',
          'prefix',
          'source',
          'client_name',
          'created_at',
          'expires_at',
          'last_used_at',
          'revoked_at',
        );
      assert.deepEqual(
        rows,
        minds.map((m, i) => ({
          mind_id: m.id,
          key_hash: sha256(m.key),
          label: 'original',
          scope: 'full',
          prefix: null,
          source: 'api',
          client_name: null,
          created_at: at(i),
          expires_at: null,
          last_used_at: null,
          revoked_at: null,
        })),
      );

      // Today: one mind rotated to a new key, one revoked its only key (a read key is no key of the old kind).
      const newKey = `mk_${randomBytes(32).toString('base64url')}`;
      const key = (mind: Mind, hash: string, scope: string, created: number) => ({
        id: randomUUID(),
        mind_id: mind.id,
        key_hash: hash,
        label: 'later',
        scope,
        prefix: null,
        source: 'api',
        client_name: null,
        created_at: at(created),
      });
      await db('mind_keys').insert([key(rotated, sha256(newKey), 'full', 10), key(revoked, sha256(`mk_reader-${revoked.id}`), 'read', 11)]);
      await db('mind_keys')
        .whereIn('mind_id', [rotated.id, revoked.id])
        .where({ label: 'original' })
        .update({ revoked_at: at(20) });

      await migrateDownOnce(db, '0152_mind_keys');
      assert.equal(await db.schema.hasTable('mind_keys'), false);
      assert.deepEqual(await db('minds').orderBy('created_at').select('id', 'key_hash'), [
        { id: rotated.id, key_hash: sha256(newKey) },
        { id: kept.id, key_hash: sha256(kept.key) },
        { id: revoked.id, key_hash: `revoked:${revoked.id}` },
      ]);
    });
  });

  test('0401_command_screenshots: screenshots inside results move to their own rows (every page of them); down puts them back', async () => {
    await withDatabase(async ({ db }) => {
      await migrateUntilBefore(db, '0401_command_screenshots');
      const { userId, minds } = await seedAccount(db, 1);
      const computers = [randomUUID(), randomUUID()];
      for (const [i, id] of computers.entries()) {
        await db('computers').insert({
          id,
          user_id: userId,
          mind_id: i === 0 ? minds[0]!.id : null,
          token_hash: sha256(id),
          computer_name: `pc${i}`,
          platform: 'linux',
          platform_release: '6.1',
          python: '3.11',
          status: 'active',
          created_at: at(0),
          last_seen_at: at(1),
          disabled_at: null,
        });
      }
      const command = (computer: string, type: string, status: string, result: unknown) => ({
        id: randomUUID(),
        computer_id: computer,
        type,
        payload: '{}',
        status,
        result: result === null ? null : JSON.stringify(result),
        error: status === 'failed' ? 'display gone' : null,
        attempts: 1,
        created_at: at(clock++),
        sent_at: status === 'queued' ? null : at(clock),
        completed_at: status === 'done' || status === 'failed' ? at(clock) : null,
      });
      // More screenshots than the migration moves in one go (20), on both computers.
      const pngs = Array.from({ length: 25 }, (_, i) => Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), randomBytes(100 + i)]));
      const shots = pngs.map((png, i) =>
        command(computers[i % 2]!, 'screenshot', 'done', { screenshot_b64: png.toString('base64'), width: 1280, height: 720 + i }),
      );
      const others = [
        command(computers[0]!, 'click', 'done', { ok: true }),
        command(computers[0]!, 'type', 'done', { ok: true, typed: 'the word "screenshot_b64" in quotes' }),
        command(computers[1]!, 'screenshot', 'queued', null),
        command(computers[1]!, 'screenshot', 'failed', null),
      ];
      for (const row of [...shots, ...others]) await db('commands').insert(row);

      await migrateUpOnce(db, '0401_command_screenshots');
      const after = new Map(
        (
          (await db('commands').select('id', 'result', 'screenshot_bytes')) as Array<{
            id: string;
            result: string | null;
            screenshot_bytes: number | null;
          }>
        ).map((r) => [r.id, r]),
      );
      assert.equal(after.size, shots.length + others.length);
      for (const [i, shot] of shots.entries()) {
        const row = after.get(shot.id)!;
        assert.deepEqual(JSON.parse(row.result!), { width: 1280, height: 720 + i }, 'the rest of the result stays');
        assert.equal(row.screenshot_bytes, pngs[i]!.length);
        const stored = (await db('command_screenshots').where({ command_id: shot.id }).first('png')) as { png: Buffer };
        assert.ok(Buffer.from(stored.png).equals(pngs[i]!), `screenshot ${i} moved intact`);
      }
      for (const other of others) assert.deepEqual(after.get(other.id), { id: other.id, result: other.result, screenshot_bytes: null });
      assert.equal(Number((await db('command_screenshots').count({ n: '*' }).first())?.n), shots.length);

      // Today's rows: a screenshot stored apart from the start.
      const late = command(computers[0]!, 'screenshot', 'done', { width: 800, height: 600 });
      const latePng = Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), randomBytes(64)]);
      await db('commands').insert({ ...late, screenshot_bytes: latePng.length });
      await db('command_screenshots').insert({ command_id: late.id, png: latePng });

      await migrateDownOnce(db, '0401_command_screenshots');
      assert.equal(await db.schema.hasTable('command_screenshots'), false);
      assert.equal(await db.schema.hasColumn('commands', 'screenshot_bytes'), false);
      const back = new Map(
        ((await db('commands').select('id', 'result')) as Array<{ id: string; result: string | null }>).map((r) => [r.id, r.result]),
      );
      for (const row of [...shots, ...others]) {
        assert.deepEqual(row.result === null ? null : JSON.parse(back.get(row.id)!), row.result === null ? null : JSON.parse(row.result));
      }
      assert.deepEqual(JSON.parse(back.get(late.id)!), { width: 800, height: 600, screenshot_b64: latePng.toString('base64') });
    });
  });

  test('0510_memories_rank: a ranking row for every indexed memory (SQLite), nothing changed on PostgreSQL; down leaves the memories', async () => {
    await withDatabase(async ({ db }) => {
      await migrateUntilBefore(db, '0510_memories_rank');
      const { minds } = await seedAccount(db, 2);
      const stored = await insertMemories(db, memorySeeds(minds[0]!.id, minds[1]!.id));
      const before = await memoryTables(db);

      await migrateUpOnce(db, '0510_memories_rank');
      assert.deepEqual(await memoryTables(db), before);
      if (POSTGRES) {
        assert.equal(await db.schema.hasTable('memories_rank'), false);
      } else {
        const rank = await db('memories_rank').orderBy('seq').select('*');
        assert.deepEqual(
          rank,
          indexed(stored).map((m) => ({
            seq: m.seq,
            id: m.id,
            category: m.category,
            verified: m.verified ? 1 : 0,
            updated_at: m.updatedAt,
          })),
        );
        // Its trigger: a deleted memory (also by cascade, with its mind) leaves no ranking row.
        await db('memories').where({ id: stored[0]!.id }).delete();
        await db('minds').where({ id: minds[1]!.id }).delete();
        assert.deepEqual(await db('memories_rank').pluck('id'), [stored[1]!.id]);
      }

      const kept = await memoryTables(db);
      await migrateDownOnce(db, '0510_memories_rank');
      assert.equal(await db.schema.hasTable('memories_rank'), false);
      assert.deepEqual(await memoryTables(db), kept);
      await db('memories').where({ id: stored[1]!.id }).delete(); // no trigger left behind
    });
  });

  test('0520_memory_embeddings: every memory but credentials waits for its first embedding; writes queue from then on; down leaves the memories', async () => {
    await withDatabase(async ({ db }) => {
      await migrateUntilBefore(db, '0520_memory_embeddings');
      const { minds } = await seedAccount(db, 2);
      const stored = await insertMemories(db, memorySeeds(minds[0]!.id, minds[1]!.id));
      const before = await memoryTables(db);

      await migrateUpOnce(db, '0520_memory_embeddings');
      assert.deepEqual(await memoryTables(db), before);
      const queue = () => db('embedding_queue').orderBy('memory_seq').select('memory_seq', 'mind_id', 'version', 'claimed_until');
      assert.deepEqual(
        await queue(),
        indexed(stored).map((m) => ({ memory_seq: m.seq, mind_id: m.mind, version: 1, claimed_until: null })),
      );
      assert.deepEqual(await db('embedding_state').select('id', 'model'), [{ id: 1, model: null }]);
      assert.equal(await db.schema.hasTable('memory_vectors'), true);

      // The triggers it adds: what is embedded changes -> queued again; a verify -> not; a credential -> out.
      const [island, tea, , photo] = stored as [StoredMemory, StoredMemory, StoredMemory, StoredMemory];
      await db('embedding_queue')
        .where({ memory_seq: island.seq })
        .update({ claimed_until: at(500) });
      await db('memories').where({ id: island.id }).update({ content: 'The quokka lives on Rottnest and Bald islands' });
      await db('memories')
        .where({ id: tea.id })
        .update({ verified: true, verified_at: at(501) });
      await db('memories').where({ id: photo.id }).update({ category: 'credentials', content: '', content_encrypted: 'x' });
      const versions = Object.fromEntries(
        ((await queue()) as Array<{ memory_seq: number; version: number; claimed_until: string | null }>).map((r) => [
          r.memory_seq,
          [r.version, r.claimed_until],
        ]),
      );
      assert.deepEqual(versions, { [island.seq]: [2, null], [tea.seq]: [1, null], [stored[4]!.seq]: [1, null] });

      const kept = await memoryTables(db);
      await migrateDownOnce(db, '0520_memory_embeddings');
      for (const table of ['embedding_queue', 'memory_vectors', 'embedding_state'])
        assert.equal(await db.schema.hasTable(table), false, table);
      assert.deepEqual(await memoryTables(db), kept);
      // No trigger or function left that writes to the dropped tables.
      const [added] = await insertMemories(db, [
        { mind: minds[0]!.id, category: 'fact', key: null, content: 'after the rollback', tags: [] },
      ]);
      await db('memories').where({ id: added!.id }).update({ content: 'changed after the rollback' });
    });
  });

  test('0521_embedding_claim_owner: the queue keeps its rows, versions and claims both ways; its triggers still fire after up and down', async () => {
    await withDatabase(async ({ db }) => {
      await migrateUntilBefore(db, '0521_embedding_claim_owner');
      const { minds } = await seedAccount(db, 2);
      const stored = await insertMemories(db, memorySeeds(minds[0]!.id, minds[1]!.id)); // queued by 0520's triggers
      const [island, tea, , photo] = stored as [StoredMemory, StoredMemory, StoredMemory, StoredMemory];
      // The worker of that time: one memory embedded (vector stored, queue row gone), one claimed.
      const vector = Buffer.from(new Float32Array([0.25, -0.5, 1]).buffer);
      await db('memory_vectors').insert({
        memory_seq: photo.seq,
        mind_id: photo.mind,
        model: 'local-glove100',
        vector,
        embedded_at: at(600),
      });
      await db('embedding_queue').where({ memory_seq: photo.seq }).delete();
      await db('embedding_state').update({ model: 'local-glove100' });
      await db('embedding_queue')
        .where({ memory_seq: tea.seq })
        .update({ claimed_until: at(601) });
      const queue = () => db('embedding_queue').orderBy('memory_seq').select('memory_seq', 'mind_id', 'version', 'claimed_until');
      const before = await queue();
      assert.equal(before.length, indexed(stored).length - 1);

      await migrateUpOnce(db, '0521_embedding_claim_owner');
      assert.deepEqual(await queue(), before);
      assert.deepEqual(await db('embedding_queue').distinct().pluck('claimed_by'), [null]);
      await db('embedding_queue').where({ memory_seq: tea.seq }).update({ claimed_by: 'service:4242' });
      await db('memories')
        .where({ id: island.id })
        .update({ tags: JSON.stringify(['animals']) });
      assert.equal((await db('embedding_queue').where({ memory_seq: island.seq }).first('version')).version, 2);

      const kept = await queue();
      await migrateDownOnce(db, '0521_embedding_claim_owner');
      assert.equal(await db.schema.hasColumn('embedding_queue', 'claimed_by'), false);
      assert.deepEqual(await queue(), kept);
      assert.equal(Number((await db('memory_vectors').count({ n: '*' }).first())?.n), 1);
      // The column dropped in place (knex would rebuild the table without its triggers): memories still queue.
      await db('memories').where({ id: island.id }).update({ content: 'The quokka, again' });
      const [added] = await insertMemories(db, [
        { mind: minds[1]!.id, category: 'fact', key: null, content: 'after the rollback', tags: [] },
      ]);
      assert.equal((await db('embedding_queue').where({ memory_seq: island.seq }).first('version')).version, 3);
      assert.equal((await db('embedding_queue').where({ memory_seq: added!.seq }).first('version')).version, 1);
    });
  });

  test('0530_search_index_per_mind: the index is rebuilt from the memories, each mind apart with its own statistics (SQLite); down keeps a working index', async () => {
    await withDatabase(async ({ db }) => {
      await migrateUntilBefore(db, '0530_search_index_per_mind');
      const { minds } = await seedAccount(db, 2);
      const [a, b] = [minds[0]!.id, minds[1]!.id];
      const stored = await insertMemories(db, memorySeeds(a, b));
      const [island, tea, , photo, budget] = stored as [StoredMemory, StoredMemory, StoredMemory, StoredMemory, StoredMemory];
      const before = await memoryTables(db);

      await migrateUpOnce(db, '0530_search_index_per_mind');
      assert.deepEqual(await memoryTables(db), before);
      if (POSTGRES) {
        assert.equal(await db.schema.hasTable('memory_search_stats'), false);
        await migrateDownOnce(db, '0530_search_index_per_mind');
        assert.deepEqual(await memoryTables(db), before);
        return;
      }
      // 0530 indexes with today's indexEntry, so lengths are today's (documentLength).
      const wordCount = (m: SeedMemory) => documentLength(memoryWords(m).flat());
      assert.deepEqual(
        await db('memories_rank').orderBy('seq').select('*'),
        indexed(stored).map((m) => ({
          seq: m.seq,
          id: m.id,
          mind_id: m.mind,
          category: m.category,
          verified: m.verified ? 1 : 0,
          updated_at: m.updatedAt,
          words: wordCount(m),
        })),
      );
      const stats = () => db('memory_search_stats').orderBy('mind_id').select('mind_id', 'memories', 'words');
      const expectedStats = (mind: string, memories: StoredMemory[]) => ({
        mind_id: mind,
        memories: memories.length,
        words: memories.reduce((n, m) => n + wordCount(m), 0),
      });
      assert.deepEqual(
        await stats(),
        [expectedStats(a, [island, tea]), expectedStats(b, [photo, budget])].sort((x, y) => x.mind_id.localeCompare(y.mind_id)),
      );
      // Each mind finds its own memories, by content, key and tag; credentials (whose keys hold words) never.
      assert.deepEqual(await searchIndex(db, a, 'quokka'), [island.seq]);
      assert.deepEqual(await searchIndex(db, b, 'quokka'), [photo.seq]);
      assert.deepEqual(await searchIndex(db, a, 'budget'), []);
      assert.deepEqual(await searchIndex(db, b, 'budget'), [budget.seq]);
      assert.deepEqual(await searchIndex(db, a, 'drinks'), [tea.seq]);
      assert.deepEqual(await searchIndex(db, a, 'wifi'), []);
      assert.deepEqual(await searchIndex(db, b, 'api'), []);
      const docs = await db('memories_fts_words')
        .where({ term: `${mindPrefix(a)}animals` })
        .first('doc');
      assert.equal(docs.doc, 1, "the word's number of memories counts its own mind only");

      // Its triggers: a deleted memory leaves the index and its mind's statistics.
      await db('memories').where({ id: tea.id }).delete();
      assert.deepEqual(await searchIndex(db, a, 'drinks'), []);
      assert.deepEqual(
        (await stats()).find((s: { mind_id: string }) => s.mind_id === a),
        expectedStats(a, [island]),
      );

      const kept = await db('memories_rank').orderBy('seq').select('seq', 'id', 'category', 'verified', 'updated_at');
      await migrateDownOnce(db, '0530_search_index_per_mind');
      for (const table of ['memory_search_stats', 'memories_fts_terms', 'memories_fts_words'])
        assert.equal(await db.schema.hasTable(table), false, table);
      // Back in 0510's shape, so the code of that time can write its ranking rows again.
      assert.deepEqual(await columns(db, 'memories_rank'), ['seq', 'id', 'category', 'verified', 'updated_at']);
      assert.deepEqual(await db('memories_rank').orderBy('seq').select('*'), kept);
      const [added] = await insertMemories(db, [{ mind: a, category: 'fact', key: null, content: 'A quokka selfie', tags: [] }]);
      assert.deepEqual(await searchIndex(db, a, 'quokka'), [island.seq, added!.seq]);
      assert.deepEqual(await searchIndex(db, b, 'quokka'), [photo.seq]);

      // Up again rebuilds the index with what was written in between.
      await migrateUpOnce(db, '0530_search_index_per_mind');
      assert.deepEqual(
        (await stats()).find((s: { mind_id: string }) => s.mind_id === a),
        expectedStats(a, [island, added!]),
      );
      assert.deepEqual(await searchIndex(db, a, 'selfie'), [added!.seq]);
    });
  });

  test('0531_search_stats_postgres: each mind gets its count of indexed memories and their length (PostgreSQL), kept by writes from then on; down drops them', async () => {
    await withDatabase(async ({ db }) => {
      await migrateUntilBefore(db, '0531_search_stats_postgres');
      if (!POSTGRES) {
        const before = await columns(db, 'memory_search_stats'); // SQLite's own, from 0530
        await migrateUpOnce(db, '0531_search_stats_postgres');
        assert.deepEqual(await columns(db, 'memory_search_stats'), before);
        return;
      }
      const { minds } = await seedAccount(db, 3);
      const [a, b, empty] = minds.map((m) => m.id) as [string, string, string];
      const stored = await insertMemories(db, memorySeeds(a, b));
      const before = await memoryTables(db);
      await migrateUpOnce(db, '0531_search_stats_postgres');
      assert.deepEqual(await memoryTables(db), before);
      // Distinct words but stop words of key, content and tags per indexed memory (credentials have none).
      const distinct = (m: SeedMemory) => documentLength(memoryWords(m).flat());
      const expected = (mind: string) => {
        const own = indexed(stored).filter((m) => m.mind === mind);
        return { mind_id: mind, memories: own.length, words: own.reduce((n, m) => n + distinct(m), 0) };
      };
      const stats = async () =>
        ((await db('memory_search_stats').orderBy('mind_id').select('*')) as Array<Record<string, string | number>>).map((r) => ({
          mind_id: r.mind_id,
          memories: Number(r.memories),
          words: Number(r.words),
        }));
      assert.deepEqual(
        await stats(),
        [expected(a), expected(b)].sort((x, y) => x.mind_id.localeCompare(y.mind_id)),
      );

      // Kept by writes: a new memory counts, a deleted one and a rewritten one's old words leave.
      const [added] = await insertMemories(db, [{ mind: empty, category: 'fact', key: null, content: 'one two two three', tags: [] }]);
      await db('memories')
        .where({ id: stored[1]!.id })
        .update({ search_vector: db.raw(`to_tsvector('simple', 'tea')`) });
      await db('memories').where({ id: stored[0]!.id }).delete();
      const now = await stats();
      assert.deepEqual(
        now.find((s) => s.mind_id === empty),
        { mind_id: empty, memories: 1, words: 3 },
      );
      assert.deepEqual(
        now.find((s) => s.mind_id === a),
        { mind_id: a, memories: 1, words: 1 },
      );
      await db('minds').where({ id: empty }).delete();
      assert.equal(
        (await stats()).some((s) => s.mind_id === empty),
        false,
      );
      assert.ok(added);

      await migrateDownOnce(db, '0531_search_stats_postgres');
      assert.equal(await db.schema.hasTable('memory_search_stats'), false);
      await db('memories').where({ id: stored[1]!.id }).delete(); // no trigger left behind
    });
  });

  test('0533_search_ranking_postgres: each row gets its length and repeated words, each mind its statistics split per backend with the same sums (PostgreSQL); down sums them back', async () => {
    await withDatabase(async ({ db }) => {
      await migrateUntilBefore(db, '0533_search_ranking_postgres');
      if (!POSTGRES) {
        const before = await memoryTables(db);
        await migrateUpOnce(db, '0533_search_ranking_postgres');
        assert.deepEqual(await memoryTables(db), before);
        return;
      }
      const { minds } = await seedAccount(db, 2);
      const [a, b] = minds.map((m) => m.id) as [string, string];
      const stored = await insertMemories(db, [
        ...memorySeeds(a, b),
        { mind: a, category: 'note', key: null, content: 'the tea and more tea, then the tea', tags: [] },
      ]);
      const sums = async () =>
        (
          (await db('memory_search_stats')
            .groupBy('mind_id')
            .orderBy('mind_id')
            .select('mind_id', db.raw('sum(memories)::int AS memories'), db.raw('sum(words)::int AS words'))) as Array<{
            mind_id: string;
            memories: number;
            words: number;
          }>
        ).map((r) => ({ ...r }));
      const before = await sums();
      await migrateUpOnce(db, '0533_search_ranking_postgres');
      assert.deepEqual(await sums(), before);
      const rows = (await db('memories').orderBy('seq').select('seq', 'search_words', 'search_counts')) as Array<{
        seq: number;
        search_words: number | null;
        search_counts: Record<string, number> | null;
      }>;
      for (const memory of stored) {
        const row = rows.find((r) => Number(r.seq) === memory.seq)!;
        if (memory.category === 'credentials') assert.equal(row.search_words, null);
        else assert.equal(row.search_words, documentLength(memoryWords(memory).flat()), memory.content);
      }
      // "tea" three times, "the" twice (stop words are counted too: a question of stop words ranks by them).
      assert.deepEqual(rows.at(-1)!.search_counts, { tea: 3, the: 2 });
      assert.equal(rows.find((r) => Number(r.seq) === stored[1]!.seq)!.search_counts, null);

      // Writes on several connections at once: each may add to its own row of the mind; the sums stay right.
      await Promise.all(
        Array.from({ length: 8 }, (_, i) =>
          insertMemories(db, [{ mind: b, category: 'note', key: null, content: `kiwi ${i} kiwi`, tags: [] }]),
        ),
      );
      await db('memories').where({ id: stored[0]!.id }).delete();
      const now = await sums();
      const expectedB = before.find((s) => s.mind_id === b)!;
      assert.deepEqual(
        now.find((s) => s.mind_id === b),
        { mind_id: b, memories: expectedB.memories + 8, words: expectedB.words + 16 },
      );
      const expectedA = before.find((s) => s.mind_id === a)!;
      assert.deepEqual(
        now.find((s) => s.mind_id === a),
        { mind_id: a, memories: expectedA.memories - 1, words: expectedA.words - documentLength(memoryWords(stored[0]!).flat()) },
      );

      await migrateDownOnce(db, '0533_search_ranking_postgres');
      assert.deepEqual(await sums(), now);
      assert.equal((await db('memory_search_stats').count({ n: '*' }))[0]!.n, '2', 'one row per mind again');
      assert.equal(await db.schema.hasColumn('memories', 'search_words'), false);
      await insertMemories(db, [{ mind: a, category: 'note', key: null, content: 'kiwi', tags: [] }]); // 0531's trigger again
      assert.deepEqual(
        (await sums()).find((s) => s.mind_id === a),
        { mind_id: a, memories: expectedA.memories, words: expectedA.words - documentLength(memoryWords(stored[0]!).flat()) + 1 },
      );
    });
  });

  test('0534_search_columns_written_postgres: the ranking columns keep their values; writers that leave them out get them from the trigger, inserts and updates; down makes them generated again with the same values', async () => {
    await withDatabase(async ({ db }) => {
      await migrateUntilBefore(db, '0534_search_columns_written_postgres');
      if (!POSTGRES) {
        const before = await memoryTables(db);
        await migrateUpOnce(db, '0534_search_columns_written_postgres');
        assert.deepEqual(await memoryTables(db), before);
        return;
      }
      const { minds } = await seedAccount(db, 2);
      const [a, b] = minds.map((m) => m.id) as [string, string];
      await insertMemories(db, memorySeeds(a, b));
      const columns = async () =>
        (await db('memories').orderBy('seq').select('seq', 'search_words', 'search_counts')) as Array<{
          seq: number;
          search_words: number | null;
          search_counts: Record<string, number> | null;
        }>;
      const stats = async () => await db('memory_search_stats').orderBy(['mind_id', 'slot']).select('*');
      const generated = await columns();
      const generatedStats = await stats();
      await migrateUpOnce(db, '0534_search_columns_written_postgres');
      assert.deepEqual(await columns(), generated);

      // The code of 0533's time writes no ranking columns: the trigger fills them, and the statistics count them.
      const [added] = await insertMemories(db, [{ mind: a, category: 'note', key: null, content: 'kiwi and kiwi, the kiwi', tags: [] }]);
      const [secret] = await insertMemories(db, [{ mind: a, category: 'credentials', key: null, content: 'pin 1234', tags: [] }]);
      const row = async (id: string) =>
        (await db('memories').where({ id }).first('search_words', 'search_counts')) as Record<string, unknown>;
      assert.deepEqual(await row(added!.id), { search_words: 1, search_counts: { kiwi: 3 } });
      assert.deepEqual(await row(secret!.id), { search_words: null, search_counts: null });
      const sumOf = async (mind: string) =>
        (await db('memory_search_stats')
          .where({ mind_id: mind })
          .first(db.raw('sum(memories)::int AS n'), db.raw('sum(words)::int AS w'))) as {
          n: number;
          w: number;
        };
      const before = await sumOf(a);
      // An update of the vector computes them again (and the statistics follow); other updates leave them.
      await db('memories')
        .where({ id: added!.id })
        .update({ search_vector: db.raw(`to_tsvector('simple', 'plum plum pear fig')`) });
      assert.deepEqual(await row(added!.id), { search_words: 3, search_counts: { plum: 2 } });
      assert.deepEqual(await sumOf(a), { n: before.n, w: before.w + 2 });
      await db('memories').where({ id: added!.id }).update({ verified: true });
      assert.deepEqual(await row(added!.id), { search_words: 3, search_counts: { plum: 2 } });
      // A writer that computes them itself (POST /memory's statement) is not computed for again: its values stay.
      const own = randomUUID();
      await db('memories').insert({
        id: own,
        mind_id: b,
        category: 'note',
        content: 'fig fig',
        tags: '[]',
        verified: false,
        created_at: at(clock),
        updated_at: at(clock++),
        search_vector: db.raw(`to_tsvector('simple', 'fig fig')`),
        search_words: 5,
        search_counts: JSON.stringify({ fig: 9 }),
      });
      assert.deepEqual(await row(own), { search_words: 5, search_counts: { fig: 9 } });
      await db('memories').where({ id: own }).delete();

      const written = await columns();
      await migrateDownOnce(db, '0534_search_columns_written_postgres');
      assert.deepEqual(await columns(), written, 'generated again, with the same values');
      await assert.rejects(db('memories').where({ id: added!.id }).update({ search_words: 7 }), /can only be updated to DEFAULT/);
      assert.notDeepEqual(await stats(), generatedStats, 'the statistics moved with the writes');
    });
  });

  test('0532_search_lengths_sqlite: every ranking row measured again without stop words and each mind summed again (SQLite); down measures every word', async () => {
    await withDatabase(async ({ db }) => {
      await migrateUntilBefore(db, '0532_search_lengths_sqlite');
      if (POSTGRES) {
        await migrateUpOnce(db, '0532_search_lengths_sqlite');
        assert.equal(await db.schema.hasTable('memories_rank'), false);
        return;
      }
      const { minds } = await seedAccount(db, 2);
      const [a, b] = [minds[0]!.id, minds[1]!.id];
      // Rows as the service wrote them before: every word counted.
      const stored = indexed(await insertMemories(db, memorySeeds(a, b)));
      const allWords = (m: SeedMemory) => memoryWords(m).flat().length;
      for (const m of stored)
        await db('memories_rank').insert({
          seq: m.seq,
          id: m.id,
          mind_id: m.mind,
          category: m.category,
          verified: m.verified ?? false,
          updated_at: m.updatedAt,
          words: allWords(m),
        });
      const lengths = async () => (await db('memories_rank').orderBy('seq').pluck('words')).map(Number);
      const sums = async () =>
        (
          (await db('memory_search_stats').orderBy('mind_id').select('*')) as Array<{ mind_id: string; memories: number; words: number }>
        ).map((r) => [r.mind_id, Number(r.memories), Number(r.words)]);
      const expectedSums = (length: (m: SeedMemory) => number) =>
        [a, b].sort().map((mind) => {
          const own = stored.filter((m) => m.mind === mind);
          return [mind, own.length, own.reduce((n, m) => n + length(m), 0)];
        });
      assert.deepEqual(await lengths(), stored.map(allWords));

      await migrateUpOnce(db, '0532_search_lengths_sqlite');
      const shorter = (m: SeedMemory) => documentLength(memoryWords(m).flat());
      assert.deepEqual(await lengths(), stored.map(shorter));
      assert.ok(stored.some((m) => shorter(m) < allWords(m)));
      assert.deepEqual(await sums(), expectedSums(shorter));

      await migrateDownOnce(db, '0532_search_lengths_sqlite');
      assert.deepEqual(await lengths(), stored.map(allWords));
      assert.deepEqual(await sums(), expectedSums(allWords));
    });
  });

  test("rows from every step are served by today's API: recall per mind, by meaning once embedded, screenshots, deleted minds", async () => {
    await withDatabase(async ({ db, env }) => {
      await migrateUntilBefore(db, '0151_mind_deletions');
      const { userId, minds } = await seedAccount(db, 3);
      const [a, b, gone] = minds as [Mind, Mind, Mind];
      await db('minds')
        .where({ id: gone.id })
        .update({ deleted_at: at(10) });

      await migrateUntilBefore(db, '0401_command_screenshots');
      const computer = randomUUID();
      const shot = randomUUID();
      const png = Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), randomBytes(300)]);
      await db('computers').insert({
        id: computer,
        user_id: userId,
        mind_id: a.id,
        token_hash: sha256(computer),
        computer_name: 'desk',
        platform: 'linux',
        platform_release: '6.1',
        python: '3.11',
        status: 'active',
        created_at: at(20),
        last_seen_at: at(21),
        disabled_at: null,
      });
      await db('commands').insert({
        id: shot,
        computer_id: computer,
        type: 'screenshot',
        payload: '{}',
        status: 'done',
        result: JSON.stringify({ screenshot_b64: png.toString('base64'), width: 1024, height: 768 }),
        error: null,
        attempts: 1,
        created_at: at(22),
        sent_at: at(23),
        completed_at: at(24),
      });

      await migrateUntilBefore(db, '0510_memories_rank');
      const stored = await insertMemories(db, memorySeeds(a.id, b.id));
      await migrateLatest(db, migrations);
      await db.destroy();

      const svc = await startService({ ...env, MIND_EMBEDDINGS: 'local' });
      try {
        const recall = async (mind: Mind, q: string, mode = 'keyword') =>
          (
            (await svc.http.get('/memory/recall').query({ q, mode }).set(bearer(mind.key)).expect(200)).body.memories as Array<{
              id: string;
              content: string;
            }>
          ).map((m) => m.id);
        assert.deepEqual(await recall(a, 'quokka'), [stored[0]!.id]);
        assert.deepEqual(await recall(b, 'quokka'), [stored[3]!.id]);
        assert.deepEqual(await recall(a, 'budget'), []);
        assert.deepEqual(await recall(a, 'wifi'), [], 'credentials are not searched by their words');
        const stats = await svc.http.get('/memory/stats').set(bearer(a.key)).expect(200);
        assert.equal(stats.body.total, 3);

        // Queued by 0520, embedded by today's worker, then found by meaning.
        await eventually(
          async () => (await svc.http.get('/memory/stats').set(bearer(a.key)).expect(200)).body.pending_embeddings === 0,
          30_000,
          'the seeded memories embedded',
        );
        assert.ok((await recall(a, 'coffee', 'semantic')).includes(stored[1]!.id));

        const res = await svc.http
          .get(`/computers/${computer}/commands/${shot}/screenshot`)
          .set(bearer(a.key))
          .buffer(true)
          .parse((r, done) => {
            const chunks: Buffer[] = [];
            r.on('data', (c: Buffer) => chunks.push(c));
            r.on('end', () => done(null, Buffer.concat(chunks)));
          })
          .expect(200);
        assert.ok(Buffer.from(res.body as Buffer).equals(png));
        const listed = await svc.http.get(`/computers/${computer}/commands/${shot}`).set(bearer(a.key)).expect(200);
        assert.equal(listed.body.result.width, 1024);

        await svc.http.get('/memory/stats').set(bearer(gone.key)).expect(401);
      } finally {
        await svc.stop();
      }
    });
  });
});
