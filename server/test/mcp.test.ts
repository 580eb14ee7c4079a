// /mcp with the official MCP clients over real HTTP: the v1 SDK (2025 revisions, `initialize`) and the
// v2 client pinned to the stateless 2026-07-28 revision. Tools come from the contract; a call runs the
// REST route as the Mind Key's mind, so its effect shows through REST.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { setMindDisabled } from '../src/minds/store.js';
import { registerComputer } from './computers/helpers.js';
import { bearer, startService, useService } from './harness.js';
import { connectV1, connectV2, dataOf, useMcpUrl } from './mcp/clients.js';

const TOOL_NAMES = [
  'store_memory',
  'recall_memories',
  'get_memory',
  'update_memory',
  'delete_memory',
  'memory_stats',
  'memory_history',
  'list_tasks',
  'create_task',
  'get_task',
  'update_task',
  'complete_task',
  'delete_task',
  'post_chat_message',
  'list_chat_messages',
  'search_chat',
  'list_scripts',
  'get_script',
  'create_script',
  'update_script',
  'delete_script',
  'list_computers',
  'queue_command',
  'get_command',
  'screenshot',
];

describe('MCP at /mcp', () => {
  const svc = useService();
  const mcpUrl = useMcpUrl(svc);
  const v1Client = (mindKey: string) => connectV1(mcpUrl(), mindKey);
  const v2Client = (mindKey: string) => connectV2(mcpUrl(), mindKey);

  const generations = [
    { label: 'v1 client (2025 revisions)', connect: v1Client, version: /^2025-(0[6-9]|1[0-2])-\d\d$/ },
    { label: 'v2 client (2026-07-28)', connect: v2Client, version: /^2026-07-28$/ },
  ];

  for (const { label, connect, version } of generations) {
    describe(label, () => {
      test('lists every tool, each named for the LLM APIs, described, with an object input schema', async () => {
        const { mindKey } = await svc.mind();
        const client = await connect(mindKey);
        try {
          assert.match(client.version() ?? '', version);
          const { tools } = await client.listTools();
          assert.deepEqual(tools.map((t) => t.name).sort(), [...TOOL_NAMES].sort());
          for (const tool of tools) {
            assert.match(tool.name, /^[a-zA-Z0-9_-]{1,64}$/);
            assert.ok(tool.description && tool.description.length >= 5, `${tool.name} is described`);
            assert.equal(tool.inputSchema.type, 'object', `${tool.name}: input schema is an object`);
            for (const [name, property] of Object.entries(tool.inputSchema.properties ?? {})) {
              assert.ok(property.description, `${tool.name}.${name} is described`);
            }
            // The data travels as text that every client shows its model, so no tool declares a structured answer.
            assert.equal(tool.outputSchema, undefined, `${tool.name}: no output schema`);
            assert.equal(tool.annotations?.openWorldHint, false);
          }
          const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
          assert.equal(byName.list_tasks?.annotations?.readOnlyHint, true);
          assert.equal(byName.delete_memory?.annotations?.destructiveHint, true);
          assert.equal(byName.complete_task?.annotations?.readOnlyHint, false);
        } finally {
          await client.close();
        }
      });

      test('create_task makes the task REST then reads; list_tasks and complete_task act on it', async () => {
        const { mindKey, auth } = await svc.mind();
        const client = await connect(mindKey);
        try {
          const created = await client.callTool({ name: 'create_task', arguments: { title: 'Water the plants', priority: 'high' } });
          assert.equal(created.isError, undefined);
          const task = dataOf(created) as { id: string; title: string; priority: string };
          assert.equal(task.title, 'Water the plants');
          // A line about it, then the data once, as JSON text; nothing structured beside it.
          assert.deepEqual(created.content[0], { type: 'text', text: `Create a task: id ${task.id}, status pending.` });
          assert.equal(created.content.length, 2);
          assert.equal(created.structuredContent, undefined);
          const rest = await svc.http.get(`/mind/task/${task.id}`).set(auth).expect(200);
          assert.equal(rest.body.priority, 'high');

          const listed = await client.callTool({ name: 'list_tasks', arguments: { limit: 5 } });
          assert.deepEqual(
            (dataOf(listed) as { tasks: Array<{ id: string }> }).tasks.map((t) => t.id),
            [task.id],
          );
          const done = await client.callTool({ name: 'complete_task', arguments: { task_id: task.id } });
          assert.equal((dataOf(done) as { status: string }).status, 'done');
          assert.equal((await svc.http.get(`/mind/task/${task.id}`).set(auth).expect(200)).body.status, 'done');
        } finally {
          await client.close();
        }
      });

      test("invalid input and another mind's ids are tool errors saying what is wrong, and change nothing", async () => {
        const a = await svc.mind();
        const b = await svc.mind();
        const aTask = (await svc.http.post('/mind/task').set(a.auth).send({ title: 'Mine' }).expect(201)).body as { id: string };
        const client = await connect(b.mindKey);
        try {
          const invalid = await client.callTool({ name: 'create_task', arguments: { priority: 'urgent-ish' } });
          assert.equal(invalid.isError, true);
          assert.match(invalid.content[0]?.text ?? '', /title: is required/);
          assert.equal(JSON.parse(invalid.content[1]?.text ?? '').statusCode, 400);
          // The route's complaint names the tool's argument, not the route's path parameter.
          const unnamed = await client.callTool({ name: 'get_task', arguments: {} });
          assert.equal(unnamed.content[0]?.text, 'task_id: is required');
          const none = await svc.http.get('/mind/tasks').set(b.auth).expect(200);
          assert.equal(none.body.tasks.length, 0);

          for (const [name, args] of [
            ['get_task', { task_id: aTask.id }],
            ['update_task', { task_id: aTask.id, title: 'Stolen' }],
            ['delete_task', { task_id: aTask.id }],
          ] as const) {
            const foreign = await client.callTool({ name, arguments: args });
            assert.equal(foreign.isError, true, name);
            assert.match(foreign.content[0]?.text ?? '', /not found/i, name);
            assert.doesNotMatch(JSON.stringify(foreign.content), /Mine/, `${name} reveals nothing`);
          }
          const still = await svc.http.get(`/mind/task/${aTask.id}`).set(a.auth).expect(200);
          assert.equal(still.body.title, 'Mine');
          assert.equal(still.body.status, 'pending');
        } finally {
          await client.close();
        }
      });
    });
  }

  test('memories: store_memory then recall_memories and delete_memory, checked through REST', async () => {
    const { mindKey, auth } = await svc.mind();
    const client = await v2Client(mindKey);
    try {
      const stored = await client.callTool({
        name: 'store_memory',
        arguments: { category: 'preference', content: 'Plays the cello on Sundays', tags: ['music'] },
      });
      const memory = dataOf(stored) as { id: string };
      assert.equal((await svc.http.get(`/memory/${memory.id}`).set(auth).expect(200)).body.content, 'Plays the cello on Sundays');
      const recalled = await client.callTool({ name: 'recall_memories', arguments: { q: 'cello', limit: 3 } });
      assert.equal(recalled.isError, undefined);
      assert.match(JSON.stringify(dataOf(recalled)), new RegExp(memory.id));
      const deleted = await client.callTool({ name: 'delete_memory', arguments: { memory_id: memory.id } });
      assert.equal(deleted.isError, undefined);
      await svc.http.get(`/memory/${memory.id}`).set(auth).expect(404);
    } finally {
      await client.close();
    }
  });

  describe('credentials, before any JSON-RPC is read', () => {
    const initialize = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'curl', version: '1' } },
    };

    test('no key and a wrong key are 401 with the error object and WWW-Authenticate: Bearer', async () => {
      for (const auth of [{}, bearer(`mk_${'0'.repeat(48)}`), { Authorization: 'Basic abc' }]) {
        const res = await svc.http.post('/mcp').set(auth).set('Accept', 'application/json, text/event-stream').send(initialize).expect(401);
        assert.equal(res.body.statusCode, 401);
        assert.equal(typeof res.body.message, 'string');
        assert.match(res.headers['www-authenticate'] ?? '', /^Bearer\b/);
        if (!('Authorization' in auth)) assert.match(res.body.details[0].message, /Authorization: Bearer mk_/);
      }
      // The query form of the Mind Key is not taken here.
      const { mindKey } = await svc.mind();
      await svc.http.post(`/mcp?key=${mindKey}`).set('Accept', 'application/json, text/event-stream').send(initialize).expect(401);
    });

    test("the account's JWT and a Computer Token are the wrong kind of credential here: 401", async () => {
      const { jwt, mindKey } = await svc.mind();
      const { token } = await registerComputer(svc, mindKey);
      for (const credential of [jwt, token]) {
        const res = await svc.http
          .post('/mcp')
          .set(bearer(credential))
          .set('Accept', 'application/json, text/event-stream')
          .send(initialize)
          .expect(401);
        assert.match(res.body.details[0].message, /Mind Key/);
      }
    });

    test('GET and DELETE /mcp (2025 session operations) are 405 for a stateless server, after the credential check', async () => {
      const { auth } = await svc.mind();
      await svc.http.get('/mcp').set('Accept', 'text/event-stream').expect(401);
      await svc.http.get('/mcp').set(auth).set('Accept', 'text/event-stream').expect(405);
      await svc.http.delete('/mcp').set(auth).expect(405);
    });

    test('an unknown tool is a JSON-RPC error naming it; the connection goes on', async () => {
      const { mindKey } = await svc.mind();
      const client = await v2Client(mindKey);
      try {
        await assert.rejects(client.callTool({ name: 'drop_database', arguments: {} }), /Unknown tool drop_database/);
        const listed = await client.callTool({ name: 'list_tasks', arguments: {} });
        assert.notEqual(listed.isError, true);
      } finally {
        await client.close();
      }
    });

    test('the official clients fail to connect without the key', async () => {
      await assert.rejects(v1Client('mk_wrong'));
      await assert.rejects(v2Client('mk_wrong'));
    });

    test("a disabled mind's key is 403; enabled again, it works", async () => {
      const { mindId, mindKey } = await svc.mind();
      await setMindDisabled(svc.ctx.db, mindId, new Date().toISOString());
      const res = await svc.http
        .post('/mcp')
        .set(bearer(mindKey))
        .set('Accept', 'application/json, text/event-stream')
        .send(initialize)
        .expect(403);
      assert.match(res.body.message, /This mind is disabled/);
      await setMindDisabled(svc.ctx.db, mindId, null);
      const client = await v1Client(mindKey);
      await client.close();
    });

    test('a body over the limit is 413 with the error object', async () => {
      const { mindKey } = await svc.mind();
      const big = { ...initialize, params: { ...initialize.params, padding: 'x'.repeat(1024 * 1024 + 10) } };
      const res = await svc.http.post('/mcp').set(bearer(mindKey)).set('Accept', 'application/json, text/event-stream').send(big);
      assert.equal(res.status, 413);
      assert.equal(res.body.statusCode, 413);
    });
  });

  test('while the service drains, /mcp answers 503 like every route', async () => {
    const draining = await startService();
    try {
      const { auth } = await draining.mind();
      draining.ctx.state = 'draining';
      const res = await draining.http.post('/mcp').set(auth).set('Accept', 'application/json, text/event-stream').send({});
      assert.equal(res.status, 503);
      assert.equal(res.headers['retry-after'], '5');
    } finally {
      await draining.stop();
    }
  });
});
