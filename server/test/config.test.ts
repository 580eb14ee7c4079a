import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { ConfigError, loadConfig } from '../src/lib/config.js';

describe('configuration', () => {
  test('defaults: 127.0.0.1:3000, SQLite in ./data, cost 12, the retry schedule of DESIGN section 6', () => {
    const config = loadConfig({});
    assert.equal(config.host, '127.0.0.1');
    assert.equal(config.port, 3000);
    assert.ok(config.dataDir.endsWith('/data'));
    assert.equal(config.databaseUrl, undefined);
    assert.equal(config.bcryptCost, 12);
    assert.equal(config.publicUrl, 'http://127.0.0.1:3000');
    assert.deepEqual(config.webhookRetrySchedule, [30_000, 120_000, 600_000, 3_600_000, 21_600_000, 86_400_000]);
  });

  test('a bad value is refused with a message naming the variable', () => {
    assert.throws(
      () => loadConfig({ PORT: 'eighty' }),
      (err: Error) => err instanceof ConfigError && /PORT/.test(err.message),
    );
    assert.throws(() => loadConfig({ DATABASE_URL: 'mysql://x' }), /DATABASE_URL/);
    assert.throws(() => loadConfig({ LOG_LEVEL: 'loud' }), /LOG_LEVEL/);
    assert.throws(() => loadConfig({ MIND_JWT_SECRET: 'short' }), /MIND_JWT_SECRET/);
    assert.throws(() => loadConfig({ MIND_PUBLIC_URL: 'not a url' }), /MIND_PUBLIC_URL/);
  });

  test('the server refuses to start on a bad value, naming it, with a non-zero exit', () => {
    const main = fileURLToPath(new URL('../src/main.ts', import.meta.url));
    const run = spawnSync(process.execPath, ['--import', 'tsx', main], {
      env: { ...process.env, PORT: '99999', MIND_DATA_DIR: '/tmp/never-created' },
      encoding: 'utf8',
      timeout: 30_000,
    });
    assert.notEqual(run.status, 0);
    assert.match(run.stderr, /PORT/);
    assert.doesNotMatch(run.stderr, /at .*\.ts:\d+/); // a message, not a stack trace
  });
});
