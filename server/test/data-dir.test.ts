// The files a SQLite service keeps (DESIGN section 13): the data directory 0700, the database, its
// -wal and -shm files and the generated secrets 0600, whatever the umask.
import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import supertest from 'supertest';
import { createApp } from '../src/app.js';
import { testConfig } from './harness.js';

const FILES = ['mind.sqlite', 'mind.sqlite-wal', 'mind.sqlite-shm', 'jwt-secret', 'encryption-key'];
const modeOf = (path: string) => statSync(path).mode & 0o777;
const octal = (mode: number) => mode.toString(8).padStart(4, '0');

/** Starts the service on SQLite in `dataDir` under `umask`, writes once, and answers the modes it left. */
async function modesAfterStart(dataDir: string, umask: number): Promise<Record<string, string>> {
  const previous = process.umask(umask);
  try {
    // No DATABASE_URL: SQLite in the data directory also when the suite runs on PostgreSQL.
    const service = await createApp(testConfig({ MIND_DATA_DIR: dataDir }));
    try {
      await supertest(service.app)
        .post('/register')
        .send({ email: `files-${Date.now()}@example.com`, password: 'correct horse' })
        .expect(201);
      return Object.fromEntries(['.', ...FILES].map((name) => [name, octal(modeOf(join(dataDir, name)))]));
    } finally {
      await service.close();
    }
  } finally {
    process.umask(previous);
  }
}

describe('data directory and database files', () => {
  const root = mkdtempSync(join(tmpdir(), 'mind-files-'));
  after(() => rmSync(root, { recursive: true, force: true }));

  for (const umask of [0o022, 0o000]) {
    test(`created under umask ${octal(umask)}: the directory 0700, every file 0600`, async () => {
      const dataDir = join(root, `new-${octal(umask)}`, 'data');
      const modes = await modesAfterStart(dataDir, umask);
      assert.deepEqual(modes, { '.': '0700', ...Object.fromEntries(FILES.map((f) => [f, '0600'])) });
    });
  }

  test('files an older version left readable are narrowed to 0600; an existing directory keeps its mode', async () => {
    const dataDir = join(root, 'existing');
    mkdirSync(dataDir);
    chmodSync(dataDir, 0o750);
    writeFileSync(join(dataDir, 'jwt-secret'), `${'ab'.repeat(32)}\n`);
    chmodSync(join(dataDir, 'jwt-secret'), 0o644);
    // The older version's database: start once, then widen its files as a 0644 default would have.
    await modesAfterStart(dataDir, 0o022);
    chmodSync(join(dataDir, 'mind.sqlite'), 0o644);
    chmodSync(join(dataDir, 'encryption-key'), 0o644);
    const modes = await modesAfterStart(dataDir, 0o022);
    assert.deepEqual(modes, { '.': '0750', ...Object.fromEntries(FILES.map((f) => [f, '0600'])) });
  });
});
