// The official MCP clients of both SDK generations, connected over real HTTP to a test service's
// /mcp: the v1 SDK (2025 revisions, `initialize`) and the v2 client pinned to 2026-07-28.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before } from 'node:test';
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as TransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { bearer, type TestService } from '../harness.js';

export interface ToolLike {
  name: string;
  description?: string;
  inputSchema: { type: string; properties?: Record<string, { description?: string }> };
  outputSchema?: { type: string };
  annotations?: { readOnlyHint?: boolean; destructiveHint?: boolean; openWorldHint?: boolean };
}

export interface CallResult {
  isError?: boolean;
  content: Array<{ type: string; text?: string; data?: string; mimeType?: string }>;
  structuredContent?: Record<string, unknown>;
}

/** A tool result's data: the JSON of its last text block (the first is a line about it). */
export function dataOf(result: { content: Array<{ type: string; text?: string }> }): Record<string, unknown> {
  const text = result.content.filter((block) => block.type === 'text').at(-1)?.text;
  if (text === undefined) throw new Error(`no text block in ${JSON.stringify(result)}`);
  return JSON.parse(text) as Record<string, unknown>;
}

/** What the tests need of either client, and the protocol revision it speaks. */
export interface McpClient {
  listTools(): Promise<{ tools: ToolLike[] }>;
  callTool(params: { name: string; arguments: Record<string, unknown> }): Promise<CallResult>;
  close(): Promise<void>;
  version(): string | undefined;
}

/** The service of the enclosing describe listening on loopback (in before/after); answers its /mcp URL. */
export function useMcpUrl(svc: TestService): () => URL {
  let server: Server;
  let url: URL;
  before(async () => {
    server = createServer(svc.app);
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    url = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`);
  });
  after(() => new Promise<void>((done) => server.close(() => done())));
  return () => url;
}

const headers = (mindKey: string) => ({ requestInit: { headers: bearer(mindKey) } });

export async function connectV1(url: URL, mindKey: string): Promise<McpClient> {
  const transport = new TransportV1(url, headers(mindKey));
  const client = new ClientV1({ name: 'mind-test-v1', version: '1.0.0' });
  await client.connect(transport);
  return Object.assign(client as unknown as McpClient, { version: () => transport.protocolVersion });
}

export async function connectV2(url: URL, mindKey: string): Promise<McpClient> {
  const transport = new TransportV2(url, headers(mindKey));
  const client = new ClientV2({ name: 'mind-test-v2', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
  await client.connect(transport);
  return Object.assign(client as unknown as McpClient, { version: () => client.getNegotiatedProtocolVersion() });
}
