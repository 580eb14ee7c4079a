// Computer-use models' vocabularies against our commands: every action of Anthropic's computer tool
// (computer_20250124, computer_20251124) and of OpenAI's computer use, as their published schemas
// define them (fixtures/computer-use/*.json say where from), maps to a command the contract accepts;
// each command then runs on a live service with an agent answering, and its result maps back to what
// the model expects.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { keysym } from '../../agent/src/drivers/keys.js';
import {
  AgentClient,
  type AnthropicComputerInput,
  anthropicComputerTool,
  type Command,
  type CommandParams,
  ComputerUseError,
  fromAnthropicComputerAction,
  fromOpenAIComputerAction,
  fromOpenAIComputerCall,
  type MindClient,
  modelDisplay,
  type OpenAIComputerAction,
  openAIComputerTool,
  screenshotCommand,
  toAnthropicToolResult,
  toModelPoint,
  toOpenAIComputerCallOutput,
  toScreenPoint,
} from '../src/index.js';
import { MAPPED_KEY_NAMES } from '../src/computer-use/keys.js';
import { MODIFIER_KEYS, QueueCommandBody } from '../src/contract.js';
import { startLiveServer, type LiveServer } from './live-server.js';

interface Fixture<Input> {
  schema: Record<string, string[]>;
  screen: { width: number; height: number };
  display: { width: number; height: number };
  cases: Array<Input & { command: CommandParams }>;
  errors: Array<Input & { field: string }>;
}
const fixture = <T>(name: string): Fixture<T> =>
  JSON.parse(readFileSync(join(import.meta.dirname, 'fixtures/computer-use', name), 'utf8')) as Fixture<T>;
const anthropic = fixture<{ input: AnthropicComputerInput }>('anthropic-computer.json');
const openai = fixture<{ action: OpenAIComputerAction }>('openai-computer.json');

/** A 1x1 PNG. */
const PNG_B64 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

function valid(command: CommandParams) {
  const parsed = QueueCommandBody.safeParse(command);
  assert.ok(parsed.success, `${JSON.stringify(command)}: ${parsed.success ? '' : JSON.stringify(parsed.error.issues)}`);
}

function throwsOn(run: () => unknown, field: string) {
  assert.throws(run, (err: unknown) => {
    assert.ok(err instanceof ComputerUseError, `a ComputerUseError, got ${String(err)}`);
    assert.equal(err.field, field, err.message);
    assert.ok(err.message.startsWith(`${field}: `), err.message);
    return true;
  });
}

/** A finished command as GET /computers/:id/commands/:cid answers it. */
function finished(
  type: Command['type'],
  result: Command['result'],
  status: Command['status'] = 'done',
  error: string | null = null,
): Command {
  const at = new Date().toISOString();
  return {
    command_id: '9d2e4b7a-3c1f-4e8d-a6b5-0f1e2d3c4b5a',
    computer_id: '3f0c8a1e-5b7d-4c2f-9e6a-1d0b2c3e4f5a',
    type,
    payload: {},
    status,
    result,
    error,
    attempts: 1,
    created_at: at,
    sent_at: at,
    completed_at: at,
  };
}

