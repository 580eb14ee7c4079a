// `mind-mcp` (the SDK's stdio bridge to /mcp) launched by the official clients' stdio transports, the
// way a desktop assistant or an IDE launches it, against a listening service: the v1 SDK (2025
// revisions, `initialize`) and the v2 client pinned to 2026-07-28. The tools, their effects (checked
// through REST) and the service's refusals (401, 403) reach the client as they do over HTTP.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import type { Stream } from 'node:stream';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { Client as ClientV2 } from '@modelcontextprotocol/client';
import { StdioClientTransport as StdioV2 } from '@modelcontextprotocol/client/stdio';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as StdioV1 } from '@modelcontextprotocol/sdk/client/stdio.js';
import { setMindDisabled } from '../src/minds/store.js';
import { bearer, useService } from './harness.js';
import { connectV2, dataOf, type McpClient, useMcpUrl } from './mcp/clients.js';

/** The workspace's `mind-mcp` (sdk/package.json `bin`), run by this Node. */
const MIND_MCP = fileURLToPath(new URL('../../sdk/bin/mind-mcp.mjs', import.meta.url));
const UNAUTHORIZED = /Mind Key fehlt oder ungültig/;
const DISABLED = /This mind is disabled/;

/** A JSON-RPC answer as mind-mcp writes it, with what these tests read of it. */
interface Answer {
  id: unknown;
  result?: { serverInfo?: { name?: string }; tools?: unknown[] };
  error?: { code: number; message: string };
}

interface StdioClient extends McpClient {
  /** What mind-mcp wrote to stderr so far. */
  stderr(): string;
}

/** The launch parameters a client's configuration gives: the command and its environment. */
const launch = (env: Record<string, string>) => ({ command: process.execPath, args: [MIND_MCP], env, stderr: 'pipe' as const });

function collect(stream: Stream | null): () => string {
  let text = '';
  stream?.on('data', (chunk: Buffer) => {
    text += chunk.toString();
  });
  return () => text;
}

async function connectStdioV1(env: Record<string, string>): Promise<StdioClient> {
  const transport = new StdioV1(launch(env));
  const stderr = collect(transport.stderr);
  // The v1 client tells a transport the revision `initialize` settled on, if it can hear it.
  let version: string | undefined;
  Object.assign(transport, { setProtocolVersion: (settled: string) => (version = settled) });
  const client = new ClientV1({ name: 'mind-test-stdio-v1', version: '1.0.0' });
  await client.connect(transport);
  return Object.assign(client as unknown as McpClient, { version: () => version, stderr });
}

async function connectStdioV2(env: Record<string, string>): Promise<StdioClient> {
  const transport = new StdioV2(launch(env));
  const stderr = collect(transport.stderr);
  const client = new ClientV2({ name: 'mind-test-stdio-v2', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
  await client.connect(transport);
  return Object.assign(client as unknown as McpClient, { version: () => client.getNegotiatedProtocolVersion(), stderr });
}

/** mind-mcp run directly: what it writes for the given stdin, and how it exits. */
function runMindMcp(env: Record<string, string>, stdin: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [MIND_MCP], { env: { PATH: process.env.PATH ?? '', ...env } });
  const stdout = collect(child.stdout);
  const stderr = collect(child.stderr);
  child.stdin.end(stdin);
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout: stdout(), stderr: stderr() })));
}

/** Waits until what `read` answers matches `pattern` (stderr arrives on its own pipe, after or before stdout). */
async function eventually(read: () => string, pattern: RegExp): Promise<string> {
  const deadline = Date.now() + 5000;
  while (!pattern.test(read()) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  assert.match(read(), pattern);
  return read();
}

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await new Promise((done) => server.once('listening', done));
  const { port } = server.address() as { port: number };
  await new Promise((done) => server.close(done));
  return port;
}

