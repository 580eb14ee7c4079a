// A tool call has the effects of its REST route: the same events and webhooks. queue_command's `wait`
// answers the finished command.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { poll, postResult, registerComputer } from './computers/helpers.js';
import { useService } from './harness.js';
import { connectV1, dataOf, useMcpUrl } from './mcp/clients.js';
import { createWebhook, FAST_RETRIES } from './webhooks/helpers.js';
import { type Receiver, startReceiver } from './webhooks/receiver.js';

describe('MCP tool calls and their effects', () => {
  const svc = useService(FAST_RETRIES);
  const mcpUrl = useMcpUrl(svc);
  let receiver: Receiver;

  before(async () => {
    receiver = await startReceiver();
  });
  after(() => receiver.close());

  async function connect(mindKey: string) {
    const client = await connectV1(mcpUrl(), mindKey);
    return {
      call: (name: string, args: Record<string, unknown>) => client.callTool({ name, arguments: args }),
      close: () => client.close(),
    };
  }

  test('create_task and complete_task fire the webhooks the REST routes fire', async () => {
    const { mindKey, mindId } = await svc.mind();
    await createWebhook(svc, mindKey, { url: `${receiver.url}/mcp-tasks`, events: 'task.created,task.completed' });
    const client = await connect(mindKey);
    try {
      const created = await client.call('create_task', { title: 'Sent through MCP' });
      const taskId = (dataOf(created) as { id: string }).id;
      await client.call('complete_task', { task_id: taskId });
      const received = await receiver.waitFor(2, '/mcp-tasks', 5000);
      assert.deepEqual(received.map((r) => r.json.event).sort(), ['task.completed', 'task.created']);
      for (const r of received) {
        assert.equal(r.json.mind_id, mindId);
        assert.equal(
          (r.json.data as { id?: string; task?: { id: string } }).id ?? (r.json.data as { task?: { id: string } }).task?.id,
          taskId,
        );
      }
    } finally {
      await client.close();
    }
  });

  test('queue_command with `wait` answers the command once the agent finished it', async () => {
    const { mindKey } = await svc.mind();
    const { computerId, token } = await registerComputer(svc, mindKey);
    const client = await connect(mindKey);
    try {
      const answer = client.call('queue_command', { computer_id: computerId, type: 'click', payload: { x: 5, y: 6 }, wait: 20 });
      let command: { command_id: string } | undefined;
      for (let i = 0; i < 5 && !command; i++) command = (await poll(svc, token, 5))[0];
      assert.ok(command, 'the agent got the click');
      await postResult(svc, token, command.command_id, { status: 'done', result: { ok: true, duration_ms: 4 } });
      const result = await answer;
      assert.notEqual(result.isError, true, result.content[0]?.text);
      const finished = dataOf(result) as { command_id: string; status: string; result: unknown };
      assert.equal(finished.command_id, command.command_id);
      assert.equal(finished.status, 'done');
      assert.deepEqual(finished.result, { ok: true, duration_ms: 4 });

      // Without `wait`, the tool answers as soon as the command is queued.
      const queued = await client.call('queue_command', { computer_id: computerId, type: 'move', payload: { x: 1, y: 1 } });
      assert.equal((dataOf(queued) as { status: string }).status, 'queued');
    } finally {
      await client.close();
    }
  });

  test('a `wait` outside 0..30 seconds is a tool error and queues nothing', async () => {
    const { mindKey, auth } = await svc.mind();
    const { computerId } = await registerComputer(svc, mindKey);
    const client = await connect(mindKey);
    try {
      for (const wait of [31, -1, 2.5, '5']) {
        const result = await client.call('queue_command', { computer_id: computerId, type: 'move', payload: { x: 1, y: 1 }, wait });
        assert.equal(result.isError, true, String(wait));
        assert.match(result.content[0]?.text ?? '', /wait: must be a whole number of seconds from 0 to 30/);
      }
      const commands = await svc.http.get(`/computers/${computerId}/commands`).set(auth).expect(200);
      assert.equal(commands.body.commands.length, 0);
    } finally {
      await client.close();
    }
  });
});
