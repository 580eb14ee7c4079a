// /mcp for MCP clients in a web page: the official clients of both generations run through a fetch
// that keeps the browser's CORS rules (a preflight for every header that is not safelisted, the answer
// refused without Access-Control-Allow-Origin, only safelisted and exposed headers readable), over real
// HTTP. And no answer of /mcp may be kept by a cache: they carry a mind's data.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as TransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { bearer, useService } from './harness.js';
import { type CallResult, dataOf, useMcpUrl } from './mcp/clients.js';

const ORIGIN = 'https://assistant.example.com';

const isCorsUnsafeByte = (c: string) => {
  const code = c.charCodeAt(0);
  return (code < 0x20 && c !== '\t') || code === 0x7f || '"():<>?@[\\]{}'.includes(c);
};
/** Request headers a page may send without a preflight (Fetch standard, "CORS-safelisted request-header"). */
function isSafelisted(name: string, value: string): boolean {
  if (name === 'accept' || name === 'accept-language' || name === 'content-language') {
    return value.length <= 128 && ![...value].some(isCorsUnsafeByte);
  }
  if (name === 'content-type') {
    return ['application/x-www-form-urlencoded', 'multipart/form-data', 'text/plain'].includes(value.split(';')[0]!.trim().toLowerCase());
  }
  return false;
}
const SAFELISTED_RESPONSE = new Set([
  'cache-control',
  'content-language',
  'content-length',
  'content-type',
  'expires',
  'last-modified',
  'pragma',
]);
const listOf = (header: string | null) =>
  (header ?? '')
    .split(',')
    .map((h) => h.trim().toLowerCase())
    .filter(Boolean);

/**
 * fetch as a page on `origin` gets it: a preflight where the browser sends one, each answer refused
 * unless it allows the origin, and only the headers CORS lets a script read. `preflighted` collects
 * the header names that needed a preflight.
 */
function browserFetch(origin: string, preflighted: Set<string>) {
  return async (input: string | URL, init?: RequestInit): Promise<Response> => {
    const request = new Request(input, init);
    const unsafe = [...request.headers].filter(([name, value]) => !isSafelisted(name, value)).map(([name]) => name);
    if (unsafe.length > 0 || !['GET', 'HEAD', 'POST'].includes(request.method)) {
      const preflight = await fetch(request.url, {
        method: 'OPTIONS',
        headers: {
          Origin: origin,
          'Access-Control-Request-Method': request.method,
          'Access-Control-Request-Headers': unsafe.sort().join(','),
        },
      });
      const allowedHeaders = listOf(preflight.headers.get('access-control-allow-headers'));
      const refused = unsafe.filter((name) => !allowedHeaders.includes(name));
      if (!preflight.ok || preflight.headers.get('access-control-allow-origin') !== origin || refused.length > 0) {
        throw new TypeError(
          `CORS: the preflight of ${request.method} ${request.url} failed (${preflight.status}; headers not allowed: ${refused.join(', ') || 'none'})`,
        );
      }
      if (
        !['GET', 'HEAD', 'POST'].includes(request.method) &&
        !listOf(preflight.headers.get('access-control-allow-methods')).includes(request.method.toLowerCase())
      ) {
        throw new TypeError(`CORS: ${request.method} is not allowed`);
      }
      for (const name of unsafe) preflighted.add(name);
    }
    const headers = new Headers(request.headers);
    headers.set('Origin', origin);
    const response = await fetch(request.url, { method: request.method, headers, body: request.body, duplex: 'half' } as RequestInit);
    if (response.headers.get('access-control-allow-origin') !== origin) {
      throw new TypeError(`CORS: the answer to ${request.method} ${request.url} does not allow ${origin}`);
    }
    const exposed = listOf(response.headers.get('access-control-expose-headers'));
    const readable = new Headers();
    for (const [name, value] of response.headers) if (SAFELISTED_RESPONSE.has(name) || exposed.includes(name)) readable.set(name, value);
    return new Response(response.body, { status: response.status, statusText: response.statusText, headers: readable });
  };
}

const initialize = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'cache-test', version: '1.0.0' } },
};