describe('computer use: the display the model sees', () => {
  it('fits the screen within 1280x800 keeping its aspect ratio, never scaling up', () => {
    const cases: Array<[number, number, number, number]> = [
      [2560, 1600, 1280, 800],
      [1920, 1080, 1280, 720],
      [3840, 2160, 1280, 720],
      [1366, 768, 1280, 720],
      [1080, 1920, 450, 800],
      [1280, 800, 1280, 800],
      [1024, 768, 1024, 768],
      [800, 600, 800, 600],
    ];
    for (const [width, height, w, h] of cases) {
      const display = modelDisplay({ width, height });
      assert.deepEqual([display.width, display.height], [w, h], `${width}x${height}`);
      assert.deepEqual(display.screen, { width, height });
    }
    assert.deepEqual(modelDisplay({ width: 1920, height: 1080 }, { maxWidth: 1024, maxHeight: 768 }), {
      width: 1024,
      height: 576,
      screen: { width: 1920, height: 1080 },
    });
    throwsOn(() => modelDisplay(null), 'screen');
    throwsOn(() => modelDisplay({ width: 0, height: 10 }), 'screen.width');
  });

  it('scales points up to the screen (rounded, kept on it) and back; screenshots are asked at the display size', () => {
    const display = modelDisplay({ width: 1920, height: 1080 });
    assert.deepEqual(toScreenPoint(display, 640, 360), { x: 960, y: 540 });
    assert.deepEqual(toScreenPoint(display, 1, 1), { x: 2, y: 2 }); // 1.5 rounds up
    assert.deepEqual(toScreenPoint(display, 1280, 720), { x: 1919, y: 1079 });
    assert.deepEqual(toScreenPoint(display, -5, 99_999), { x: 0, y: 1079 });
    assert.deepEqual(toModelPoint(display, 960, 540), { x: 640, y: 360 });
    for (let x = 0; x < 1280; x += 37) assert.equal(toModelPoint(display, toScreenPoint(display, x, 0).x, 0).x, x);
    assert.deepEqual(screenshotCommand(display), { type: 'screenshot', payload: { max_width: 1280, max_height: 720 } });
    assert.deepEqual(screenshotCommand({ width: 1024, height: 768 }), { type: 'screenshot', payload: {} }, 'no scaling asked');
  });

  it('the tool definitions carry the display size', () => {
    const screen = { width: 2560, height: 1600 };
    assert.deepEqual(anthropicComputerTool(screen), {
      type: 'computer_20250124',
      name: 'computer',
      display_width_px: 1280,
      display_height_px: 800,
    });
    assert.deepEqual(anthropicComputerTool(modelDisplay(screen, { maxWidth: 1024 }), { version: 'computer_20251124', enableZoom: true }), {
      type: 'computer_20251124',
      name: 'computer',
      display_width_px: 1024,
      display_height_px: 640,
      enable_zoom: true,
    });
    assert.deepEqual(openAIComputerTool(screen, { environment: 'mac' }), {
      type: 'computer_use_preview',
      display_width: 1280,
      display_height: 800,
      environment: 'mac',
    });
  });
});

describe('computer use: Anthropic computer tool -> commands', () => {
  const display = modelDisplay(anthropic.screen);

  it('the fixture covers every action of computer_20250124 and computer_20251124, and every scroll direction', () => {
    assert.deepEqual(display, { ...anthropic.display, screen: anthropic.screen });
    const actions = new Set(anthropic.cases.map((c) => c.input.action));
    for (const version of ['computer_20250124', 'computer_20251124'])
      for (const action of anthropic.schema[version]!) assert.ok(actions.has(action as never), `${version} ${action} has a case`);
    const directions = new Set(anthropic.cases.map((c) => c.input.scroll_direction).filter(Boolean));
    assert.deepEqual([...directions].sort(), [...anthropic.schema.scroll_direction!].sort());
  });

  for (const { input, command } of anthropic.cases) {
    it(`${JSON.stringify(input)} -> ${command.type}`, () => {
      const mapped = fromAnthropicComputerAction(input, display);
      assert.deepEqual(mapped, command);
      valid(mapped);
      // The screen alone gives the same display (1280x800 at most).
      assert.deepEqual(fromAnthropicComputerAction(input, anthropic.screen), command);
    });
  }

  for (const { input, field } of anthropic.errors) {
    it(`${JSON.stringify(input)} is refused, naming ${field}`, () => throwsOn(() => fromAnthropicComputerAction(input, display), field));
  }

  it('a computer that has not reported its screen is refused', () => {
    throwsOn(() => fromAnthropicComputerAction({ action: 'screenshot' }, null), 'screen');
  });
});

describe('computer use: OpenAI computer use -> commands', () => {
  const display = modelDisplay(openai.screen);

  it('the fixture covers every action type and every button', () => {
    const types = new Set(openai.cases.map((c) => c.action.type));
    for (const type of openai.schema.action!) assert.ok(types.has(type as never), `${type} has a case`);
    const buttons = new Set(openai.cases.map((c) => (c.action.type === 'click' ? c.action.button : undefined)).filter(Boolean));
    assert.deepEqual([...buttons].sort(), [...openai.schema.button!].sort());
  });

  for (const { action, command } of openai.cases) {
    it(`${JSON.stringify(action)} -> ${command.type}`, () => {
      const mapped = fromOpenAIComputerAction(action, display);
      assert.deepEqual(mapped, command);
      valid(mapped);
    });
  }

  for (const { action, field } of openai.errors) {
    it(`${JSON.stringify(action)} is refused, naming ${field}`, () => throwsOn(() => fromOpenAIComputerAction(action, display), field));
  }

  it('a computer_call maps its batch of actions in order, or its one action; errors name the action', () => {
    const actions = openai.cases.map((c) => c.action);
    const call = { type: 'computer_call' as const, call_id: 'call_1', actions };
    assert.deepEqual(
      fromOpenAIComputerCall(call, display),
      openai.cases.map((c) => c.command),
    );
    assert.deepEqual(fromOpenAIComputerCall({ type: 'computer_call', call_id: 'c', action: actions[0] }, display), [
      openai.cases[0]!.command,
    ]);
    throwsOn(
      () =>
        fromOpenAIComputerCall(
          { type: 'computer_call', call_id: 'c', actions: [actions[0]!, { type: 'keypress', keys: ['NOPE'] }] },
          display,
        ),
      'actions[1].keys[0]',
    );
    throwsOn(() => fromOpenAIComputerCall({ type: 'computer_call', call_id: 'c' }, display), 'action');
  });

  it('a drag path longer than 100 points is thinned to 100, keeping both ends', () => {
    const path = Array.from({ length: 250 }, (_, i) => ({ x: i, y: 2 * i }));
    const command = fromOpenAIComputerAction({ type: 'drag', path }, display);
    valid(command);
    const points = (command.payload as { path: Array<{ x: number; y: number }> }).path;
    assert.equal(points.length, 100);
    assert.deepEqual(points[0], { x: 0, y: 0 });
    assert.deepEqual(points.at(-1), { x: 498, y: 996 });
  });
});

