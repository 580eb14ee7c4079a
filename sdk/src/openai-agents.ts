// @mindservice/sdk/openai-agents: a session of the OpenAI Agents SDK kept in a mind's chat thread.
// It imports only types from @openai/agents-core (an optional peer dependency).
export { MindSession } from './openai-agents/session.js';
export type { MindSessionOptions } from './openai-agents/session.js';
