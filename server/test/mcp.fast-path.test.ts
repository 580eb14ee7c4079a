// /mcp answers the common `tools/call` itself, beside the SDK (src/mcp/fast-call.ts). Here every
// request is sent twice over real HTTP to the same service: once as served, once with the SDK alone
// serving it. Status, headers and body bytes must be the same, bar what differs between any two
// requests (the date, the request id; the id and times of what a call creates). Each case also says
// whether the fast path takes it, so the comparison is known to cover both paths.
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, request, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { fastCallOf, SDK_ONLY } from '../src/mcp/fast-call.js';
import { buildTools } from '../src/mcp/tools.js';
import { PNG_1X1, poll, postResult, registerComputer } from './computers/helpers.js';
import { useService } from './harness.js';

const MODERN = '2026-07-28';
const ENVELOPE = {
  'io.modelcontextprotocol/protocolVersion': MODERN,
  'io.modelcontextprotocol/clientInfo': { name: 'mind-test', version: '1.0.0' },
  'io.modelcontextprotocol/clientCapabilities': {},
};
const BOTH = 'application/json, text/event-stream';
/** Headers any two answers differ in. */
const VARIABLE = new Set(['date', 'x-request-id', 'x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset']);

interface Sent {
  headers: Record<string, string>;
  body: string;
}
type Case = Sent & { label: string; fast: boolean; normalise?: (body: string) => string };

/** A 2026-07-28 call as the v2 client sends it (the envelope in `_meta`, the standard headers), with changes. */
function modern(name: string, args: unknown, change: { headers?: Record<string, string | undefined>; params?: object } = {}): Sent {
  const headers = { Accept: BOTH, 'MCP-Protocol-Version': MODERN, 'Mcp-Method': 'tools/call', 'Mcp-Name': name, ...change.headers };
  const params = { name, ...(args !== undefined && { arguments: args }), _meta: ENVELOPE, ...change.params };
  return { headers: defined(headers), body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params }) };
}

/** A 2025 call as the v1 client sends it after `initialize` (the revision as a header), with changes. */
function legacy(name: string, args: unknown, change: { headers?: Record<string, string | undefined>; params?: object } = {}): Sent {
  const headers = { Accept: BOTH, 'MCP-Protocol-Version': '2025-11-25', ...change.headers };
  const params = { name, ...(args !== undefined && { arguments: args }), ...change.params };
  return { headers: defined(headers), body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params }) };
}

const defined = (headers: Record<string, string | undefined>) =>
  Object.fromEntries(Object.entries(headers).filter((entry): entry is [string, string] => entry[1] !== undefined));

interface Answer {
  status: number;
  headers: string[];
  body: string;
}

