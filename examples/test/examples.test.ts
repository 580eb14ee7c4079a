// Every example runs, with the command the README gives, against a live service and succeeds.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { startService, type TestService } from '../../server/test/harness.js';

const run = promisify(execFile);
const root = resolve(import.meta.dirname, '../..');

describe('examples', { timeout: 180_000 }, () => {
  let service: TestService;
  let server: Server;
  let baseUrl: string;

  before(async () => {
    service = await startService();
    server = createServer(service.app).listen(0, '127.0.0.1');
    await new Promise<void>((r) => server.once('listening', () => r()));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(async () => {
    server.closeAllConnections();
    await new Promise<void>((r) => server.close(() => r()));
    await service.stop();
  });

  async function example(name: string, env: Record<string, string> = {}) {
    try {
      const { stdout } = await run('pnpm', ['--silent', '--filter', '@mindservice/examples', name], {
        cwd: root,
        env: { ...process.env, MIND_URL: baseUrl, ...env },
        timeout: 120_000,
      });
      return stdout;
    } catch (err) {
      const e = err as { stdout?: string; stderr?: string; message: string };
      assert.fail(`${name} failed: ${e.message}\n${e.stdout ?? ''}\n${e.stderr ?? ''}`);
    }
  }

  it('quickstart: registers, creates a mind, a task and a memory', async () => {
    const out = await example('quickstart');
    assert.match(out, /task "Summarise the three papers" is in_progress/);
    assert.match(out, /recalled: "Prefers short sentences and British spelling\."/);
    assert.match(out, /task done at \d{4}-/);
    assert.match(out, /quickstart finished\s*$/);
  });

  it('computer-loop: screenshot, click, result, screenshot (with the fake agent)', async () => {
    const out = await example('computer-loop');
    assert.match(out, /started a fake in-process agent/);
    assert.match(out, /screenshot 320x200, \d+ bytes/);
    assert.match(out, /click done: \{"ok":true,"x":160,"y":100\}/);
    assert.match(out, /changed: true/);
    assert.match(out, /recent commands: screenshot:done, click:done, screenshot:done/);
    assert.match(out, /computer loop finished\s*$/);
  });

  it('computer-loop with MIND_KEY of a mind that has no computer online still runs', async () => {
    const { mindKey } = await service.mind();
    const out = await example('computer-loop', { MIND_KEY: mindKey });
    assert.doesNotMatch(out, /^account /m, 'no new account is created when MIND_KEY is given');
    assert.match(out, /computer loop finished/);
  });

  it('computer-use-loop: replayed Claude and OpenAI tool calls drive the fake agent, scaled 1280x800 <-> 2560x1600', async () => {
    const out = await example('computer-use-loop');
    assert.match(out, /display 1280x800 for the 2560x1600 screen/);
    assert.match(
      out,
      /anthropic tool \{"type":"computer_20251124","name":"computer","display_width_px":1280,"display_height_px":800,"enable_zoom":true\}/,
    );
    assert.match(out, /anthropic screenshot \{\} -> screenshot \{"max_width":1280,"max_height":800\} -> tool_result: image 1280x800\n/);
    assert.match(
      out,
      /anthropic left_click \{"coordinate":\[640,400\]\} -> click \{"x":1280,"y":800,"button":"left"\} -> tool_result: text "click done" \+ image 1280x800/,
    );
    assert.match(out, /anthropic cursor_position \{\} -> cursor_position \{\} -> tool_result: text "X=640,Y=400"\n/);
    assert.match(out, /anthropic key \{"text":"ctrl\+s"\} -> key \{"keys":\["ctrl","s"\]\}/);
    assert.match(out, /-> scroll \{"deltaX":0,"deltaY":300,"x":1280,"y":800\}/);
    assert.match(out, /-> drag \{"fromX":200,"fromY":200,"toX":800,"toY":600,"button":"left"\}/);
    assert.match(
      out,
      /-> zoom \{"x":1080,"y":700,"width":400,"height":200,"max_width":1280,"max_height":800\} -> tool_result: image 1280x640\n/,
    );
    assert.match(
      out,
      /-> wait \{"duration_ms":1000,"screenshot":true,"max_width":1280,"max_height":800\} -> tool_result: image 1280x800\n/,
    );
    assert.match(out, /claude: I pressed the button/);
    assert.match(out, /openai click \{"button":"left","x":640,"y":400\} -> click \{"x":1280,"y":800,"button":"left"\} -> done/);
    assert.match(out, /openai keypress \{"keys":\["CTRL","ENTER"\]\} -> key \{"keys":\["ctrl","Return"\]\} -> done/);
    assert.match(out, /openai scroll .* -> scroll \{"deltaX":0,"deltaY":800,"x":1280,"y":800\} -> done/);
    assert.match(out, /computer_call_output call_3: screenshot 1280x800\n/);
    assert.match(out, /computer_call_output call_5: screenshot 1280x800, 1 safety check acknowledged/);
    assert.match(out, /openai: Done/);
    assert.match(out, /fake agent: 2 clicks on the button/);
    assert.match(out, /computer use loop finished\s*$/);
  });

  it('claude-memory-tool: replayed memory tool calls on a mind, each answered, the file found by recall', async () => {
    const out = await example('claude-memory-tool');
    assert.match(out, /-> File created successfully at: \/memories\/preferences\/writing\.md\n/);
    assert.match(out, /conversation 2, user: Write the weekly report\./);
    assert.match(out, /4K\t\/memories\n4K\t\/memories\/preferences\/\n88B\t\/memories\/preferences\/writing\.md\n/);
    assert.match(out, / {5}2\tLearned 2026-11-29\.\n {5}3\t- British spelling\n/);
    assert.match(out, /-> error: The path \/memories\/notes\.md does not exist\. Please provide a valid path\.\n/);
    assert.match(out, /recall "British spelling": \/memories\/style\/writing\.md \(note, tags memory-tool\)/);
    assert.match(out, /claude memory tool finished\s*$/);
  });

  it('openai-agents-session: two runs of the Agents SDK share a history kept in a chat thread of the mind', async () => {
    const out = await example('openai-agents-session');
    assert.match(out, /model turn 1: given 1 items of history and input/);
    assert.match(out, /model turn 2: given 3 items of history and input/);
    assert.match(out, /turn 2 answer: You ordered a blue kettle/);
    assert.match(out, /: 4 items\n/);
    assert.match(out, /GET \/mind\/chat\?thread=support-\d+: human, agent, human, agent\n/);
    assert.match(out, /popItem: \{"type":"message","role":"assistant"/);
    assert.match(out, /after clearSession: 0 items/);
    assert.match(out, /openai agents session finished\s*$/);
  });

  it('webhook-receiver: verifies the test delivery and a task.created event, refuses a forged one', async () => {
    const out = await example('webhook-receiver');
    assert.match(out, /test delivery: delivered=true, status 204/);
    assert.match(out, /verified memory\.created/);
    assert.match(out, /verified task\.created/);
    assert.match(out, /a forged delivery was answered 401/);
    assert.match(out, /webhook receiver finished\s*$/);
  });
});
