// @mindservice/sdk: the typed client of Mind Service. Every name exported as a value here exists at run
// time (test/exports.test.ts holds the built package to that); the rest are types only.
export { MindClient } from './client.js';
export type { MindClientOptions } from './client.js';
export { AgentClient } from './agent.js';
export type { AgentClientOptions, PollOptions } from './agent.js';
export * from './core/errors.js';
export type { RequestOptions, RetryBackoff, TransportOptions } from './core/options.js';
export { Page, PagePromise } from './core/pagination.js';
export type { NextPageParams } from './core/pagination.js';
export { verifyWebhookSignature, verifyStandardWebhook, WebhookVerificationError } from './webhook-signature.js';
export type { StandardWebhookHeaders, VerifyStandardWebhookOptions, WebhookEvent } from './webhook-signature.js';
// The resources: `client.tasks` is a Tasks. Exported as the classes they are, for `instanceof` and types.
export { Accounts } from './resources/accounts.js';
export { Chat } from './resources/chat.js';
export { Computers } from './resources/computers.js';
export type { RunOptions } from './resources/computers.js';
export { Memories } from './resources/memories.js';
export { Minds } from './resources/minds.js';
export { Scripts } from './resources/scripts.js';
export { System } from './resources/system.js';
export { Tasks } from './resources/tasks.js';
export { Webhooks } from './resources/webhooks.js';
export type * from './types.js';
// Computer-use models (Anthropic's computer tool, OpenAI's computer use): their tool calls <-> our commands.
export * from './computer-use/index.js';
