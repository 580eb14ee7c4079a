// Computers from both sides against a live service: the user-side resource and the AgentClient.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { AgentClient, ConflictError, type MindClient, UnauthorizedError } from '../src/index.js';
import { startLiveServer, type LiveServer } from './live-server.js';

/** A 1x1 PNG. */
const PNG_B64 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
const SYSTEM = { platform: 'linux', platform_release: '6.1.0', python: `node ${process.version}` };

async function registerComputer(live: LiveServer, client: MindClient, name = 'sdk-test-pc') {
  const { install_code } = await client.computers.createInstallCode({ computer_name: name });
  const registered = await AgentClient.register(live.baseUrl, { code: install_code, computer_name: name, ...SYSTEM });
  const agent = new AgentClient({ baseUrl: live.baseUrl, computerToken: registered.computer_token, retryBackoff: { initialDelayMs: 5 } });
  return { ...registered, agent };
}

/** Answers every command like a real agent until the signal aborts. */
async function runFakeAgent(agent: AgentClient, signal: AbortSignal, seen: Array<{ type: string; payload: unknown }> = []) {
  for await (const command of agent.commands({ wait: 5, signal })) {
    seen.push({ type: command.type, payload: command.payload });
    const result = command.type === 'screenshot' ? { screenshot_b64: PNG_B64, width: 1, height: 1 } : { ok: true, echoed: command.payload };
    await agent.postResult(command.command_id, { status: 'done', result });
  }
}