describe('computer use: key names', () => {
  it('every key name the mapping answers is one the agent accepts', () => {
    const names = [...MAPPED_KEY_NAMES, ...MODIFIER_KEYS, 'F1', 'F24', 'KP_0', 'XF86AudioMute', 'a', '1', 'ä'];
    for (const name of names) assert.doesNotThrow(() => keysym(name), `the agent knows "${name}"`);
    for (const c of [...anthropic.cases, ...openai.cases]) {
      const keys = (c.command.payload as { keys?: string[] }).keys;
      for (const key of keys ?? []) assert.doesNotThrow(() => keysym(key), `the agent knows "${key}"`);
    }
  });
});

describe('computer use: finished commands -> what the model expects', () => {
  const display = modelDisplay({ width: 2560, height: 1600 });
  const shot = finished('screenshot', {
    screenshot_b64: PNG_B64,
    width: 1280,
    height: 800,
    screen_width: 2560,
    screen_height: 1600,
    scale: 0.5,
  });

  it('Anthropic: a failure is is_error; a listed screenshot without its bytes and a cursor_position without x, y are refused', () => {
    assert.deepEqual(toAnthropicToolResult('toolu_1', finished('click', null, 'failed', 'cannot open display :0'), display), {
      type: 'tool_result',
      tool_use_id: 'toolu_1',
      content: [{ type: 'text', text: 'click failed: cannot open display :0' }],
      is_error: true,
    });
    assert.equal(toAnthropicToolResult('t', finished('type', null, 'expired', 'not answered in 10 minutes'), display).is_error, true);
    const listed = finished('screenshot', { screenshot: { bytes: 70, url: '/computers/x/commands/y/screenshot' } });
    throwsOn(() => toAnthropicToolResult('t', listed, display), 'command.result.screenshot_b64');
    throwsOn(() => toAnthropicToolResult('t', finished('cursor_position', { ok: true }), display), 'command.result');
    throwsOn(
      () => toAnthropicToolResult('t', finished('click', { ok: true }), display, { screenshot: finished('click', { ok: true }) }),
      'options.screenshot',
    );
  });

  it('Anthropic: an action without a screenshot says it is done, then shows options.screenshot', () => {
    assert.deepEqual(toAnthropicToolResult('t', finished('click', { ok: true }), display, { screenshot: shot }).content, [
      { type: 'text', text: 'click done' },
      { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG_B64 } },
    ]);
  });

  it('OpenAI: a failure, or no screenshot at all, is refused; safety checks are acknowledged', () => {
    throwsOn(() => toOpenAIComputerCallOutput('call_1', finished('click', null, 'failed', 'boom')), 'command');
    throwsOn(() => toOpenAIComputerCallOutput('call_1', finished('click', { ok: true })), 'options.screenshot');
    const output = toOpenAIComputerCallOutput('call_1', finished('click', { ok: true }), {
      screenshot: shot,
      acknowledgedSafetyChecks: [{ id: 'cu_sc_1', code: 'malicious_instructions', message: 'check' }],
    });
    assert.deepEqual(output, {
      type: 'computer_call_output',
      call_id: 'call_1',
      output: { type: 'computer_screenshot', image_url: `data:image/png;base64,${PNG_B64}` },
      acknowledged_safety_checks: [{ id: 'cu_sc_1', code: 'malicious_instructions', message: 'check' }],
    });
  });
});

