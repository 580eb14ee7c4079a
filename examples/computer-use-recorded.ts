// What a computer-use model answered, recorded: the example replays it instead of calling a model, so it
// needs no API key. The shapes are the APIs' own (Anthropic Messages `tool_use` blocks; OpenAI Responses
// `computer_call` items); the coordinates are in the 1280x800 display the tool definition announced.
import type { AnthropicComputerInput, OpenAIComputerCall } from '@mindservice/sdk';

export type AnthropicBlock =
  | { type: 'text'; text: string }
  | { type: 'tool_use'; id: string; name: 'computer'; input: AnthropicComputerInput };
export interface AnthropicTurn {
  role: 'assistant';
  content: AnthropicBlock[];
  stop_reason: 'tool_use' | 'end_turn';
}

export const ANTHROPIC_TASK = 'Press the blue button in the middle of the screen, then type "hello" and save.';

/** Claude with the `computer_20251124` tool, turn by turn. */
export const ANTHROPIC_TURNS: AnthropicTurn[] = [
  {
    role: 'assistant',
    content: [
      { type: 'text', text: "I'll take a screenshot to see the screen." },
      { type: 'tool_use', id: 'toolu_01A', name: 'computer', input: { action: 'screenshot' } },
    ],
    stop_reason: 'tool_use',
  },
  {
    role: 'assistant',
    content: [
      { type: 'text', text: 'There is a blue button in the middle of the screen. I will click it.' },
      { type: 'tool_use', id: 'toolu_01B', name: 'computer', input: { action: 'left_click', coordinate: [640, 400] } },
    ],
    stop_reason: 'tool_use',
  },
  {
    role: 'assistant',
    content: [{ type: 'tool_use', id: 'toolu_01C', name: 'computer', input: { action: 'cursor_position' } }],
    stop_reason: 'tool_use',
  },
  {
    role: 'assistant',
    content: [
      { type: 'text', text: 'The button turned green. Now the text, then save.' },
      { type: 'tool_use', id: 'toolu_01D', name: 'computer', input: { action: 'type', text: 'hello' } },
      { type: 'tool_use', id: 'toolu_01E', name: 'computer', input: { action: 'key', text: 'ctrl+s' } },
    ],
    stop_reason: 'tool_use',
  },
  {
    role: 'assistant',
    content: [
      {
        type: 'tool_use',
        id: 'toolu_01F',
        name: 'computer',
        input: { action: 'scroll', coordinate: [640, 400], scroll_direction: 'down', scroll_amount: 3 },
      },
    ],
    stop_reason: 'tool_use',
  },
  {
    role: 'assistant',
    content: [
      {
        type: 'tool_use',
        id: 'toolu_01G',
        name: 'computer',
        input: { action: 'left_click_drag', start_coordinate: [100, 100], coordinate: [400, 300] },
      },
    ],
    stop_reason: 'tool_use',
  },
  {
    role: 'assistant',
    content: [
      { type: 'text', text: 'Let me look at the button closely.' },
      { type: 'tool_use', id: 'toolu_01H', name: 'computer', input: { action: 'zoom', region: [540, 350, 740, 450] } },
    ],
    stop_reason: 'tool_use',
  },
  {
    role: 'assistant',
    content: [{ type: 'tool_use', id: 'toolu_01J', name: 'computer', input: { action: 'wait', duration: 1 } }],
    stop_reason: 'tool_use',
  },
  {
    role: 'assistant',
    content: [{ type: 'text', text: 'I pressed the button, typed "hello" and saved.' }],
    stop_reason: 'end_turn',
  },
];

export type OpenAIOutputItem =
  | OpenAIComputerCall
  | { type: 'message'; role: 'assistant'; content: Array<{ type: 'output_text'; text: string }> };
export interface OpenAIResponse {
  id: string;
  output: OpenAIOutputItem[];
}

export const OPENAI_TASK = 'Press the blue button, type hello and submit with ctrl+enter.';

/** OpenAI's computer-use model, response by response. */
export const OPENAI_RESPONSES: OpenAIResponse[] = [
  {
    id: 'resp_1',
    output: [
      {
        type: 'computer_call',
        id: 'cu_1',
        call_id: 'call_1',
        action: { type: 'screenshot' },
        pending_safety_checks: [],
        status: 'completed',
      },
    ],
  },
  {
    id: 'resp_2',
    output: [
      {
        type: 'computer_call',
        id: 'cu_2',
        call_id: 'call_2',
        action: { type: 'click', button: 'left', x: 640, y: 400 },
        pending_safety_checks: [],
        status: 'completed',
      },
    ],
  },
  {
    id: 'resp_3',
    output: [
      {
        type: 'computer_call',
        id: 'cu_3',
        call_id: 'call_3',
        actions: [
          { type: 'type', text: 'hello' },
          { type: 'keypress', keys: ['CTRL', 'ENTER'] },
        ],
        pending_safety_checks: [],
        status: 'completed',
      },
    ],
  },
  {
    id: 'resp_4',
    output: [
      {
        type: 'computer_call',
        id: 'cu_4',
        call_id: 'call_4',
        action: { type: 'scroll', x: 640, y: 400, scroll_x: 0, scroll_y: 400 },
        pending_safety_checks: [],
        status: 'completed',
      },
    ],
  },
  {
    id: 'resp_5',
    output: [
      {
        type: 'computer_call',
        id: 'cu_5',
        call_id: 'call_5',
        action: {
          type: 'drag',
          path: [
            { x: 100, y: 100 },
            { x: 250, y: 200 },
            { x: 400, y: 300 },
          ],
        },
        pending_safety_checks: [{ id: 'cu_sc_1', code: 'irrelevant_domain', message: 'The page is not the one the task names.' }],
        status: 'completed',
      },
    ],
  },
  {
    id: 'resp_6',
    output: [
      { type: 'computer_call', id: 'cu_6', call_id: 'call_6', action: { type: 'wait' }, pending_safety_checks: [], status: 'completed' },
    ],
  },
  {
    id: 'resp_7',
    output: [
      { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Done: the button is pressed and hello submitted.' }] },
    ],
  },
];