describe('MCP for clients in a web page (MIND_CORS_ORIGINS)', () => {
  const svc = useService({ MIND_CORS_ORIGINS: ORIGIN });
  const mcpUrl = useMcpUrl(svc);

  const generations = [
    {
      label: 'the v1 client (2025 revisions)',
      connect: async (mindKey: string, fetch: ReturnType<typeof browserFetch>) => {
        const client = new ClientV1({ name: 'mind-test-browser-v1', version: '1.0.0' });
        await client.connect(new TransportV1(mcpUrl(), { requestInit: { headers: bearer(mindKey) }, fetch }));
        return client;
      },
      sends: ['authorization', 'content-type', 'mcp-protocol-version'],
    },
    {
      label: 'the v2 client (2026-07-28)',
      connect: async (mindKey: string, fetch: ReturnType<typeof browserFetch>) => {
        const client = new ClientV2(
          { name: 'mind-test-browser-v2', version: '1.0.0' },
          { versionNegotiation: { mode: { pin: '2026-07-28' } } },
        );
        await client.connect(new TransportV2(mcpUrl(), { requestInit: { headers: bearer(mindKey) }, fetch }));
        return client;
      },
      sends: ['authorization', 'content-type', 'mcp-protocol-version', 'mcp-method', 'mcp-name'],
    },
  ];

  for (const { label, connect, sends } of generations) {
    test(`${label}, run from a listed origin under the browser's CORS rules, lists and calls tools`, async () => {
      const { mindKey, auth } = await svc.mind();
      await svc.http.post('/mind/task').set(auth).send({ title: 'Call the plumber' }).expect(201);
      const preflighted = new Set<string>();
      const client = await connect(mindKey, browserFetch(ORIGIN, preflighted));
      try {
        const { tools } = await client.listTools();
        assert.ok(tools.some((t) => t.name === 'list_tasks'));
        const listed = dataOf((await client.callTool({ name: 'list_tasks', arguments: {} })) as CallResult) as {
          tasks: Array<{ title: string }>;
        };
        assert.deepEqual(
          listed.tasks.map((t) => t.title),
          ['Call the plumber'],
        );
      } finally {
        await client.close();
      }
      // The preflights carried the MCP headers, so their acceptance is what this test checked.
      for (const name of sends) assert.ok(preflighted.has(name), `${name} went through a preflight (${[...preflighted].join(', ')})`);
    });
  }

  test('a preflight naming every header an MCP client sends is allowed; the session and revision headers can be read', async () => {
    const requested = [
      'authorization',
      'content-type',
      'last-event-id',
      'mcp-method',
      'mcp-name',
      'mcp-protocol-version',
      'mcp-session-id',
    ];
    for (const method of ['POST', 'GET', 'DELETE']) {
      const preflight = await svc.http
        .options('/mcp')
        .set('Origin', ORIGIN)
        .set('Access-Control-Request-Method', method)
        .set('Access-Control-Request-Headers', requested.join(', '))
        .expect(204);
      assert.equal(preflight.headers['access-control-allow-origin'], ORIGIN);
      assert.deepEqual(
        requested.filter((name) => !listOf(preflight.headers['access-control-allow-headers']).includes(name)),
        [],
      );
      assert.ok(listOf(preflight.headers['access-control-allow-methods']).includes(method.toLowerCase()), `${method} allowed`);
    }
    const { mindKey } = await svc.mind();
    const res = await fetch(mcpUrl(), {
      method: 'POST',
      headers: { ...bearer(mindKey), Origin: ORIGIN, 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
      body: JSON.stringify(initialize),
    });
    await res.text();
    const exposed = listOf(res.headers.get('access-control-expose-headers'));
    for (const name of ['mcp-session-id', 'mcp-protocol-version', 'www-authenticate']) assert.ok(exposed.includes(name), `${name} exposed`);
  });

  test('an origin not listed gets no CORS answer on /mcp', async () => {
    const preflight = await svc.http
      .options('/mcp')
      .set('Origin', 'https://evil.example.com')
      .set('Access-Control-Request-Method', 'POST')
      .set('Access-Control-Request-Headers', 'authorization, content-type, mcp-protocol-version');
    assert.equal(preflight.headers['access-control-allow-origin'], undefined);
  });
});

describe('MCP answers are never cached', () => {
  const svc = useService();
  const mcpUrl = useMcpUrl(svc);

  test('2025 answers streamed as events, 2026-07-28 JSON answers and refusals all say Cache-Control: no-store', async () => {
    const { mindKey } = await svc.mind();
    const post = (body: unknown, headers: Record<string, string> = {}) =>
      fetch(mcpUrl(), {
        method: 'POST',
        headers: { ...bearer(mindKey), 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', ...headers },
        body: JSON.stringify(body),
      });
    const answers = [
      { label: 'initialize (2025, event stream)', res: await post(initialize), type: /^text\/event-stream/ },
      {
        label: 'tools/call (2025, event stream)',
        res: await post(
          { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'list_tasks', arguments: {} } },
          { 'MCP-Protocol-Version': '2025-11-25' },
        ),
        type: /^text\/event-stream/,
      },
      {
        label: 'tools/call (2026-07-28, JSON)',
        res: await post(
          {
            jsonrpc: '2.0',
            id: 3,
            method: 'tools/call',
            params: {
              name: 'list_tasks',
              arguments: {},
              _meta: {
                'io.modelcontextprotocol/protocolVersion': '2026-07-28',
                'io.modelcontextprotocol/clientInfo': { name: 'cache-test', version: '1.0.0' },
                'io.modelcontextprotocol/clientCapabilities': {},
              },
            },
          },
          { 'MCP-Protocol-Version': '2026-07-28', 'Mcp-Method': 'tools/call', 'Mcp-Name': 'list_tasks' },
        ),
        type: /^application\/json/,
      },
      {
        label: 'GET (405)',
        res: await fetch(mcpUrl(), { headers: { ...bearer(mindKey), Accept: 'text/event-stream' } }),
        type: /^application\/json/,
      },
    ];
    for (const { label, res, type } of answers) {
      const text = await res.text();
      assert.match(res.headers.get('content-type') ?? '', type, `${label}: ${res.status} ${text}`);
      assert.equal(res.headers.get('cache-control'), 'no-store', label);
    }
    assert.match(await (await post(initialize)).text(), /"protocolVersion":"2025-11-25"/);
  });
});
