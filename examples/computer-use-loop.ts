// A computer-use model driving a registered computer: the model's tool calls become our commands
// (coordinates scaled from the display the model sees to the real screen), and each finished command
// goes back to the model as what it expects (a screenshot at the display's size).
//
//   pnpm --filter @mindservice/examples computer-use-loop     (MIND_URL, default http://127.0.0.1:3000)
//
// The "models" here are scripted: they replay recorded answers (computer-use-recorded.ts) of Claude's
// computer tool and of OpenAI's computer use, so the example needs no API key. The computer is a fake
// in-process agent with a 2560x1600 screen (fake-agent.ts). Replayed clicks and keys must not land on a
// real desktop by accident: only COMPUTER_ID=<id> (with MIND_KEY) drives a real computer, on purpose.
import {
  type AnthropicToolResult,
  anthropicComputerTool,
  type Command,
  type CommandParams,
  fromAnthropicComputerAction,
  fromOpenAIComputerCall,
  modelDisplay,
  type OpenAIComputerCall,
  type OpenAIComputerCallOutput,
  openAIComputerTool,
  screenshotCommand,
  toAnthropicToolResult,
  toOpenAIComputerCallOutput,
} from '@mindservice/sdk';
import {
  ANTHROPIC_TASK,
  ANTHROPIC_TURNS,
  type AnthropicTurn,
  OPENAI_RESPONSES,
  OPENAI_TASK,
  type OpenAIResponse,
} from './computer-use-recorded.js';
import { startFakeAgent, type FakeAgent } from './fake-agent.js';
import { mindClient } from './shared.js';

const { client } = await mindClient('computer-use-loop');
let fake: FakeAgent | undefined;
let computerId = process.env.COMPUTER_ID;
if (!computerId) {
  fake = await startFakeAgent(client, { width: 2560, height: 1600 });
  computerId = fake.computerId;
  console.log('started a fake in-process agent with a 2560x1600 screen');
}

try {
  const computer = await client.computers.get(computerId);
  // The display the model is told about: the screen scaled to fit 1280x800.
  const display = modelDisplay(computer.screen);
  console.log(`display ${display.width}x${display.height} for the ${display.screen.width}x${display.screen.height} screen`);
  const run = async (command: CommandParams) => client.computers.run(computerId, command, { pollIntervalMs: 50 });
  /** After an action whose result shows nothing, the model gets a new screenshot (as Anthropic's reference loop does). */
  const screenAfter = async (done: Command) =>
    hasScreenshot(done) || done.type === 'cursor_position' ? undefined : run(screenshotCommand(display));

  // 1. Claude: tool_use blocks -> commands -> tool_result blocks in the next user message.
  const claude = scriptedClaude(ANTHROPIC_TURNS);
  const tools = [anthropicComputerTool(display, { version: 'computer_20251124', enableZoom: true })];
  console.log(`anthropic tool ${JSON.stringify(tools[0])}`);
  const messages: unknown[] = [{ role: 'user', content: ANTHROPIC_TASK }];
  for (;;) {
    const turn = claude.create({ model: 'claude-opus-4-5', max_tokens: 1024, tools, messages });
    messages.push(turn);
    for (const block of turn.content) if (block.type === 'text') console.log(`claude: ${block.text}`);
    if (turn.stop_reason !== 'tool_use') break;
    const results: AnthropicToolResult[] = [];
    for (const block of turn.content) {
      if (block.type !== 'tool_use') continue;
      const command = fromAnthropicComputerAction(block.input, display);
      const done = await run(command);
      const result = toAnthropicToolResult(block.id, done, display, { screenshot: await screenAfter(done) });
      const { action, ...args } = block.input;
      console.log(
        `anthropic ${action} ${JSON.stringify(args)} -> ${command.type} ${JSON.stringify(command.payload)} -> tool_result: ${describe(result)}`,
      );
      results.push(result);
    }
    messages.push({ role: 'user', content: results });
  }

  // 2. OpenAI: computer_call items -> commands -> a computer_call_output (always a screenshot) each.
  const gpt = scriptedOpenAI(OPENAI_RESPONSES);
  const openaiTools = [openAIComputerTool(display, { environment: 'linux' })];
  console.log(`openai tool ${JSON.stringify(openaiTools[0])}`);
  let input: unknown[] = [{ role: 'user', content: OPENAI_TASK }];
  let previousResponseId: string | undefined;
  for (;;) {
    const response = gpt.create({
      model: 'computer-use-preview',
      tools: openaiTools,
      input,
      previous_response_id: previousResponseId,
      truncation: 'auto',
    });
    previousResponseId = response.id;
    const calls = response.output.filter((item): item is OpenAIComputerCall => item.type === 'computer_call');
    for (const item of response.output) if (item.type === 'message') console.log(`openai: ${item.content.map((c) => c.text).join(' ')}`);
    if (calls.length === 0) break;
    input = [];
    for (const call of calls) {
      let done: Command | undefined;
      const actions = call.actions ?? (call.action ? [call.action] : []);
      for (const [i, command] of fromOpenAIComputerCall(call, display).entries()) {
        done = await run(command);
        const { type, ...args } = actions[i]!;
        console.log(`openai ${type} ${JSON.stringify(args)} -> ${command.type} ${JSON.stringify(command.payload)} -> ${done.status}`);
        if (done.status !== 'done') break;
      }
      // A real loop shows pending safety checks to a person before going on; this one acknowledges them as recorded.
      const checks = call.pending_safety_checks ?? [];
      const output = toOpenAIComputerCallOutput(call.call_id, done!, {
        screenshot: await screenAfter(done!),
        ...(checks.length > 0 ? { acknowledgedSafetyChecks: checks } : {}),
      });
      const acknowledged = output.acknowledged_safety_checks?.length ?? 0;
      console.log(
        `computer_call_output ${call.call_id}: screenshot ${pngSize(output.output.image_url.split(',')[1]!)}${acknowledged ? `, ${acknowledged} safety check acknowledged` : ''}`,
      );
      input.push(output);
    }
  }

  if (fake) console.log(`fake agent: ${fake.buttonClicks} clicks on the button`);
  console.log('computer use loop finished');
} finally {
  await fake?.stop();
}