describe('computers and the agent client', () => {
  let live: LiveServer;
  before(async () => {
    live = await startLiveServer();
  });
  after(() => live.stop());

  it('screenshot(id, {max_width, max_height}) asks the agent for that size; screenshot(id, options) works as before', async () => {
    const { client } = await live.account();
    const { computer_id, agent } = await registerComputer(live, client);
    const controller = new AbortController();
    const seen: Array<{ type: string; payload: unknown }> = [];
    const agentLoop = runFakeAgent(agent, controller.signal, seen);
    try {
      await client.computers.screenshot(computer_id, { max_width: 1280, max_height: 800 });
      await client.computers.screenshot(computer_id, { timeout: 60_000 });
      await client.computers.screenshot(computer_id, { max_width: 1024 }, { timeout: 60_000 });
      assert.deepEqual(seen, [
        { type: 'screenshot', payload: { max_width: 1280, max_height: 800 } },
        { type: 'screenshot', payload: {} },
        { type: 'screenshot', payload: { max_width: 1024 } },
      ]);
    } finally {
      controller.abort();
      await agentLoop.catch(() => undefined);
    }
  });

  it('registers with an install code; the computer is listed and readable', async () => {
    const { client } = await live.account();
    const { computer_id, computer_token, agent } = await registerComputer(live, client, 'office-pc');
    assert.match(computer_token, /^ct_/);
    assert.equal(agent.computerToken, computer_token);
    const list = await client.computers.list();
    assert.equal(list.hasNextPage(), false);
    assert.deepEqual(
      list.data.map((c) => c.id),
      [computer_id],
    );
    const computer = await client.computers.get(computer_id);
    assert.equal(computer.computer_name, 'office-pc');
    assert.equal(computer.status, 'active');
  });

  it('an instance register adopts the new token', async () => {
    const { client } = await live.account();
    const { install_code } = await client.computers.createInstallCode({ computer_name: 'pc2' });
    const agent = new AgentClient({ baseUrl: live.baseUrl });
    const registered = await agent.register({ code: install_code, computer_name: 'pc2', ...SYSTEM });
    assert.equal(agent.computerToken, registered.computer_token);
    assert.deepEqual(await agent.poll({ wait: 0 }), []);
  });

  it('queue, poll, post a result, read it back; a second result is ConflictError', async () => {
    const { client } = await live.account();
    const { computer_id, agent } = await registerComputer(live, client);
    const queued = await client.computers.queue(computer_id, { type: 'type', payload: { text: 'hello' } });
    assert.equal(queued.status, 'queued');
    const [polled] = await agent.poll({ wait: 0 });
    assert.equal(polled.command_id, queued.command_id);
    assert.deepEqual(polled.payload, { text: 'hello' });
    const ack = await agent.postResult(polled.command_id, { status: 'done', result: { typed: 5 } });
    assert.deepEqual(ack, { command_id: polled.command_id, status: 'done' });
    const command = await client.computers.getCommand(computer_id, queued.command_id);
    assert.equal(command.status, 'done');
    assert.deepEqual(command.result, { typed: 5 });
    await assert.rejects(agent.postResult(polled.command_id, { status: 'done' }), ConflictError);
    const recent = await client.computers.listCommands(computer_id, { limit: 5 });
    assert.deepEqual(
      recent.data.map((c) => c.command_id),
      [queued.command_id],
    );
  });

  it('run waits for the result; screenshot answers PNG bytes (a fake agent answers through commands())', async () => {
    const { client } = await live.account();
    const { computer_id, agent } = await registerComputer(live, client);
    const controller = new AbortController();
    const agentLoop = runFakeAgent(agent, controller.signal);
    try {
      const click = await client.computers.run(computer_id, { type: 'click', payload: { x: 10, y: 20 } }, { pollIntervalMs: 20 });
      assert.equal(click.status, 'done');
      assert.deepEqual(click.result, { ok: true, echoed: { x: 10, y: 20 } });
      const png = await client.computers.screenshot(computer_id);
      assert.ok(png instanceof Uint8Array);
      assert.deepEqual([...png.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
      // Listed without its bytes; fetched from its own route; every command walked page by page.
      const [shot] = (await client.computers.listCommands(computer_id, { limit: 1 })).data;
      assert.equal(shot?.type, 'screenshot');
      assert.equal(shot?.result?.screenshot_b64, undefined);
      assert.equal(shot?.result?.screenshot?.bytes, png.length);
      assert.deepEqual([...(await client.computers.commandScreenshot(computer_id, shot!.command_id))], [...png]);
      const walked = [];
      for await (const command of client.computers.listCommands(computer_id, { limit: 1 })) walked.push(command.type);
      assert.deepEqual(walked, ['screenshot', 'click']);
    } finally {
      controller.abort();
      await agentLoop;
    }
  });

  it('run with waitForResult: false answers the queued command; cancel it while queued', async () => {
    const { client } = await live.account();
    const { computer_id } = await registerComputer(live, client);
    const command = await client.computers.run(computer_id, { type: 'key', payload: { keys: ['ctrl', 'c'] } }, { waitForResult: false });
    assert.equal(command.status, 'queued');
    const cancelled = await client.computers.cancelCommand(computer_id, command.command_id);
    assert.equal(cancelled.status, 'cancelled');
  });

  it('disable revokes the token: the agent iterator ends with UnauthorizedError; delete removes the computer', async () => {
    const { client } = await live.account();
    const { computer_id, agent } = await registerComputer(live, client);
    const disabled = await client.computers.disable(computer_id);
    assert.equal(disabled.status, 'disabled');
    const iterator = agent.commands({ wait: 0 });
    await assert.rejects(iterator.next(), UnauthorizedError);
    assert.equal(await client.computers.delete(computer_id), undefined, 'a 204: nothing to answer');
    assert.deepEqual((await client.computers.list()).data, []);
  });

  it('the commands iterator ends quietly when its signal aborts mid-poll', async () => {
    const { client } = await live.account();
    const { agent } = await registerComputer(live, client);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const started = Date.now();
    const seen = [];
    for await (const command of agent.commands({ wait: 30, signal: controller.signal })) seen.push(command);
    assert.deepEqual(seen, []);
    assert.ok(Date.now() - started < 5000);
  });
});
