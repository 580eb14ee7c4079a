// A Mind Key is shown once: after that answer no list, export, log line or webhook payload holds it
// (nor its hash). And over MCP a `read` key's write tools are tool errors naming the scope.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import pino from 'pino';
import { bearer, useService } from './harness.js';
import { connectV2, useMcpUrl } from './mcp/clients.js';
import { type Receiver, startReceiver } from './webhooks/receiver.js';

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

describe('Mind Keys: no secret after its one answer', () => {
  const lines: string[] = [];
  const logger = pino({ level: 'trace', base: undefined }, { write: (line: string) => void lines.push(line) });
  const svc = useService({}, { logger });
  const mcpUrl = useMcpUrl(svc);
  let receiver: Receiver;
  before(async () => {
    receiver = await startReceiver();
  });
  after(() => receiver.close());

  test('keys made, used (header, ?key=, MCP), refused and revoked: no list, export, log line or webhook payload holds one', async () => {
    const a = await svc.mind();
    const make = async (body: object) =>
      (await svc.http.post(`/minds/${a.mindId}/keys`).set(bearer(a.jwt)).send(body).expect(201)).body as { id: string; mind_key: string };
    const full = await make({ label: 'agent' });
    const reader = await make({ label: 'reader', scope: 'read' });
    const revoked = await make({ label: 'leaked' });
    const secrets = [a.mindKey, full.mind_key, reader.mind_key, revoked.mind_key];

    await svc.http
      .post('/webhooks')
      .set(a.auth)
      .send({ url: `${receiver.url}/hook`, events: '*', secret: 'whsec-secret' })
      .expect(201);
    await svc.http.post('/mind/task').set(bearer(full.mind_key)).send({ title: 'by the agent' }).expect(201);
    await svc.http.get('/mind/task').query({ key: full.mind_key, title: 'by URL' }).expect(201);
    await svc.http.get('/mind/tasks').query({ key: reader.mind_key }).expect(200);
    await svc.http.get('/mind/task').query({ key: reader.mind_key, title: 'refused' }).expect(403);
    await svc.http.post('/memory').set(bearer(reader.mind_key)).send({ category: 'note', content: 'refused' }).expect(403);
    await svc.http.delete(`/minds/${a.mindId}/keys/${revoked.id}`).set(bearer(a.jwt)).expect(204);
    await svc.http.get('/mind/tasks').set(bearer(revoked.mind_key)).expect(401);
    await svc.http.get('/mind/tasks').query({ key: revoked.mind_key }).expect(401);
    const client = await connectV2(mcpUrl(), reader.mind_key);
    try {
      await client.callTool({ name: 'list_tasks', arguments: {} });
    } finally {
      await client.close();
    }

    const shown = {
      list: (await svc.http.get(`/minds/${a.mindId}/keys`).set(bearer(a.jwt)).expect(200)).text,
      minds: (await svc.http.get('/minds').set(bearer(a.jwt)).expect(200)).text,
      exportByKey: (await svc.http.get('/memory/mind-export').set(bearer(full.mind_key)).expect(200)).text,
      exportByOwner: (
        await svc.http.get('/memory/mind-export').query({ mind_id: a.mindId, include_credentials: 'true' }).set(bearer(a.jwt)).expect(200)
      ).text,
      webhooks: (await receiver.waitFor(2, '/hook')).map((r) => r.raw.toString('utf8')).join('\n'),
      logs: lines.join('\n'),
    };
    assert.ok(shown.logs.includes('"url":"/mind/task?key=[redacted]'), 'the log has the requests');
    for (const [where, text] of Object.entries(shown)) {
      for (const secret of secrets) {
        assert.equal(text.includes(secret), false, `a Mind Key in the ${where}`);
        assert.equal(text.includes(sha256(secret)), false, `a Mind Key's hash in the ${where}`);
      }
    }
    // An export carries no keys: importing it into another mind brings none along.
    const exported = JSON.parse(shown.exportByOwner) as Record<string, unknown>;
    assert.equal('keys' in exported || 'mind_keys' in exported, false);
  });

  test("MCP: a read key's read tools work; its write tools answer a tool error naming the scope and change nothing", async () => {
    const a = await svc.mind();
    const reader = (await svc.http.post(`/minds/${a.mindId}/keys`).set(bearer(a.jwt)).send({ label: 'reader', scope: 'read' }).expect(201))
      .body as { mind_key: string };
    const task = (await svc.http.post('/mind/task').set(a.auth).send({ title: 'stays' }).expect(201)).body as { id: string };
    const client = await connectV2(mcpUrl(), reader.mind_key);
    try {
      const { tools } = await client.listTools();
      for (const [name, args] of [
        ['list_tasks', {}],
        ['get_task', { task_id: task.id }],
        ['recall_memories', {}],
        ['memory_stats', {}],
      ] as const) {
        const res = await client.callTool({ name, arguments: args });
        assert.equal(res.isError, undefined, `${name}: ${JSON.stringify(res.content)}`);
        assert.equal(tools.find((t) => t.name === name)?.annotations?.readOnlyHint, true, `${name} is marked read-only`);
      }
      for (const [name, args] of [
        ['create_task', { title: 'no' }],
        ['complete_task', { task_id: task.id }],
        ['delete_task', { task_id: task.id }],
        ['store_memory', { category: 'note', content: 'no' }],
        ['post_chat_message', { role: 'agent', content: 'no' }],
      ] as const) {
        const res = await client.callTool({ name, arguments: args });
        assert.equal(res.isError, true, name);
        assert.match(res.content[0]?.text ?? '', /scope `read`/, name);
        assert.equal(JSON.parse(res.content[1]?.text ?? '{}').code, 'key_read_only', name);
        assert.equal(tools.find((t) => t.name === name)?.annotations?.readOnlyHint, false, `${name} is not marked read-only`);
      }
    } finally {
      await client.close();
    }
    const still = await svc.http.get(`/mind/task/${task.id}`).set(a.auth).expect(200);
    assert.equal(still.body.status, 'pending');
    assert.equal((await svc.http.get('/mind/tasks').set(a.auth).expect(200)).body.tasks.length, 1);
    assert.equal((await svc.http.get('/memory/stats').set(a.auth).expect(200)).body.total, 0);
    assert.equal((await svc.http.get('/mind/chat').set(a.auth).expect(200)).body.messages.length, 0);
  });
});
