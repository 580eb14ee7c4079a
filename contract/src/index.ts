import { accountsContract } from './accounts.js';
import { c } from './common.js';
import { computersContract } from './computers.js';
import { memoriesContract } from './memories.js';
import { mindsContract } from './minds.js';
import { systemContract } from './system.js';
import { tasksContract } from './tasks.js';
import { webhooksContract } from './webhooks.js';

/** The whole API. The server implements it, the SDK calls it, the OpenAPI document is generated from it. */
export const contract = c.router({
  system: systemContract,
  accounts: accountsContract,
  minds: mindsContract,
  tasks: tasksContract,
  memories: memoriesContract,
  webhooks: webhooksContract,
  computers: computersContract,
});
export type Contract = typeof contract;

export * from './common.js';
export * from './accounts.js';
export * from './minds.js';
export * from './tasks.js';
export * from './memories.js';
export * from './webhooks.js';
export * from './computers.js';
export * from './system.js';
export * from './events.js';
export * from './patterns.js';
export * from './routes.js';
