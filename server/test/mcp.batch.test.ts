// JSON-RPC batches on /mcp: refused under the revisions that removed them (nothing in them runs);
// under 2025-03-26 run one call at a time, in order, under one bound on the answer's bytes (the calls
// past it get a 413-like JSON-RPC error) and one on waiting, each call on its own log line.
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { describe, test } from 'node:test';
import pino from 'pino';
import { registerComputer } from './computers/helpers.js';
import { useService } from './harness.js';
import { ACCEPT, postMcp, resultData, toolCall } from './mcp/batches.js';
import { useMcpUrl } from './mcp/clients.js';

const LIMIT = 64 * 1024;

interface LogLine {
  msg: string;
  req_id?: string;
  tool?: string;
  batch_call?: number;
  is_error?: boolean;
  left_out?: boolean;
  batch?: number;
  ms: number;
}

describe('MCP batches', () => {
  const lines: LogLine[] = [];
  const logger = pino({ level: 'info', base: undefined }, { write: (line: string) => void lines.push(JSON.parse(line)) });
  const svc = useService({ MIND_MCP_MAX_ANSWER_BYTES: String(LIMIT), MIND_MCP_BATCH_WAIT: '2s' }, { logger });
  const mcpUrl = useMcpUrl(svc);
  const tasksOf = async (auth: Record<string, string>) =>
    (await svc.http.get('/mind/tasks?status=all').set(auth).expect(200)).body.tasks as Array<{ title: string; created_at: string }>;

  for (const revision of ['2025-06-18', '2025-11-25', '2026-07-28']) {
    test(`under ${revision} a batch is refused and none of its calls runs`, async () => {
      const { mindKey, auth } = await svc.mind();
      const batch = ['one', 'two', 'three'].map((title) => toolCall('create_task', { title }));
      const answer = await postMcp(mcpUrl(), mindKey, batch, revision);
      assert.equal(answer.status, 400);
      assert.equal(answer.messages.length, 1);
      const [refusal] = answer.messages;
      assert.equal(refusal?.id, null);
      assert.equal(refusal?.error?.code, -32600);
      assert.match(refusal?.error?.message ?? '', new RegExp(`batches are not part of MCP revision ${revision}`));
      assert.deepEqual(await tasksOf(auth), []);
    });
  }

  test('a 2025-03-26 batch runs its calls in order, each answered with its id; over the count bound it is refused', async () => {
    const { mindKey, auth } = await svc.mind();
    const batch = [toolCall('create_task', { title: 'first' }), toolCall('create_task', { title: 'second' }), toolCall('list_tasks')];
    const answer = await postMcp(mcpUrl(), mindKey, batch, '2025-03-26');
    assert.equal(answer.status, 200);
    assert.deepEqual(
      answer.messages.map((m) => m.id),
      batch.map((m) => m.id),
    );
    const listed = resultData(answer.messages[2]) as { tasks: Array<{ title: string }> };
    assert.deepEqual(listed.tasks.map((t) => t.title).sort(), ['first', 'second'], 'list_tasks ran after both creations');
    // Without the header a server assumes 2025-03-26: batches run there too.
    const unnamed = await postMcp(mcpUrl(), mindKey, [toolCall('list_tasks')]);
    assert.equal(unnamed.status, 200);

    const flood = Array.from({ length: 21 }, () => toolCall('create_task', { title: 'flood' }));
    const refused = await postMcp(mcpUrl(), mindKey, flood, '2025-03-26');
    assert.equal(refused.status, 400);
    assert.match(refused.messages[0]?.error?.message ?? '', /at most 20 messages, this one 21: split it/);
    assert.equal((await tasksOf(auth)).length, 2);
  });

  test('calls run one at a time: a call that waits holds back the next, and each call has its log line', async () => {
    const mind = await svc.mind();
    const { computerId } = await registerComputer(svc, mind.mindKey);
    const started = Date.now();
    const batch = [
      toolCall('queue_command', { computer_id: computerId, type: 'move', payload: { x: 1, y: 1 }, wait: 1 }),
      toolCall('create_task', { title: 'after the wait' }),
    ];
    const answer = await postMcp(mcpUrl(), mind.mindKey, batch, '2025-03-26');
    assert.equal(answer.status, 200);
    const [task] = await tasksOf(mind.auth);
    const createdAfter = Date.parse(task!.created_at) - started;
    assert.ok(createdAfter >= 900, `the task was created ${createdAfter} ms after the batch began, after the 1 s wait`);

    const calls = lines.filter((l) => l.msg === 'mcp batch call' && l.req_id === answer.requestId);
    assert.deepEqual(
      calls.map((l) => [l.batch_call, l.tool, l.is_error]),
      [
        [0, 'queue_command', false],
        [1, 'create_task', false],
      ],
    );
    assert.ok(calls[0]!.ms >= 900, `queue_command waited ${calls[0]!.ms} ms`);
    const request = lines.find((l) => l.msg === 'request' && l.req_id === answer.requestId)!;
    assert.equal(request.batch, 2);
  });

  test('a single call has one log line, naming its tool and whether it failed', async () => {
    const { mindKey } = await svc.mind();
    const ok = await postMcp(mcpUrl(), mindKey, toolCall('list_tasks'), '2025-11-25');
    const failed = await postMcp(mcpUrl(), mindKey, toolCall('get_task', { task_id: 'nope' }), '2025-11-25');
    for (const [answer, isError] of [
      [ok, false],
      [failed, true],
    ] as const) {
      const mine = lines.filter((l) => l.req_id === answer.requestId);
      assert.deepEqual(
        mine.map((l) => [l.msg, l.tool, l.is_error]),
        [['request', answer === ok ? 'list_tasks' : 'get_task', isError]],
      );
    }
  });

  test('waiting is bounded for the whole batch: waits past the budget are cut short', async () => {
    const mind = await svc.mind();
    const { computerId } = await registerComputer(svc, mind.mindKey);
    const batch = [1, 2, 3].map(() =>
      toolCall('queue_command', { computer_id: computerId, type: 'move', payload: { x: 1, y: 1 }, wait: 2 }),
    );
    const started = Date.now();
    const answer = await postMcp(mcpUrl(), mind.mindKey, batch, '2025-03-26');
    const elapsed = Date.now() - started;
    assert.equal(answer.status, 200);
    assert.equal(answer.messages.length, 3);
    // Three waits of 2 s one after the other would take 6 s; the batch may wait 2 s in all.
    assert.ok(elapsed < 4500, `the batch took ${elapsed} ms`);
    const calls = lines.filter((l) => l.msg === 'mcp batch call' && l.req_id === answer.requestId);
    assert.equal(calls.length, 3);
    const waited = calls.reduce((sum, l) => sum + l.ms, 0);
    assert.ok(waited < 3500, `the calls took ${waited} ms together`);
  });

  test('past the answer bound the rest of the batch gets a 413-like JSON-RPC error; a single call past it is a tool error', async () => {
    const { mindKey, auth } = await svc.mind();
    const content = 'x'.repeat(24_000);
    const script = (await svc.http.post('/mind/scripts').set(auth).send({ name: 'big', content }).expect(201)).body as { id: string };
    const batch = [1, 2, 3, 4].map(() => toolCall('get_script', { script_id: script.id }));
    const answer = await postMcp(mcpUrl(), mindKey, batch, '2025-03-26');
    assert.equal(answer.status, 200);
    assert.ok(answer.bytes < LIMIT + 4096, `the answer is ${answer.bytes} bytes`);
    const [first, second, third, fourth] = answer.messages;
    assert.equal(resultData(first)?.content, content);
    assert.equal(resultData(second)?.content, content);
    for (const [message, ran] of [
      [third, true],
      [fourth, false],
    ] as const) {
      assert.equal(message?.error?.code, -32000);
      const data = (message?.error?.data ?? {}) as { statusCode?: number; limit_bytes?: number; ran?: boolean };
      assert.deepEqual([data.statusCode, data.limit_bytes, data.ran], [413, LIMIT, ran]);
      assert.match(message?.error?.message ?? '', /bound of 65536 bytes \(MIND_MCP_MAX_ANSWER_BYTES\)/);
    }
    assert.deepEqual(
      answer.messages.map((m) => m.id),
      batch.map((m) => m.id),
    );

    const big = (
      await svc.http
        .post('/mind/scripts')
        .set(auth)
        .send({ name: 'bigger', content: 'y'.repeat(70_000) })
        .expect(201)
    ).body as { id: string };
    const single = await postMcp(mcpUrl(), mindKey, toolCall('get_script', { script_id: big.id }), '2025-06-18');
    assert.equal(single.status, 200);
    const result = single.messages[0]?.result as unknown as { isError: boolean; content: Array<{ text: string }> };
    assert.equal(result.isError, true);
    assert.match(result.content[0]!.text, /more than the 65536 bytes one MCP answer may hold \(MIND_MCP_MAX_ANSWER_BYTES\): ask for less/);
  });

  test('a batch of notifications only is accepted with 202; malformed batches are refused whole', async () => {
    const { mindKey, auth } = await svc.mind();
    const notified = await postMcp(mcpUrl(), mindKey, [{ jsonrpc: '2.0', method: 'notifications/initialized' }], '2025-03-26');
    assert.equal(notified.status, 202);
    for (const body of [[], [[toolCall('create_task', { title: 'nested' })]], [toolCall('create_task', { title: 'x' }), 7]]) {
      const answer = await postMcp(mcpUrl(), mindKey, body, '2025-03-26');
      assert.equal(answer.status, 400, JSON.stringify(body));
      assert.equal(answer.messages[0]?.error?.code, -32600);
    }
    const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-03-26', capabilities: {} } };
    const withInitialize = await postMcp(mcpUrl(), mindKey, [initialize, toolCall('create_task', { title: 'x' })], '2025-03-26');
    assert.equal(withInitialize.status, 400);
    for (const host of ['a b', 'x:99999']) {
      const status = await new Promise<number>((done, fail) => {
        const url = mcpUrl();
        const headers = { host, authorization: `Bearer ${mindKey}`, 'content-type': 'application/json', accept: ACCEPT };
        const req = request({ host: url.hostname, port: url.port, path: '/mcp', method: 'POST', headers }, (res) => {
          res.resume();
          done(res.statusCode ?? 0);
        });
        req.on('error', fail);
        req.end(JSON.stringify([toolCall('create_task', { title: 'bad host' })]));
      });
      assert.equal(status, 400, `Host: ${host}`);
    }
    assert.deepEqual(await tasksOf(auth), []);
  });
});

describe('MCP answers with the default bound', () => {
  const svc = useService();
  const mcpUrl = useMcpUrl(svc);

  test('a script of 1,000,000 characters comes whole in one get_script, its content once, not twice', async (t) => {
    const { mindKey, auth } = await svc.mind();
    const content = 'z'.repeat(1_000_000);
    const script = (await svc.http.post('/mind/scripts').set(auth).send({ name: 'huge', content }).expect(201)).body as { id: string };
    for (const revision of ['2025-11-25', '2025-03-26']) {
      const body =
        revision === '2025-03-26' ? [toolCall('get_script', { script_id: script.id })] : toolCall('get_script', { script_id: script.id });
      const answer = await postMcp(mcpUrl(), mindKey, body, revision);
      t.diagnostic(`${revision}: ${answer.bytes} bytes`);
      assert.equal(answer.status, 200);
      assert.equal(resultData(answer.messages[0])?.content, content);
      assert.ok(answer.bytes < 1_010_000, `${revision}: the answer is ${answer.bytes} bytes for 1,000,000 characters`);
    }
  });
});
