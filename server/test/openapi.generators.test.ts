// docs/openapi.json loads in the generators people point at it: openapi-typescript 7 (which resolves
// the document with Redocly's loader, as Redocly's own tools do) generates a client's types from the
// file, and tsc type-checks them with a small consumer that uses them. An example that a loader takes
// for a reference (an `externalValue`, such as a `data:` URL) fails here as it fails for them.
// And every 400 that depends on state rather than on the request's shape is named in its operation.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, test } from 'node:test';
import openapiTS, { astToString } from 'openapi-typescript';
import { document, operationsOf } from './openapi-document.js';

const DOCUMENT_URL = new URL('../../docs/openapi.json', import.meta.url);
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');

/** Uses the generated types as a client would; the `@ts-expect-error` lines fail if the types were `any`. */
const CONSUMER = `import type { components, operations, paths } from './schema.js';

type Task = components['schemas']['Task'];
const task: Task['priority'] = 'high';
// @ts-expect-error not a priority
const wrong: Task['priority'] = 'urgent-ish';
type Screenshot = paths['/computers/{id}/screenshot']['get'];
const size: NonNullable<Screenshot['parameters']['query']>['max_width'] = 1280;
type Created = operations['createTask']['responses'][201]['content']['application/json'];
const created: Pick<Created, 'title'> = { title: 'Water the plants' };
// @ts-expect-error title is a string
const badTitle: Pick<Created, 'title'> = { title: 7 };
export const used = [task, wrong, size, created, badTitle];
`;

/** Operations whose 400 depends on stored state, the server's settings or the time: each names it. */
const STATE_DEPENDENT_400: Record<string, RegExp> = {
  queueCommand: /400 for a `zoom` whose region does not lie inside the screen/,
  queueCommandFromQuery: /`zoom` whose region does not lie inside the screen the agent reported is 400/,
  registerComputer: /unknown .*used .*expired .* is 400/,
  postCommandResult: /without `result.screenshot_b64` is 400/,
  listCommands: /`cursor` this list did not give is 400/,
  recallMemories: /`mode=semantic` while embeddings are off .* is 400, and so is a `cursor`/,
  searchChat: /`mode=semantic` while embeddings are off .* is 400, and so is a `cursor`/,
  createMindKey: /`expires_at` that is not in the future is 400/,
  exportMind: /without `mind_id` is 400/,
  importMind: /appears twice in the document is 400/,
  createWebhook: /A `url` this server will not call is 400/,
  updateWebhook: /A `url` this server will not call is 400/,
};

describe('docs/openapi.json in the generators', () => {
  test('openapi-typescript 7 generates types from the file, and tsc (strict) checks them with a client using them', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'mind-openapi-ts-'));
    try {
      const ast = await openapiTS(DOCUMENT_URL);
      await writeFile(join(dir, 'schema.ts'), astToString(ast));
      await writeFile(join(dir, 'consumer.ts'), CONSUMER);
      const args = [tsc, '--noEmit', '--strict', '--module', 'nodenext', '--target', 'es2022', join(dir, 'consumer.ts')];
      const checked = await promisify(execFile)(process.execPath, args).then(
        () => '',
        (err: { stdout?: string }) => err.stdout ?? String(err),
      );
      assert.equal(checked, '', 'tsc found errors in the generated client');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  test('no example is an externalValue (loaders resolve it as a reference)', () => {
    const text = JSON.stringify(document);
    assert.doesNotMatch(text, /"externalValue"/);
  });

  test('every state-dependent 400 is named in its operation description', () => {
    const byId = new Map(operationsOf(document).map(({ op }) => [op.operationId, op]));
    for (const [operationId, named] of Object.entries(STATE_DEPENDENT_400)) {
      const op = byId.get(operationId);
      assert.ok(op, `${operationId} is in the document`);
      assert.match(op.description ?? '', named, operationId);
      assert.ok(op.responses['400'], `${operationId} documents its 400 answer`);
    }
  });
});