/** Claude, replayed: each request gets the next recorded turn, once the loop answered every tool_use of the last. */
function scriptedClaude(turns: AnthropicTurn[]) {
  let next = 0;
  return {
    create(request: { model: string; max_tokens: number; tools: unknown[]; messages: unknown[] }): AnthropicTurn {
      const asked = (turns[next - 1]?.content ?? []).flatMap((b) => (b.type === 'tool_use' ? [b.id] : []));
      const last = request.messages.at(-1) as { content: unknown };
      const answered = Array.isArray(last.content) ? last.content.map((r: { tool_use_id?: string }) => r.tool_use_id) : [];
      if (asked.join() !== answered.join()) throw new Error(`the model asked ${asked.join()} but was answered ${answered.join()}`);
      const turn = turns[next++];
      if (!turn) throw new Error('the recording has no more turns');
      return turn;
    },
  };
}

/** OpenAI's model, replayed: each request gets the next recorded response, once every computer_call was answered. */
function scriptedOpenAI(responses: OpenAIResponse[]) {
  let next = 0;
  return {
    create(request: { model: string; tools: unknown[]; input: unknown[]; previous_response_id: string | undefined; truncation: 'auto' }) {
      const previous = responses[next - 1];
      if (previous) {
        if (request.previous_response_id !== previous.id) throw new Error(`previous_response_id is not ${previous.id}`);
        for (const call of previous.output.filter((o): o is OpenAIComputerCall => o.type === 'computer_call')) {
          const output = request.input.find((i) => (i as OpenAIComputerCallOutput).call_id === call.call_id) as
            | OpenAIComputerCallOutput
            | undefined;
          if (!output?.output.image_url.startsWith('data:image/png;base64,')) throw new Error(`${call.call_id} got no screenshot back`);
          const pending = call.pending_safety_checks?.length ?? 0;
          if ((output.acknowledged_safety_checks?.length ?? 0) !== pending)
            throw new Error(`${call.call_id}: its safety checks are not acknowledged`);
        }
      }
      const response = responses[next++];
      if (!response) throw new Error('the recording has no more responses');
      return response;
    },
  };
}

function hasScreenshot(command: Command): boolean {
  return typeof command.result?.screenshot_b64 === 'string';
}

function describe(result: AnthropicToolResult): string {
  const parts = result.content.map((c) => (c.type === 'text' ? `text ${JSON.stringify(c.text)}` : `image ${pngSize(c.source.data)}`));
  return `${result.is_error ? 'error ' : ''}${parts.join(' + ')}`;
}

/** A PNG's size, from its header. */
function pngSize(base64: string): string {
  const png = Buffer.from(base64.slice(0, 32), 'base64');
  return `${png.readUInt32BE(16)}x${png.readUInt32BE(20)}`;
}
