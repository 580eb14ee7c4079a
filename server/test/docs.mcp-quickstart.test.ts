// docs/mcp.md's quickstart, run as it stands: each `ts` snippet that connects a Streamable HTTP client
// is taken from the guide, pointed at a live service (its URL for the guide's 127.0.0.1:3000) with a new
// mind's key in MIND_KEY, and run by node in a folder outside the workspace. It must store a memory,
// find it again with recall_memories and print it.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { promisify } from 'node:util';
import { useService } from './harness.js';

const run = promisify(execFile);
const GUIDE = new URL('../../docs/mcp.md', import.meta.url);
const DOCS_ORIGIN = 'http://127.0.0.1:3000';

/** The guide's TypeScript snippets that connect a client over HTTP, in order. */
function quickstartSnippets(): string[] {
  const blocks = [...readFileSync(GUIDE, 'utf8').matchAll(/^```ts\n([\s\S]*?)^```$/gm)].map((m) => m[1]!);
  return blocks.filter((code) => code.includes('StreamableHTTPClientTransport'));
}

/** The snippet as node runs it from anywhere: its packages by the paths this workspace has them at. */
function runnable(code: string, origin: string): string {
  const resolved = code.replace(
    /from '(@modelcontextprotocol\/[^']+)'/g,
    (_all, specifier: string) => `from '${import.meta.resolve(specifier)}'`,
  );
  return resolved.replaceAll(DOCS_ORIGIN, origin);
}

describe("docs/mcp.md's quickstart runs as written", () => {
  const svc = useService();
  let server: Server;
  let origin: string;
  const work = mkdtempSync(join(tmpdir(), 'mind-quickstart-'));

  before(async () => {
    server = createServer(svc.app);
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(async () => {
    await new Promise<void>((done) => server.close(() => done()));
    rmSync(work, { recursive: true, force: true });
  });

  test('there are two: the v2 client and the v1 SDK, each storing then recalling a memory', () => {
    const snippets = quickstartSnippets();
    assert.equal(snippets.length, 2);
    assert.match(snippets[0]!, /from '@modelcontextprotocol\/client'/);
    assert.match(snippets[1]!, /from '@modelcontextprotocol\/sdk\/client\/index\.js'/);
    for (const code of snippets) {
      assert.ok(code.indexOf("name: 'store_memory'") < code.indexOf("name: 'recall_memories'"), 'store, then recall');
    }
  });

  for (const [index, label] of ['the v2 client', 'the v1 SDK'].entries()) {
    test(`${label}: the memory stored is the one recalled and printed`, async () => {
      const { mindKey, auth } = await svc.mind();
      const file = join(work, `quickstart-${index}.mjs`);
      writeFileSync(file, runnable(quickstartSnippets()[index]!, origin));
      const { stdout } = await run(process.execPath, [file], {
        cwd: work,
        env: { PATH: process.env.PATH ?? '', MIND_KEY: mindKey },
        timeout: 60_000,
      });
      // Without `q`, recall lists the mind's memories.
      const stored = (await svc.http.get('/memory/recall').set(auth).expect(200)).body.memories as Array<{ id: string; content: string }>;
      assert.equal(stored.length, 1, 'one memory stored');
      assert.match(stored[0]!.content, /tea/);
      assert.ok(stdout.includes(stored[0]!.id), `the recall printed the memory stored:\n${stdout}`);
      assert.ok(stdout.includes(stored[0]!.content));
    });
  }
});
