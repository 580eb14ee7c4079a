// MCP against REST: a `tools/call` of `list_tasks` over /mcp against `GET /mind/tasks`, the same mind
// of 20 tasks on the same service, with the same autocannon settings, one after the other. The MCP
// requests are plain JSON-RPC POSTs as the official clients send them (so no client library's cost is
// measured): the stateless 2026-07-28 form, and the 2025 form after an `initialize`.
//
//   node --import tsx bench/mcp.ts        (BENCH_QUICK=1: 1 s runs; DATABASE_URL: also PostgreSQL)
import { HTTP_FULL, HTTP_QUICK, type HttpOptions, type Measured, measure } from './http.js';
import type { Client } from './lib/client.js';
import { count, ms, type Row, row, runAlone } from './lib/report.js';
import { type DatabaseKind, withMindService } from './lib/servers.js';
import { TextGenerator } from './lib/text.js';

/** The target: a tools/call of list_tasks costs at most twice a GET /mind/tasks. */
const MCP_VS_REST = 0.5;
/** Each pair is measured this many times, alternating, so a neighbour's load hits both sides alike. */
export const MCP_ROUNDS_FULL = 2;
export const MCP_ROUNDS_QUICK = 1;

const CLIENT_INFO = { name: 'mind-bench', version: '1.0.0' };
const MODERN = '2026-07-28';
const LEGACY = '2025-11-25';

/** The 2026-07-28 form: the revision and the client in every request's `_meta`, the method and tool name as headers too. */
function modernCall(mindKey: string) {
  return {
    headers: {
      Authorization: `Bearer ${mindKey}`,
      'Content-Type': 'application/json',
      Accept: 'application/json, text/event-stream',
      'MCP-Protocol-Version': MODERN,
      'Mcp-Method': 'tools/call',
      'Mcp-Name': 'list_tasks',
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: {
        name: 'list_tasks',
        arguments: {},
        _meta: {
          'io.modelcontextprotocol/protocolVersion': MODERN,
          'io.modelcontextprotocol/clientInfo': CLIENT_INFO,
          'io.modelcontextprotocol/clientCapabilities': {},
        },
      },
    }),
  };
}

/** The 2025 form, served statelessly: after `initialize`, each call names the negotiated revision in a header (no session id). */
function legacyCall(mindKey: string) {
  const headers = {
    Authorization: `Bearer ${mindKey}`,
    'Content-Type': 'application/json',
    Accept: 'application/json, text/event-stream',
  };
  return {
    initialize: {
      headers,
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 0,
        method: 'initialize',
        params: { protocolVersion: LEGACY, capabilities: {}, clientInfo: CLIENT_INFO },
      }),
    },
    call: {
      headers: { ...headers, 'MCP-Protocol-Version': LEGACY },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'list_tasks', arguments: {} } }),
    },
  };
}

/** One request's answer (status, text); fetch, so that the SSE form of the 2025 answer is read whole. */
async function send(url: string, request: { method?: string; headers: Record<string, string>; body?: string }) {
  const res = await fetch(url, { method: request.method ?? 'POST', headers: request.headers, body: request.body });
  return { status: res.status, text: await res.text() };
}

/** The JSON-RPC result in an answer that is JSON or an SSE stream of one message. */
function resultOf(text: string): { content?: Array<{ text?: string }>; isError?: boolean } | undefined {
  const json = text.startsWith('{') ? text : /^data: (.*)$/m.exec(text)?.[1];
  return json ? JSON.parse(json).result : undefined;
}