describe('computer use: every mapped command runs on a live service and maps back', () => {
  let live: LiveServer;
  let client: MindClient;
  let computerId: string;
  const controller = new AbortController();
  let agentLoop: Promise<void>;
  const screen = { width: 2560, height: 1600 };
  const display = modelDisplay(screen);

  before(async () => {
    live = await startLiveServer();
    ({ client } = await live.account());
    const { install_code } = await client.computers.createInstallCode({ computer_name: 'cu-test' });
    const registered = await AgentClient.register(live.baseUrl, {
      code: install_code,
      computer_name: 'cu-test',
      platform: 'linux',
      platform_release: '6.1',
      python: `node ${process.version}`,
      screen,
    });
    computerId = registered.computer_id;
    const agent = new AgentClient({ baseUrl: live.baseUrl, computerToken: registered.computer_token, retryBackoff: { initialDelayMs: 5 } });
    agentLoop = answerLikeAnAgent(agent, controller.signal);
  });
  after(async () => {
    controller.abort();
    await agentLoop;
    await live.stop();
  });

  /** Answers as a real agent would: screenshots sized per max_width/max_height, the pointer where it was moved. */
  async function answerLikeAnAgent(agent: AgentClient, signal: AbortSignal) {
    let pointer = { x: 0, y: 0 };
    for await (const { command_id, type, payload } of agent.commands({ wait: 5, signal })) {
      const p = payload as { x?: number; y?: number; toX?: number; toY?: number; screenshot?: boolean; max_width?: number; width?: number };
      if (p.toX !== undefined && p.toY !== undefined) pointer = { x: p.toX, y: p.toY };
      else if (p.x !== undefined && p.y !== undefined && type !== 'zoom') pointer = { x: p.x, y: p.y };
      const sized = p.max_width ? p.max_width / (type === 'zoom' ? p.width! : screen.width) : 1;
      const screenshot = {
        screenshot_b64: PNG_B64,
        width: 1,
        height: 1,
        screen_width: screen.width,
        screen_height: screen.height,
        scale: sized,
      };
      const result =
        type === 'screenshot' || type === 'zoom' || (type === 'wait' && p.screenshot)
          ? screenshot
          : type === 'cursor_position'
            ? { x: pointer.x, y: pointer.y }
            : { ok: true };
      await agent.postResult(command_id, { status: 'done', result });
    }
  }

  it('the computer shows the screen it registered with', async () => {
    const computer = await client.computers.get(computerId);
    assert.deepEqual(computer.screen, screen);
    assert.deepEqual(modelDisplay(computer.screen), display);
  });

  it('every Anthropic case: queued, done, and a tool_result the model reads', async () => {
    const after = await client.computers.run(computerId, screenshotCommand(display), { pollIntervalMs: 10 });
    for (const { input } of anthropic.cases) {
      if (input.action === 'cursor_position') {
        const move = fromAnthropicComputerAction({ action: 'mouse_move', coordinate: [300, 200] }, display);
        assert.equal((await client.computers.run(computerId, move, { pollIntervalMs: 10 })).status, 'done');
      }
      const command = await client.computers.run(computerId, fromAnthropicComputerAction(input, display), { pollIntervalMs: 10 });
      assert.equal(command.status, 'done', `${input.action}: ${command.error}`);
      const result = toAnthropicToolResult('toolu_01', command, display, { screenshot: after });
      assert.equal(result.type, 'tool_result');
      assert.equal(result.tool_use_id, 'toolu_01');
      assert.equal(result.is_error, undefined);
      const [first, second] = result.content;
      if (['screenshot', 'wait', 'zoom'].includes(input.action)) {
        assert.deepEqual(first, { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG_B64 } });
      } else if (input.action === 'cursor_position') {
        // Moved to [300, 200] of the display just before: (600, 400) on the screen, read back in the display's pixels.
        assert.deepEqual(first, { type: 'text', text: 'X=300,Y=200' });
      } else assert.equal(first?.type, 'text');
      assert.equal(second?.type, 'image', 'the screenshot after the action');
    }
  });

  it('every OpenAI case: queued, done, and a computer_call_output with the screenshot', async () => {
    const after = await client.computers.run(computerId, screenshotCommand(display), { pollIntervalMs: 10 });
    const commands = fromOpenAIComputerCall(
      { type: 'computer_call', call_id: 'call_1', actions: openai.cases.map((c) => c.action) },
      display,
    );
    for (const mapped of commands) {
      const command = await client.computers.run(computerId, mapped, { pollIntervalMs: 10 });
      assert.equal(command.status, 'done', `${mapped.type}: ${command.error}`);
      const output = toOpenAIComputerCallOutput('call_1', command, { screenshot: after });
      assert.deepEqual(output, {
        type: 'computer_call_output',
        call_id: 'call_1',
        output: { type: 'computer_screenshot', image_url: `data:image/png;base64,${PNG_B64}` },
      });
    }
  });
});