describe('MCP tools/call fast path: the SDK answer, byte for byte', () => {
  const svc = useService();
  const tools = new Map(buildTools().map((tool) => [tool.definition.name, tool]));
  const servers: Server[] = [];
  let asServed: number;
  let sdkOnly: number;
  let mindKey: string;
  let auth: Record<string, string>;
  let taskId: string;
  let foreignTaskId: string;

  const listen = async (app: (req: IncomingMessage, res: ServerResponse) => void) => {
    const server = createServer(app);
    servers.push(server);
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    return (server.address() as AddressInfo).port;
  };

  before(async () => {
    asServed = await listen(svc.app);
    sdkOnly = await listen((req, res) => {
      (req as IncomingMessage & { [SDK_ONLY]?: true })[SDK_ONLY] = true;
      svc.app(req, res);
    });
    const mind = await svc.mind();
    ({ mindKey, auth } = mind);
    for (const title of ['Water the plants', 'Tune the piano']) await svc.http.post('/mind/task').set(auth).send({ title }).expect(201);
    taskId = (await svc.http.get('/mind/tasks').set(auth).expect(200)).body.tasks[0].id;
    const other = await svc.mind();
    foreignTaskId = (await svc.http.post('/mind/task').set(other.auth).send({ title: 'Not yours' }).expect(201)).body.id;
  });
  after(() => Promise.all(servers.map((server) => new Promise((done) => server.close(done)))));

  function send(port: number, { headers, body }: Sent): Promise<Answer> {
    return new Promise((done, fail) => {
      const req = request(
        {
          host: '127.0.0.1',
          port,
          path: '/mcp',
          method: 'POST',
          agent: false,
          headers: { Authorization: `Bearer ${mindKey}`, 'Content-Type': 'application/json', ...headers },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () => {
            // Names as written (their case and order), values as sent, bar the variable ones.
            const pairs: string[] = [];
            for (let i = 0; i < res.rawHeaders.length; i += 2) {
              const name = res.rawHeaders[i]!;
              if (!VARIABLE.has(name.toLowerCase())) pairs.push(`${name}: ${res.rawHeaders[i + 1]}`);
            }
            done({ status: res.statusCode!, headers: pairs, body: Buffer.concat(chunks).toString('latin1') });
          });
        },
      );
      req.on('error', fail);
      req.end(body);
    });
  }

  /** Whether the endpoint would take the request on the fast path (the headers as Node hands them over). */
  function takenFast({ headers, body }: Sent) {
    const lower = Object.fromEntries(
      Object.entries({ 'Content-Type': 'application/json', ...headers }).map(([k, v]) => [k.toLowerCase(), v]),
    );
    return fastCallOf({ method: 'POST', url: '/mcp', headers: { host: '127.0.0.1', ...lower } }, JSON.parse(body), tools) !== undefined;
  }

  async function compare(label: string, sent: Sent, fast: boolean, normalise = (text: string) => text) {
    assert.equal(takenFast(sent), fast, `${label}: ${fast ? 'taken' : 'left to the SDK'} by the fast path`);
    const served = await send(asServed, sent);
    const bySdk = await send(sdkOnly, sent);
    assert.deepEqual(
      { ...served, body: normalise(served.body) },
      { ...bySdk, body: normalise(bySdk.body) },
      `${label}: the same answer both ways`,
    );
    return served;
  }

  const cases = (): Case[] => [
    // 2026-07-28: what the fast path takes.
    { label: 'modern: list_tasks', fast: true, ...modern('list_tasks', { limit: 5 }) },
    { label: 'modern: list_tasks, no arguments', fast: true, ...modern('list_tasks', undefined) },
    { label: 'modern: get_task, a string id', fast: true, ...withId(modern('get_task', { task_id: taskId }), 'call-7') },
    { label: 'modern: invalid arguments (isError)', fast: true, ...modern('create_task', { priority: 'urgent-ish' }) },
    { label: "modern: another mind's task (isError)", fast: true, ...modern('get_task', { task_id: foreignTaskId }) },
    { label: 'modern: Accept without event streams', fast: true, ...modern('list_tasks', {}, { headers: { Accept: 'application/json' } }) },
    {
      label: 'modern: log level in the envelope',
      fast: true,
      ...modern('list_tasks', {}, { params: { _meta: { ...ENVELOPE, 'io.modelcontextprotocol/logLevel': 'info' } } }),
    },
    // 2026-07-28: left to the SDK.
    { label: 'modern: unknown tool', fast: false, ...modern('no_such_tool', {}) },
    { label: 'modern: no Mcp-Name', fast: false, ...modern('list_tasks', {}, { headers: { 'Mcp-Name': undefined } }) },
    { label: 'modern: Mcp-Name of another tool', fast: false, ...modern('list_tasks', {}, { headers: { 'Mcp-Name': 'get_task' } }) },
    { label: 'modern: no Mcp-Method', fast: false, ...modern('list_tasks', {}, { headers: { 'Mcp-Method': undefined } }) },
    {
      label: 'modern: no MCP-Protocol-Version',
      fast: false,
      ...modern('list_tasks', {}, { headers: { 'MCP-Protocol-Version': undefined } }),
    },
    {
      label: 'modern: header names a 2025 revision',
      fast: false,
      ...modern('list_tasks', {}, { headers: { 'MCP-Protocol-Version': '2025-11-25' } }),
    },
    {
      label: 'modern: envelope without capabilities',
      fast: false,
      ...modern('list_tasks', {}, { params: { _meta: withoutCapabilities() } }),
    },
    {
      label: 'modern: malformed client info',
      fast: false,
      ...modern('list_tasks', {}, { params: { _meta: { ...ENVELOPE, 'io.modelcontextprotocol/clientInfo': { name: 5 } } } }),
    },
    {
      label: 'modern: a progress token beside the envelope',
      fast: false,
      ...modern('list_tasks', {}, { params: { _meta: { ...ENVELOPE, progressToken: 'p1' } } }),
    },
    {
      label: 'modern: an unknown revision',
      fast: false,
      ...modern(
        'list_tasks',
        {},
        {
          headers: { 'MCP-Protocol-Version': '2027-01-01' },
          params: { _meta: { ...ENVELOPE, 'io.modelcontextprotocol/protocolVersion': '2027-01-01' } },
        },
      ),
    },
    // 2025 revisions: what the fast path takes.
    { label: 'legacy: list_tasks', fast: true, ...legacy('list_tasks', { limit: 5 }) },
    { label: 'legacy: get_task', fast: true, ...legacy('get_task', { task_id: taskId }) },
    { label: 'legacy: invalid arguments (isError)', fast: true, ...legacy('create_task', { priority: 'urgent-ish' }) },
    { label: "legacy: another mind's task (isError)", fast: true, ...legacy('update_task', { task_id: foreignTaskId, title: 'Mine now' }) },
    { label: 'legacy: 2025-06-18', fast: true, ...legacy('list_tasks', {}, { headers: { 'MCP-Protocol-Version': '2025-06-18' } }) },
    { label: 'legacy: 2025-03-26', fast: true, ...legacy('list_tasks', {}, { headers: { 'MCP-Protocol-Version': '2025-03-26' } }) },
    { label: 'legacy: no revision header', fast: true, ...legacy('list_tasks', {}, { headers: { 'MCP-Protocol-Version': undefined } }) },
    { label: 'legacy: Accept listing more', fast: true, ...legacy('list_tasks', {}, { headers: { Accept: `text/html, ${BOTH}, */*` } }) },
    // 2025 revisions: left to the SDK.
    { label: 'legacy: unknown tool', fast: false, ...legacy('no_such_tool', {}) },
    {
      label: 'legacy: unsupported revision',
      fast: false,
      ...legacy('list_tasks', {}, { headers: { 'MCP-Protocol-Version': '2024-01-01' } }),
    },
    { label: 'legacy: Accept JSON only', fast: false, ...legacy('list_tasks', {}, { headers: { Accept: 'application/json' } }) },
    { label: 'legacy: Accept events only', fast: false, ...legacy('list_tasks', {}, { headers: { Accept: 'text/event-stream' } }) },
    { label: 'legacy: no Accept', fast: false, ...legacy('list_tasks', {}, { headers: { Accept: undefined } }) },
    { label: 'legacy: a progress token', fast: false, ...legacy('list_tasks', {}, { params: { _meta: { progressToken: 7 } } }) },
    { label: 'legacy: arguments null', fast: false, ...legacy('list_tasks', null) },
    { label: 'legacy: arguments a list', fast: false, ...legacy('list_tasks', [1]) },
    {
      label: 'legacy: arguments with __proto__',
      fast: false,
      ...withBody(legacy('list_tasks', {}), (b) => b.replace('"arguments":{}', '"arguments":{"__proto__":{"limit":1}}')),
    },
    { label: 'legacy: a fractional id', fast: false, ...withBody(legacy('list_tasks', {}), (b) => b.replace('"id":1', '"id":1.5')) },
    { label: 'legacy: a null id', fast: false, ...withBody(legacy('list_tasks', {}), (b) => b.replace('"id":1', '"id":null')) },
    {
      label: 'legacy: an extra member',
      fast: false,
      ...withBody(legacy('list_tasks', {}), (b) => b.replace('"id":1', '"id":1,"extra":true')),
    },
    { label: 'legacy: a task-augmented call', fast: false, ...legacy('list_tasks', {}, { params: { task: { ttl: 1000 } } }) },
    {
      label: 'legacy: a +json media type',
      fast: false,
      ...legacy('list_tasks', {}, { headers: { 'Content-Type': 'application/vnd.api+json' } }),
    },
    // Neither a single request nor tools/call.
    {
      label: 'a notification',
      fast: false,
      headers: { Accept: BOTH, 'MCP-Protocol-Version': '2025-11-25' },
      body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
    },
    {
      label: 'a batch under 2025-11-25 (refused: batches left MCP in 2025-06-18)',
      fast: false,
      headers: { Accept: BOTH, 'MCP-Protocol-Version': '2025-11-25' },
      body: JSON.stringify([
        JSON.parse(legacy('list_tasks', {}).body),
        { ...JSON.parse(legacy('get_task', { task_id: taskId }).body), id: 2 },
      ]),
    },
    // Batches (2025-03-26): each call by the fast path or by the SDK, one after the other, in order.
    {
      label: 'a 2025-03-26 batch of two calls',
      fast: false,
      headers: { Accept: BOTH, 'MCP-Protocol-Version': '2025-03-26' },
      body: JSON.stringify([
        JSON.parse(legacy('list_tasks', {}).body),
        { ...JSON.parse(legacy('get_task', { task_id: taskId }).body), id: 2 },
      ]),
    },
    {
      label: 'a 2025-03-26 batch of calls the fast path leaves, a notification and tools/list',
      fast: false,
      headers: { Accept: BOTH, 'MCP-Protocol-Version': '2025-03-26' },
      body: JSON.stringify([
        JSON.parse(legacy('no_such_tool', {}).body),
        { jsonrpc: '2.0', method: 'notifications/initialized' },
        { ...JSON.parse(legacy('list_tasks', {}, { params: { _meta: { progressToken: 7 } } }).body), id: 2 },
        { ...JSON.parse(legacy('get_task', { task_id: foreignTaskId }).body), id: 'three' },
        { jsonrpc: '2.0', id: 4, method: 'tools/list' },
      ]),
    },
    {
      label: 'a 2025-03-26 batch of notifications only',
      fast: false,
      headers: { Accept: BOTH, 'MCP-Protocol-Version': '2025-03-26' },
      body: JSON.stringify([{ jsonrpc: '2.0', method: 'notifications/initialized' }]),
    },
    {
      label: 'a 2025-03-26 batch, Accept JSON only',
      fast: false,
      headers: { Accept: 'application/json', 'MCP-Protocol-Version': '2025-03-26' },
      body: JSON.stringify([JSON.parse(legacy('list_tasks', {}).body)]),
    },
    {
      label: 'tools/list',
      fast: false,
      headers: { Accept: BOTH, 'MCP-Protocol-Version': '2025-11-25' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/list' }),
    },
    {
      label: 'a JSON-RPC version other than 2.0',
      fast: false,
      ...withBody(legacy('list_tasks', {}), (b) => b.replace('"2.0"', '"1.0"')),
    },
  ];

  test('each case: taken or left as expected, and the same answer both ways', async () => {
    for (const { label, fast, normalise, ...sent } of cases()) await compare(label, sent, fast, normalise);
  });

  test('the answers are what the clients expect: JSON on 2026-07-28, one event on 2025 revisions', async () => {
    const json = await compare('modern list_tasks', modern('list_tasks', { limit: 5 }), true);
    assert.equal(json.status, 200);
    assert.ok(json.headers.includes('content-type: application/json'));
    const answer = JSON.parse(json.body);
    assert.equal(answer.id, 1);
    assert.equal(answer.result.resultType, 'complete');
    // A line about the tasks, then the tasks once, as JSON text.
    assert.equal(answer.result.structuredContent, undefined);
    assert.deepEqual(answer.result.content[0], { type: 'text', text: '2 tasks.' });
    assert.equal(JSON.parse(answer.result.content[1].text).tasks.length, 2);

    const event = await compare('legacy list_tasks', legacy('list_tasks', { limit: 5 }), true);
    assert.ok(event.headers.includes('content-type: text/event-stream'));
    assert.ok(event.headers.includes('Cache-Control: no-store'), 'the service keeps answers out of caches');
    assert.match(event.body, /^event: message\ndata: \{.*\}\n\n$/);
  });

  test('a call that creates: the same answer bar the new id and times', async () => {
    const normalise = (text: string) =>
      text
        .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '<id>')
        .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z/g, '<time>');
    await compare('modern create_task', modern('create_task', { title: 'Oil the hinges', priority: 'high' }), true, normalise);
    await compare('legacy create_task', legacy('create_task', { title: 'Oil the hinges', priority: 'high' }), true, normalise);
    const titles = (await svc.http.get('/mind/tasks?limit=50').set(auth).expect(200)).body.tasks.map((t: { title: string }) => t.title);
    assert.equal(titles.filter((title: string) => title === 'Oil the hinges').length, 4, 'each call made one task');
  });

  test('a call that answers nothing (delete_memory) and one that answers an image (screenshot)', async () => {
    for (const call of [modern, legacy]) {
      const [first, second] = await Promise.all(
        ['Plays the cello', 'Plays the piano'].map(
          async (content) =>
            (await svc.http.post('/memory').set(auth).send({ category: 'preference', content }).expect(201)).body.id as string,
        ),
      );
      assert.equal(takenFast(call('delete_memory', { memory_id: first })), true);
      const byFast = await send(asServed, call('delete_memory', { memory_id: first }));
      const bySdk = await send(sdkOnly, call('delete_memory', { memory_id: second }));
      assert.deepEqual(byFast, bySdk);
      assert.match(byFast.body, /"text":"Done: /);
      await svc.http.get(`/memory/${first}`).set(auth).expect(404);
      await svc.http.get(`/memory/${second}`).set(auth).expect(404);
    }

    const { computerId, token } = await registerComputer(svc, mindKey);
    const screenshot = async (port: number, sent: Sent) => {
      const answer = send(port, sent);
      let command: { command_id: string; type: string } | undefined;
      for (let i = 0; i < 5 && !command; i++) command = (await poll(svc, token, 5)).find((c) => c.type === 'screenshot');
      assert.ok(command, 'the agent got the screenshot command');
      await postResult(svc, token, command.command_id, {
        status: 'done',
        result: { screenshot_b64: PNG_1X1.toString('base64'), width: 1, height: 1 },
      });
      return answer;
    };
    for (const call of [modern, legacy]) {
      const sent = call('screenshot', { computer_id: computerId });
      assert.equal(takenFast(sent), true);
      const byFast = await screenshot(asServed, sent);
      const bySdk = await screenshot(sdkOnly, sent);
      assert.deepEqual(byFast, bySdk);
      assert.match(byFast.body, /"type":"image","data":"[^"]+","mimeType":"image\/png"/);
    }
  });
});

function withId(sent: Sent, id: string): Sent {
  return withBody(sent, (body) => body.replace('"id":1,', `"id":${JSON.stringify(id)},`));
}

function withBody(sent: Sent, change: (body: string) => string): Sent {
  return { ...sent, body: change(sent.body) };
}

function withoutCapabilities() {
  const { 'io.modelcontextprotocol/clientCapabilities': _capabilities, ...rest } = ENVELOPE;
  return rest;
}