export async function benchMcp(kind: DatabaseKind, opts: HttpOptions, rounds: number): Promise<Row[]> {
  return withMindService(kind, {}, async (server, client) => {
    const mindKey = await seedTasks(client, 20);
    const mcpUrl = `${server.url}/mcp`;
    const rest = { url: `${server.url}/mind/tasks`, headers: { Authorization: `Bearer ${mindKey}` } };
    const modern = modernCall(mindKey);
    const legacy = legacyCall(mindKey);

    // Each answer checked once, then every measured answer must be that same text (autocannon's expectBody).
    const restAnswer = await send(rest.url, { method: 'GET', headers: rest.headers });
    if (restAnswer.status !== 200 || JSON.parse(restAnswer.text).tasks.length !== 20)
      throw new Error(`GET /mind/tasks: ${restAnswer.text}`);
    const initialized = await send(mcpUrl, legacy.initialize);
    if (resultOf(initialized.text) === undefined) throw new Error(`initialize: ${initialized.status} ${initialized.text}`);
    const forms = [
      { label: MODERN, request: modern },
      { label: `${LEGACY}, after initialize`, request: legacy.call },
    ];
    const expected: string[] = [];
    for (const { label, request } of forms) {
      const answer = await send(mcpUrl, request);
      const result = resultOf(answer.text);
      // The route's JSON is the second text block (the first is a summary line).
      const tasks = result?.content?.[1]?.text ? (JSON.parse(result.content[1].text) as { tasks?: unknown[] }).tasks : undefined;
      if (answer.status !== 200 || result?.isError || tasks?.length !== 20) {
        throw new Error(`tools/call list_tasks (${label}): ${answer.status} ${answer.text.slice(0, 500)}`);
      }
      expected.push(answer.text);
    }

    const runs = { rest: [] as Measured[], mcp: forms.map(() => [] as Measured[]) };
    for (let round = 0; round < rounds; round++) {
      runs.rest.push(await measure(opts, { ...rest, expectBody: restAnswer.text }));
      for (const [i, { request }] of forms.entries()) {
        runs.mcp[i]!.push(await measure(opts, { url: mcpUrl, method: 'POST', ...request, expectBody: expected[i] }));
      }
    }

    const restM = mean(runs.rest);
    return forms.map(({ label }, i) => {
      const m = mean(runs.mcp[i]!);
      const share = m.rps / restM.rps;
      const failed = m.failed + restM.failed ? `, ${count(m.failed + restM.failed)} failed` : '';
      return row(
        `MCP tools/call list_tasks (${label}) against GET /mind/tasks (20 tasks)`,
        kind,
        `${count(m.rps)} against ${count(restM.rps)} req/s: ${(share * 100).toFixed(0)} % (p50 ${ms(m.p50)}, p99 ${ms(m.p99)})${failed}`,
        { rps: m.rps, p50_ms: m.p50, p99_ms: m.p99, rest_rps: restM.rps, rest_p50_ms: restM.p50, rest_p99_ms: restM.p99, vs_rest: share },
        { op: '>=', value: MCP_VS_REST * 100, unit: '% of GET /mind/tasks' },
        share * 100,
      );
    });
  });
}

/** A new mind holding `n` tasks; its Mind Key. */
async function seedTasks(client: Client, n: number): Promise<string> {
  const text = new TextGenerator(7);
  const { mindKey } = await client.newMind('bench-mcp');
  for (let i = 0; i < n; i++) {
    await client.ok('POST', '/mind/task', mindKey, {
      title: `Task ${i}: ${text.words(5)}`,
      description: text.sentence(),
      priority: text.pick(['low', 'normal', 'high'] as const),
    });
  }
  return mindKey;
}

/** The runs of one request taken together: mean req/s, the worst p50 and p99, every failure. */
function mean(runs: Measured[]): Measured {
  return {
    rps: runs.reduce((sum, m) => sum + m.rps, 0) / runs.length,
    p50: Math.max(...runs.map((m) => m.p50)),
    p99: Math.max(...runs.map((m) => m.p99)),
    failed: runs.reduce((sum, m) => sum + m.failed, 0),
  };
}

await runAlone(import.meta.url, (kind, quick) =>
  benchMcp(kind, quick ? HTTP_QUICK : HTTP_FULL, quick ? MCP_ROUNDS_QUICK : MCP_ROUNDS_FULL),
);
