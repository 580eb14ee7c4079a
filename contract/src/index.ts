import { accountsContract } from './accounts.js';
import { chatRoutes } from './chat.js';
import { c, mindKeyErrors, routerOptions } from './common.js';
import { computersContract } from './computers.js';
import { memoryRoutes } from './memories.js';
import { mindsContract } from './minds.js';
import { recallRoutes } from './recall.js';
import { scriptRoutes } from './scripts.js';
import { systemContract } from './system.js';
import { tasksContract } from './tasks.js';
import { transferRoutes } from './transfer.js';
import { webhooksContract } from './webhooks.js';

const { storeMemory, memoryStats, ...memoryById } = memoryRoutes;
/**
 * `memories.*`: memories, their recall and the whole-mind export and import, as the SDK's `memories`
 * resource has them (the server's memories, recall and transfer areas serve them), in the order the
 * server registers them (literal paths before `/memory/:id`).
 */
export const memoriesContract = c.router(
  { storeMemory, ...recallRoutes, memoryStats, ...transferRoutes, ...memoryById },
  routerOptions(mindKeyErrors),
);
export const chatContract = c.router(chatRoutes, routerOptions(mindKeyErrors));
export const scriptsContract = c.router(scriptRoutes, routerOptions(mindKeyErrors));

/** The whole API. The server implements it, the SDK calls it, the OpenAPI document is generated from it. */
export const contract = c.router({
  system: systemContract,
  accounts: accountsContract,
  minds: mindsContract,
  tasks: tasksContract,
  memories: memoriesContract,
  chat: chatContract,
  scripts: scriptsContract,
  webhooks: webhooksContract,
  computers: computersContract,
});
export type Contract = typeof contract;

export * from './common.js';
export * from './errors/index.js';
export * from './accounts.js';
export * from './minds.js';
export * from './tasks.js';
export * from './memories.js';
export * from './recall.js';
export * from './transfer.js';
export * from './chat.js';
export * from './scripts.js';
export * from './webhooks.js';
export * from './computer-schemas.js';
export * from './computers.js';
export * from './command-query.js';
export * from './command-results.js';
export * from './commands.js';
export * from './system.js';
export * from './events.js';
export * from './patterns.js';
export * from './routes.js';
