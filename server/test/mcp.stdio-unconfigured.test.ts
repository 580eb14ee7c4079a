// `mind-mcp` launched by a client without MIND_KEY, without MIND_URL, or with the key in MIND_URL: the
// client's first request (`initialize`) gets a JSON-RPC error that names the setting to fix, where it
// used to read only "Connection closed". No service is needed: nothing is sent anywhere.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import type { Stream } from 'node:stream';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { Client as ClientV2 } from '@modelcontextprotocol/client';
import { StdioClientTransport as StdioV2 } from '@modelcontextprotocol/client/stdio';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as StdioV1 } from '@modelcontextprotocol/sdk/client/stdio.js';

const MIND_MCP = fileURLToPath(new URL('../../sdk/bin/mind-mcp.mjs', import.meta.url));
const KEY = `mk_${'a1'.repeat(24)}`;
const launch = (env: Record<string, string>) => ({ command: process.execPath, args: [MIND_MCP], env, stderr: 'pipe' as const });

function collect(stream: Stream | null): () => string {
  let text = '';
  stream?.on('data', (chunk: Buffer) => {
    text += chunk.toString();
  });
  return () => text;
}

/** The v1 client's connect: answers the error it fails with and what mind-mcp wrote to stderr. */
async function connectV1(env: Record<string, string>): Promise<{ message: string; stderr: string }> {
  const transport = new StdioV1(launch(env));
  const stderr = collect(transport.stderr);
  const client = new ClientV1({ name: 'mind-test-unconfigured', version: '1.0.0' });
  try {
    await client.connect(transport);
  } catch (err) {
    return { message: (err as Error).message, stderr: stderr() };
  } finally {
    await client.close();
  }
  assert.fail('the client connected without settings');
}

describe('mind-mcp without its settings answers the client with what to set', () => {
  test('no MIND_KEY: initialize is answered with a JSON-RPC error naming MIND_KEY', async () => {
    const { message, stderr } = await connectV1({ MIND_URL: 'http://127.0.0.1:3000' });
    assert.match(message, /-32012/);
    assert.match(message, /mind-mcp is not configured: MIND_KEY is not set: the mind's Mind Key/);
    assert.doesNotMatch(message, /MIND_URL is/);
    assert.doesNotMatch(message, /Connection closed/);
    assert.match(stderr, /MIND_KEY is not set/);
  });

  test('no MIND_URL: the error names MIND_URL', async () => {
    const { message } = await connectV1({ MIND_KEY: KEY });
    assert.match(message, /MIND_URL is not set: the Mind Service's address, e.g\. MIND_URL=http:\/\/127\.0\.0\.1:3000/);
    assert.doesNotMatch(message, /MIND_KEY is not set/);
  });

  test('the key in MIND_URL: the error says to move it to MIND_KEY, and shows no key', async () => {
    const { message, stderr } = await connectV1({ MIND_URL: `http://127.0.0.1:3000/?key=${KEY}`, MIND_KEY: KEY });
    assert.match(message, /MIND_URL must not hold the Mind Key .*set MIND_KEY=mk_\.\.\. instead/);
    assert.equal(message.includes(KEY.slice(3)), false);
    assert.equal(stderr.includes(KEY.slice(3)), false);
  });

  test('the v2 client, negotiating: its connect fails with the same message', async () => {
    const client = new ClientV2({ name: 'mind-test-unconfigured', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
    await assert.rejects(client.connect(new StdioV2(launch({ MIND_URL: 'http://127.0.0.1:3000' }))), /MIND_KEY is not set/);
    await client.close();
  });

  test('by hand: each request gets the error, notifications none; stdin closed, it exits 2', async () => {
    const child = spawn(process.execPath, [MIND_MCP], { env: { PATH: process.env.PATH ?? '' } });
    const stdout = collect(child.stdout);
    const lines = [
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'sh', version: '1' } },
      },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 'two', method: 'tools/list' },
    ];
    child.stdin.end(`${lines.map((line) => JSON.stringify(line)).join('\n')}\n`);
    const code = await new Promise((resolve) => child.on('close', resolve));
    assert.equal(code, 2);
    const answers = stdout()
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as { id: unknown; error: { code: number; message: string } });
    assert.deepEqual(
      answers.map((a) => [a.id, a.error.code]),
      [
        [1, -32012],
        ['two', -32012],
      ],
    );
    assert.match(answers[0]!.error.message, /MIND_URL is not set.*; MIND_KEY is not set/);
  });
});
