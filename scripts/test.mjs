// Runs every test file of the workspace in one node:test run (Node 20 does not expand `**` itself),
// first on SQLite, then again on PostgreSQL when one is reachable.
//
// Usage: node scripts/test.mjs [filter...]   (a filter keeps files whose path contains it)
// Environment:
//   MIND_TEST_DATABASE_URL   PostgreSQL for the second run (default postgres://postgres@127.0.0.1:5432/test)
//   MIND_TEST_POSTGRES       "skip": SQLite only; "only": PostgreSQL only; "require": fail when unreachable (CI)
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { build } from './build.mjs';

const packages = ['contract', 'server', 'sdk', 'agent', 'examples', 'console'];
const filters = process.argv.slice(2);
const postgresMode = process.env.MIND_TEST_POSTGRES ?? 'auto';
const postgresUrl = process.env.MIND_TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

function collect(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' || entry.name === 'fixtures' ? [] : collect(path);
    return entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

const files = packages
  .flatMap((pkg) => collect(join(pkg, 'test')))
  .filter((file) => filters.length === 0 || filters.some((f) => file.includes(f)))
  .sort();
if (files.length === 0) {
  console.error('no test files matched');
  process.exit(1);
}

// Tests spawn the bins, which run server/dist and agent/dist: build them once here when a source is
// newer, rather than in each spawned process at once.
await build({ onlyStale: true });

function run(label, env) {
  console.log(`\n=== ${label}: ${files.length} test files ===\n`);
  const result = spawnSync(
    process.execPath,
    ['--import', 'tsx', '--test', '--test-reporter=spec', '--test-concurrency=2', '--test-force-exit', ...files],
    { stdio: 'inherit', env: { ...process.env, NODE_ENV: 'test', ...env } },
  );
  return result.status ?? 1;
}

async function postgresReachable() {
  const pg = createRequire(new URL('../server/package.json', import.meta.url))('pg');
  const client = new pg.Client({ connectionString: postgresUrl, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query('select 1');
    return undefined;
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  } finally {
    await client.end().catch(() => undefined);
  }
}

let status = 0;
if (postgresMode !== 'only') status = run('SQLite', { MIND_TEST_DATABASE_URL: '' });

if (postgresMode === 'skip') {
  console.log('\nPostgreSQL suite skipped (MIND_TEST_POSTGRES=skip).');
} else {
  const problem = await postgresReachable();
  if (problem) {
    console.log(`\nPostgreSQL suite skipped: cannot reach ${postgresUrl.replace(/\/\/[^@]*@/, '//…@')} (${problem}).`);
    console.log('Start PostgreSQL or set MIND_TEST_DATABASE_URL to run the suite on it too.');
    if (postgresMode === 'require' || postgresMode === 'only') status = 1;
  } else {
    status = run('PostgreSQL', { MIND_TEST_DATABASE_URL: postgresUrl }) || status;
  }
}
process.exit(status);
