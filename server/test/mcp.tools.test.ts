// Every MCP tool called once through an official client over real HTTP, its effect checked through
// REST; `screenshot` with a simulated agent answers MCP image content; every tool schema is valid
// JSON Schema 2020-12 with an object at the top.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import Ajv2020Module from 'ajv/dist/2020.js';
import { buildTools } from '../src/mcp/tools.js';
import { PNG_1X1, poll, postResult, registerComputer } from './computers/helpers.js';
import { useService } from './harness.js';
import { connectV1, connectV2, dataOf, type McpClient, useMcpUrl } from './mcp/clients.js';

const Ajv2020 = ((Ajv2020Module as unknown as { default?: unknown }).default ?? Ajv2020Module) as typeof Ajv2020Module;

describe('MCP tools, each called once', () => {
  const svc = useService();
  const mcpUrl = useMcpUrl(svc);
  const clients: Array<[string, (key: string) => Promise<McpClient>]> = [
    ['v1 client', (key) => connectV1(mcpUrl(), key)],
    ['v2 client', (key) => connectV2(mcpUrl(), key)],
  ];

  for (const [label, connect] of clients) {
    test(`${label}: every tool does what its REST route does`, async () => {
      const { mindKey, auth } = await svc.mind();
      const { computerId, token } = await registerComputer(svc, mindKey);
      const client = await connect(mindKey);
      const called = new Set<string>();
      const call = async (name: string, args: Record<string, unknown> = {}) => {
        called.add(name);
        const result = await client.callTool({ name, arguments: args });
        assert.notEqual(result.isError, true, `${name}: ${result.content[0]?.text}`);
        // A delete answers a line alone (`Done: ...`), no data.
        return (result.content.length === 1 ? {} : dataOf(result)) as Record<string, unknown> & { id: string };
      };
      const get = async (path: string, status = 200) => (await svc.http.get(path).set(auth).expect(status)).body;
      try {
        // Memories.
        const memory = await call('store_memory', { category: 'fact', content: 'The studio is on the third floor', tags: ['place'] });
        assert.equal((await get(`/memory/${memory.id}`)).content, 'The studio is on the third floor');
        assert.equal((await call('get_memory', { memory_id: memory.id })).id, memory.id);
        assert.match(JSON.stringify(await call('recall_memories', { q: 'studio', limit: 5 })), new RegExp(memory.id));
        await call('update_memory', { memory_id: memory.id, content: 'The studio is on the fourth floor' });
        assert.equal((await get(`/memory/${memory.id}`)).content, 'The studio is on the fourth floor');
        assert.deepEqual(await call('memory_history', { memory_id: memory.id }), await get(`/memory/${memory.id}/history`));
        assert.equal((await call('memory_stats')).total, (await get('/memory/stats')).total);
        await call('delete_memory', { memory_id: memory.id });
        await get(`/memory/${memory.id}`, 404);

        // Tasks.
        const task = await call('create_task', { title: 'Tune the piano' });
        assert.equal((await get(`/mind/task/${task.id}`)).title, 'Tune the piano');
        assert.equal((await call('get_task', { task_id: task.id })).title, 'Tune the piano');
        await call('update_task', { task_id: task.id, priority: 'critical' });
        assert.equal((await get(`/mind/task/${task.id}`)).priority, 'critical');
        assert.equal(((await call('list_tasks', { status: 'pending' })).tasks as unknown[]).length, 1);
        await call('complete_task', { task_id: task.id });
        assert.equal((await get(`/mind/task/${task.id}`)).status, 'done');
        await call('delete_task', { task_id: task.id });
        await get(`/mind/task/${task.id}`, 404);

        // Chat.
        const message = await call('post_chat_message', { role: 'agent', content: 'Piano tuned.', thread: 'music' });
        assert.equal((await get('/mind/chat?thread=music')).messages[0].id, message.id);
        assert.equal(((await call('list_chat_messages', { thread: 'music', limit: 10 })).messages as unknown[]).length, 1);
        assert.deepEqual(
          ((await call('search_chat', { q: 'piano', thread: 'music' })).messages as Array<{ id: string }>).map((m) => m.id),
          [message.id],
        );

        // Scripts.
        const script = await call('create_script', { name: 'tune', language: 'python', content: 'print("A4 = 440 Hz")' });
        assert.equal((await get(`/mind/scripts/${script.id}`)).name, 'tune');
        assert.equal((await call('get_script', { script_id: script.id })).name, 'tune');
        await call('update_script', { script_id: script.id, content: 'print("A4 = 442 Hz")' });
        assert.equal((await get(`/mind/scripts/${script.id}`)).content, 'print("A4 = 442 Hz")');
        assert.equal(((await call('list_scripts', { limit: 10 })).scripts as unknown[]).length, 1);
        await call('delete_script', { script_id: script.id });
        await get(`/mind/scripts/${script.id}`, 404);

        // Computers.
        const computers = (await call('list_computers')).computers as Array<{ id: string }>;
        assert.deepEqual(
          computers.map((c) => c.id),
          [computerId],
        );
        const queued = await call('queue_command', { computer_id: computerId, type: 'move', payload: { x: 10, y: 20 } });
        const commandId = queued.command_id as string;
        assert.equal((await get(`/computers/${computerId}/commands/${commandId}`)).type, 'move');
        assert.equal((await call('get_command', { computer_id: computerId, command_id: commandId })).status, 'queued');

        // The screenshot waits for the agent; the simulated agent polls and answers a PNG.
        called.add('screenshot');
        const shot = client.callTool({ name: 'screenshot', arguments: { computer_id: computerId } });
        let screenshotCommand: { command_id: string; type: string } | undefined;
        for (let i = 0; i < 5 && !screenshotCommand; i++)
          screenshotCommand = (await poll(svc, token, 5)).find((c) => c.type === 'screenshot');
        assert.ok(screenshotCommand, 'the agent got the screenshot command');
        await postResult(svc, token, screenshotCommand.command_id, {
          status: 'done',
          result: { screenshot_b64: PNG_1X1.toString('base64'), width: 1, height: 1 },
        });
        const image = await shot;
        assert.notEqual(image.isError, true, image.content[0]?.text);
        assert.deepEqual(image.content[1], { type: 'image', mimeType: 'image/png', data: PNG_1X1.toString('base64') });
        // The computer reported no screen at registration: the line says so, with the PNG's own size.
        assert.match(image.content[0]?.text ?? '', /^Screenshot: width 1, height 1; the computer has not reported its screen size/);
      } finally {
        await client.close();
      }
      assert.deepEqual(
        [...called].sort(),
        buildTools()
          .map((t) => t.definition.name)
          .sort(),
        'every tool was called',
      );
    });
  }

  test('every input and output schema compiles as JSON Schema 2020-12 (strict), with an object at the top', () => {
    const ajv = new Ajv2020({ strict: true, strictTypes: false, strictRequired: false });
    for (const { definition } of buildTools()) {
      for (const schema of [definition.inputSchema]) {
        assert.equal(schema.type, 'object', definition.name);
        assert.doesNotThrow(() => ajv.compile(schema), definition.name);
      }
    }
  });
});
