// A session of the OpenAI Agents SDK kept in a mind: the conversation lives in a chat thread its owner
// controls (listed by GET /mind/chat?thread=<sessionId>, searchable, exported with the mind).
//
//   pnpm --filter @mindservice/examples openai-agents-session     (MIND_URL, default http://127.0.0.1:3000)
//
// The one-line switch:
//
//   const session = new MemorySession({ sessionId: 'support-42' });              // before: gone when the process ends
//   const session = new MindSession({ client, sessionId: 'support-42' });        // after: kept in the mind
//   await run(agent, 'What did I order?', { session });
//
// The model here replays a recording (no API key): it answers each turn with what was recorded and
// prints how much history it was given, which comes from the mind.
import { MindSession } from '@mindservice/sdk/openai-agents';
import { Agent, type AgentOutputItem, type Model, type ModelRequest, type ModelResponse, Runner, Usage } from '@openai/agents-core';
import { mindClient } from './shared.js';

/** The model's answers, recorded, one per turn. */
const RECORDED: AgentOutputItem[][] = [
  [
    {
      type: 'message',
      role: 'assistant',
      status: 'completed',
      content: [{ type: 'output_text', text: 'Noted: order #1042, a blue kettle, delivered to Leeds.' }],
    },
  ],
  [
    {
      type: 'message',
      role: 'assistant',
      status: 'completed',
      content: [{ type: 'output_text', text: 'You ordered a blue kettle (order #1042), to be delivered to Leeds.' }],
    },
  ],
];

class RecordedModel implements Model {
  private turn = 0;
  async getResponse(request: ModelRequest): Promise<ModelResponse> {
    const input = Array.isArray(request.input) ? request.input : [request.input];
    console.log(`model turn ${this.turn + 1}: given ${input.length} items of history and input`);
    const output = RECORDED[this.turn++];
    if (!output) throw new Error('the recording has no more turns');
    return { usage: new Usage(), output, responseId: `resp_recorded_${this.turn}` };
  }
  // biome-ignore lint/correctness/useYield: the recording has no stream
  async *getStreamedResponse(): AsyncIterable<never> {
    throw new Error('the recorded model does not stream');
  }
}

const { client } = await mindClient('openai-agents-session');
const model = new RecordedModel();
const runner = new Runner({ modelProvider: { getModel: async () => model }, tracingDisabled: true });
const agent = new Agent({ name: 'Support', instructions: 'Help with orders; remember what the customer said.', model: 'recorded' });
const sessionId = `support-${Date.now()}`;

// Two processes of the app: each makes its own session object; the history is the mind's.
const first = await runner.run(agent, 'I ordered a blue kettle, order #1042, to Leeds.', {
  session: new MindSession({ client, sessionId }),
});
console.log(`turn 1 answer: ${first.finalOutput}`);
const second = await runner.run(agent, 'What did I order?', { session: new MindSession({ client, sessionId }) });
console.log(`turn 2 answer: ${second.finalOutput}`);

const session = new MindSession({ client, sessionId });
const items = await session.getItems();
console.log(`session ${sessionId}: ${items.length} items`);
// The same thread as any chat of the mind: GET /mind/chat?thread=<sessionId>, one message per item.
const messages = (await client.chat.list({ thread: sessionId })).data;
console.log(`GET /mind/chat?thread=${sessionId}: ${messages.map((m) => m.role).join(', ')}`);
const popped = await session.popItem();
console.log(`popItem: ${JSON.stringify(popped)}`);
await session.clearSession();
console.log(`after clearSession: ${(await session.getItems()).length} items`);
console.log('openai agents session finished');
