// The SDK for a web page (the console at /console): everything of index.ts that runs in a browser. The
// webhook signature checks (node:crypto) and the stdio MCP bridge stay out; a bundle of this entry has
// no Node built-in in it.
export { MindClient } from './client.js';
export type { MindClientOptions } from './client.js';
export { AgentClient } from './agent.js';
export type { AgentClientOptions, PollOptions } from './agent.js';
export * from './core/errors.js';
export type { RequestOptions, RetryBackoff, TransportOptions } from './core/options.js';
export { Page, PagePromise } from './core/pagination.js';
export type { NextPageParams } from './core/pagination.js';
export type * from './types.js';