describe('mind-mcp: the tools over stdio, bridged to /mcp', () => {
  const svc = useService();
  const mcpUrl = useMcpUrl(svc);
  const envFor = (mindKey: string) => ({ MIND_URL: mcpUrl().origin, MIND_KEY: mindKey });

  const generations = [
    { label: 'v1 client (2025 revisions)', connect: connectStdioV1, version: /^2025-(0[6-9]|1[0-2])-\d\d$/ },
    { label: 'v2 client (2026-07-28)', connect: connectStdioV2, version: /^2026-07-28$/ },
  ];

  for (const { label, connect, version } of generations) {
    describe(label, () => {
      test('lists the same tools as /mcp and calls them: a memory stored over stdio is there through REST', async () => {
        const { mindKey, auth } = await svc.mind();
        const client = await connect(envFor(mindKey));
        const overHttp = await connectV2(mcpUrl(), mindKey);
        try {
          assert.match(client.version() ?? '', version);
          const { tools } = await client.listTools();
          assert.equal(tools.length, 25);
          assert.deepEqual(tools, (await overHttp.listTools()).tools);

          const stored = await client.callTool({
            name: 'store_memory',
            arguments: { category: 'preference', content: 'Plays the cello on Sundays', tags: ['music'] },
          });
          assert.equal(stored.isError, undefined);
          const memory = dataOf(stored) as { id: string };
          const rest = await svc.http.get(`/memory/${memory.id}`).set(auth).expect(200);
          assert.equal(rest.body.content, 'Plays the cello on Sundays');
          assert.deepEqual(rest.body.tags, ['music']);

          const recalled = await client.callTool({ name: 'recall_memories', arguments: { q: 'cello' } });
          assert.match(JSON.stringify(dataOf(recalled)), new RegExp(memory.id));

          // A tool error is a result the model reads, as over HTTP; the connection goes on.
          const invalid = await client.callTool({ name: 'create_task', arguments: { priority: 'urgent-ish' } });
          assert.equal(invalid.isError, true);
          assert.match(invalid.content[0]?.text ?? '', /title: is required/);
          const listed = await client.callTool({ name: 'list_tasks', arguments: {} });
          assert.deepEqual(dataOf(listed), { tasks: [], next_cursor: null });
          assert.doesNotMatch(client.stderr(), new RegExp(mindKey), 'the key is never logged');
        } finally {
          await client.close();
          await overHttp.close();
        }
      });
    });
  }

  describe("the service's refusals reach the client with its message", () => {
    const wrongKey = `mk_${'0'.repeat(48)}`;

    test('a wrong key: the v1 client cannot connect and reads the 401 message; mind-mcp says it on stderr, never the key', async () => {
      const transport = new StdioV1(launch(envFor(wrongKey)));
      const stderr = collect(transport.stderr);
      const client = new ClientV1({ name: 'mind-test-stdio-v1', version: '1.0.0' });
      await assert.rejects(client.connect(transport), UNAUTHORIZED);
      const logged = await eventually(stderr, /answered 401: Mind Key fehlt oder ungültig/);
      assert.doesNotMatch(logged, /mk_0{8}/);
      await client.close();
    });

    test('a wrong key with the v2 client: pinned, its connect fails; negotiating, it reads the 401 message', async () => {
      // Pinned, the v2 client probes with server/discover on a throw-away process and folds any JSON-RPC
      // error of the probe into "did not offer 2026-07-28", so no message of ours can reach it there.
      await assert.rejects(connectStdioV2(envFor(wrongKey)), /Version negotiation failed/);
      const transport = new StdioV2(launch(envFor(wrongKey)));
      const client = new ClientV2({ name: 'mind-test-stdio-v2', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
      await assert.rejects(client.connect(transport), UNAUTHORIZED);
      await client.close();
    });

    test('a disabled mind: the v1 client cannot connect and reads the 403 message', async () => {
      const { mindId, mindKey } = await svc.mind();
      await setMindDisabled(svc.ctx.db, mindId, new Date().toISOString());
      const transport = new StdioV1(launch(envFor(mindKey)));
      const stderr = collect(transport.stderr);
      const client = new ClientV1({ name: 'mind-test-stdio-v1', version: '1.0.0' });
      await assert.rejects(client.connect(transport), DISABLED);
      await eventually(stderr, /answered 403: This mind is disabled/);
      await client.close();
    });

    test("a mind disabled (403), enabled, then deleted (401) while the v2 client is connected: each call's answer", async () => {
      const { mindId, mindKey, jwt } = await svc.mind();
      const client = await connectStdioV2(envFor(mindKey));
      try {
        assert.equal((await client.callTool({ name: 'list_tasks', arguments: {} })).isError, undefined);
        await setMindDisabled(svc.ctx.db, mindId, new Date().toISOString());
        await assert.rejects(client.callTool({ name: 'list_tasks', arguments: {} }), DISABLED);
        await setMindDisabled(svc.ctx.db, mindId, null);
        assert.equal((await client.callTool({ name: 'list_tasks', arguments: {} })).isError, undefined);
        await svc.http.delete(`/minds/${mindId}`).set(bearer(jwt)).expect(204);
        await assert.rejects(client.callTool({ name: 'list_tasks', arguments: {} }), UNAUTHORIZED);
        assert.doesNotMatch(client.stderr(), new RegExp(mindKey));
      } finally {
        await client.close();
      }
    });

    test('the service out of reach: the client cannot connect and the error names the URL', async () => {
      const port = await closedPort();
      await assert.rejects(connectStdioV1({ MIND_URL: `http://127.0.0.1:${port}`, MIND_KEY: wrongKey }), (err: Error) => {
        assert.match(err.message, new RegExp(`Cannot reach http://127\\.0\\.0\\.1:${port}/mcp`));
        return true;
      });
    });
  });

  describe('the process', () => {
    test('without MIND_URL or MIND_KEY it exits non-zero saying what to set', async () => {
      const neither = await runMindMcp({}, '');
      assert.notEqual(neither.code, 0);
      assert.match(neither.stderr, /MIND_URL is not set/);
      assert.match(neither.stderr, /MIND_KEY is not set/);
      assert.equal(neither.stdout, '');

      const noKey = await runMindMcp({ MIND_URL: mcpUrl().origin }, '');
      assert.notEqual(noKey.code, 0);
      assert.match(noKey.stderr, /MIND_KEY is not set: the mind's Mind Key/);
      assert.doesNotMatch(noKey.stderr, /MIND_URL/);

      const badUrl = await runMindMcp({ MIND_URL: 'localhost:3000', MIND_KEY: 'mk_x' }, '');
      assert.notEqual(badUrl.code, 0);
      assert.match(badUrl.stderr, /MIND_URL is not an http\(s\) URL/);
    });

    test('a Mind Key in MIND_URL is refused with a message naming MIND_KEY, and never printed', async () => {
      const { mindKey } = await svc.mind();
      const origin = mcpUrl().origin;
      const urls = [
        `${origin}/?key=${mindKey}`,
        `${origin}/mcp?Key=${encodeURIComponent(mindKey)}&x=1`,
        `${origin}/mcp?ke%79=${mindKey}`,
        `${origin}/${mindKey}/mcp`,
        `${origin}/mcp?token=${mindKey.replace('_', '%5F')}`,
      ];
      for (const url of urls) {
        for (const env of [{ MIND_URL: url }, { MIND_URL: url, MIND_KEY: mindKey }] as Array<Record<string, string>>) {
          const run = await runMindMcp(env, '');
          assert.notEqual(run.code, 0, url);
          assert.match(run.stderr, /MIND_URL must not hold the Mind Key .*set MIND_KEY=mk_\.\.\. instead/, url);
          assert.equal(run.stderr.includes(mindKey.slice(3)), false, `${url}: the key is not printed`);
          assert.equal(run.stdout, '');
        }
      }
      // A URL that is no URL at all is quoted, its key redacted.
      const unparsed = await runMindMcp({ MIND_URL: `localhost:3000/?key=${mindKey}`, MIND_KEY: mindKey }, '');
      assert.match(unparsed.stderr, /MIND_URL is not an http\(s\) URL/);
      assert.equal(unparsed.stderr.includes(mindKey.slice(3)), false);
    });

    test('stdin closed: it answers every line read, then exits 0; stdout carries JSON-RPC lines only', async () => {
      const { mindKey } = await svc.mind();
      const initialize = {
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'shell', version: '1' } },
      };
      const lines = [JSON.stringify(initialize), 'not json', JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' })];
      const { code, stdout, stderr } = await runMindMcp(envFor(mindKey), `${lines.join('\n')}\n`);
      assert.equal(code, 0, stderr);
      const answers = stdout
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line) as Answer);
      assert.equal(answers.length, 3);
      const byId = new Map(answers.map((a) => [a.id, a]));
      assert.equal(byId.get(1)?.result?.serverInfo?.name, 'mind-service');
      assert.equal(byId.get(2)?.result?.tools?.length, 25);
      assert.equal(byId.get(null)?.error?.code, -32700);
      assert.doesNotMatch(stderr, new RegExp(mindKey));
    });

    test('a request the client cancels is aborted and gets no answer; the next one does', async () => {
      const { mindKey, auth } = await svc.mind();
      const call = (id: number, title: string) => ({
        jsonrpc: '2.0',
        id,
        method: 'tools/call',
        params: { name: 'create_task', arguments: { title } },
      });
      const cancel = { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1, reason: 'the user changed their mind' } };
      const lines = [call(1, 'Cancelled'), cancel, call(2, 'Kept')].map((m) => JSON.stringify(m));
      const { code, stdout, stderr } = await runMindMcp(envFor(mindKey), `${lines.join('\n')}\n`);
      assert.equal(code, 0, stderr);
      const answers = stdout
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line) as { id: number });
      assert.deepEqual(
        answers.map((a) => a.id),
        [2],
      );
      assert.doesNotMatch(stderr, /answered/, 'the cancellation itself is taken');
      const tasks = (await svc.http.get('/mind/tasks').set(auth).expect(200)).body.tasks as Array<{ title: string }>;
      assert.deepEqual(
        tasks.map((t) => t.title),
        ['Kept'],
      );
    });
  });
});
