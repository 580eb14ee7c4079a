// Writes docs/openapi.json from the contract; with --check, fails when the committed file differs.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { buildOpenApiDocument } from '../src/openapi.js';

const target = fileURLToPath(new URL('../../docs/openapi.json', import.meta.url));
// White space other than the ASCII space written as `\uXXXX` (the same JSON), so a reader of the file sees it.
const invisible = /[\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]/g;
const generated = `${JSON.stringify(buildOpenApiDocument(), null, 2).replace(invisible, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)}\n`;

if (process.argv.includes('--check')) {
  let committed = '';
  try {
    committed = readFileSync(target, 'utf8');
  } catch {
    // missing counts as drift
  }
  if (committed !== generated) {
    console.error('docs/openapi.json is out of date with the contract. Run `pnpm openapi` and commit the result.');
    process.exit(1);
  }
  console.log('docs/openapi.json matches the contract.');
} else {
  writeFileSync(target, generated);
  console.log(`wrote ${target}`);
}
