// Runs every test file of the workspace in one node:test run (Node 20 does not expand `**` itself).
// Usage: node scripts/test.mjs [filter...]  (a filter keeps files whose path contains it)
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

const packages = ['contract', 'server', 'sdk', 'agent', 'examples'];
const filters = process.argv.slice(2);

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

const result = spawnSync(
  process.execPath,
  ['--import', 'tsx', '--test', '--test-reporter=spec', '--test-concurrency=2', '--test-force-exit', ...files],
  { stdio: 'inherit', env: { ...process.env, NODE_ENV: 'test' } },
);
process.exit(result.status ?? 1);
