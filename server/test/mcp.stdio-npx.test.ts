// The install the docs and the console show: `npx -y -p <server>/downloads/mindservice-sdk.tgz mind-mcp`,
// launched by the official v1 client's stdio transport as a desktop client launches it. Real npx, with
// a fresh HOME and npm cache and a registry nobody answers at, run outside the workspace: the tarball
// must come from the server and must need nothing else. Then the tools work against a real mind.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer as createHttpServer, type Server } from 'node:http';
import { type AddressInfo, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Stream } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { useService } from './harness.js';
import { dataOf } from './mcp/clients.js';

const npxMissing = spawnSync('npx', ['--version'], { encoding: 'utf8' }).error !== undefined;

/** A loopback port nothing listens on: the registry npx is given, so any registry request fails. */
async function closedPort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await new Promise((done) => server.once('listening', done));
  const { port } = server.address() as AddressInfo;
  await new Promise((done) => server.close(done));
  return port;
}

function collect(stream: Stream | null): () => string {
  let text = '';
  stream?.on('data', (chunk: Buffer) => {
    text += chunk.toString();
  });
  return () => text;
}

describe('npx installs mind-mcp from the server and a stdio client uses it', { skip: npxMissing && 'npx is not installed' }, () => {
  const svc = useService();
  let server: Server;
  let origin: string;
  const requested: string[] = [];
  const home = mkdtempSync(join(tmpdir(), 'mind-npx-home-'));

  before(async () => {
    server = createHttpServer((req, res) => {
      requested.push(`${req.method} ${req.url}`);
      svc.app(req, res);
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(async () => {
    await new Promise<void>((done) => server.close(() => done()));
    rmSync(home, { recursive: true, force: true });
  });

  test('npx -y -p <server>/downloads/mindservice-sdk.tgz mind-mcp: tools listed, a memory stored and recalled', {
    timeout: 120_000,
  }, async () => {
    const { mindKey, auth } = await svc.mind();
    const project = join(home, 'elsewhere');
    mkdirSync(project);
    const transport = new StdioClientTransport({
      command: 'npx',
      args: ['-y', '-p', `${origin}/downloads/mindservice-sdk.tgz`, 'mind-mcp'],
      cwd: project,
      // Only what a desktop client passes, and npm settings that reuse nothing and reach no registry.
      env: {
        PATH: process.env.PATH ?? '',
        HOME: home,
        npm_config_cache: join(home, 'npm-cache'),
        npm_config_userconfig: join(home, '.npmrc'),
        npm_config_registry: `http://127.0.0.1:${await closedPort()}/`,
        npm_config_update_notifier: 'false',
        npm_config_audit: 'false',
        npm_config_fund: 'false',
        MIND_URL: origin,
        MIND_KEY: mindKey,
      },
      stderr: 'pipe',
    });
    const stderr = collect(transport.stderr);
    const client = new Client({ name: 'mind-test-npx', version: '1.0.0' });
    try {
      await client.connect(transport).catch((err: Error) => {
        throw new Error(`${err.message}\nstderr of npx/mind-mcp:\n${stderr()}`);
      });
      assert.ok(
        requested.includes('GET /downloads/mindservice-sdk.tgz'),
        `npx fetched the tarball from the server: ${requested.join(', ')}`,
      );
      assert.match(stderr(), /mind-mcp \d+\.\d+\.\d+: MCP over stdio, forwarded to http:\/\/127\.0\.0\.1:\d+\/mcp/);

      const { tools } = await client.listTools();
      const names = tools.map((tool) => tool.name);
      for (const name of ['store_memory', 'recall_memories', 'create_task']) assert.ok(names.includes(name), name);

      const stored = await client.callTool({
        name: 'store_memory',
        arguments: { category: 'preference', content: 'Takes the night train to Vienna' },
      });
      assert.equal(stored.isError, undefined, JSON.stringify(stored));
      const memory = dataOf(stored as { content: Array<{ type: string; text?: string }> }) as { id: string };
      const rest = await svc.http.get(`/memory/${memory.id}`).set(auth).expect(200);
      assert.equal(rest.body.content, 'Takes the night train to Vienna');
      const recalled = await client.callTool({ name: 'recall_memories', arguments: { q: 'night train' } });
      assert.match(JSON.stringify(recalled.content), new RegExp(memory.id));
      assert.doesNotMatch(stderr(), new RegExp(mindKey), 'the key is never logged');
    } finally {
      await client.close();
    }
  });
});
