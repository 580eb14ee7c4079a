import type { Contract } from '@mindservice/contract';
import type { AppRoute } from '@ts-rest/core';

/** `tasks.createTask` | `tasks.listTasks` | ...: every key listRoutes(contract) gives, from the contract's type. */
type KeysOf<R, P extends string = ''> = {
  [K in keyof R & string]: R[K] extends AppRoute ? `${P}${K}` : KeysOf<R[K], `${P}${K}.`>;
}[keyof R & string];
export type RouteKey = KeysOf<Contract>;

/**
 * What a tool does to the mind's data, for the MCP annotations: `read` (readOnlyHint), `write`
 * (adds or changes), `delete` (destructiveHint). Stated here, not read from the HTTP method: some
 * routes with an effect are GETs for URL-only tools (`completeTask`, `deleteTask`).
 */
export type ToolEffect = 'read' | 'write' | 'delete';

/** A route that is no tool, and why. */
export interface NotATool {
  not: string;
}

const ACCOUNT = { not: "the human's account (JWT), not the mind's" } as const;
const AGENT = { not: "the computer agent's side (Computer Token)" } as const;
const URL_ONLY = { not: 'a GET form of another route for URL-only clients; MCP clients have the tool' } as const;
const SERVICE = { not: 'about the service, not the mind' } as const;

/**
 * Which contract routes are MCP tools (docs/mcp.md). Typed by the contract: a new route does not
 * compile until it is classified here. A tool's name is its operationId in snake_case; everything
 * else about it (schemas, description, annotations) comes from the contract.
 */
export const MCP_TOOLS: Record<RouteKey, ToolEffect | NotATool> = {
  'system.health': SERVICE,
  'system.listEndpoints': SERVICE,
  'accounts.register': ACCOUNT,
  'accounts.login': ACCOUNT,
  'minds.createMind': ACCOUNT,
  'minds.listMinds': ACCOUNT,
  'minds.deleteMind': ACCOUNT,
  'minds.createMindKey': ACCOUNT,
  'minds.listMindKeys': ACCOUNT,
  'minds.revokeMindKey': ACCOUNT,
  'tasks.listTasks': 'read',
  'tasks.createTask': 'write',
  'tasks.createTaskFromQuery': URL_ONLY,
  'tasks.getTask': 'read',
  'tasks.updateTask': 'write',
  'tasks.completeTask': 'write',
  'tasks.deleteTask': 'delete',
  'memories.storeMemory': 'write',
  'memories.recallMemories': 'read',
  'memories.memoryStats': 'read',
  'memories.exportMind': { not: 'a whole-mind backup document, too large for a model to read' },
  'memories.importMind': { not: 'restores a whole-mind backup; an operator task' },
  'memories.getMemory': 'read',
  'memories.updateMemory': 'write',
  'memories.memoryHistory': 'read',
  'memories.deleteMemory': 'delete',
  'memories.verifyMemory': { not: 'verification is for the human (JWT)' },
  'memories.unverifyMemory': { not: 'verification is for the human (JWT)' },
  'chat.postChatMessage': 'write',
  'chat.listChatMessages': 'read',
  'chat.searchChat': 'read',
  'chat.deleteChatMessage': { not: "a session store's housekeeping (the SDK's sessions), not the model's" },
  'chat.clearChatThread': { not: "a session store's housekeeping (the SDK's sessions), not the model's" },
  'scripts.listScripts': 'read',
  'scripts.createScript': 'write',
  'scripts.getScript': 'read',
  'scripts.updateScript': 'write',
  'scripts.deleteScript': 'delete',
  'webhooks.createWebhook': { not: 'webhooks are set up by the integrator, not the model' },
  'webhooks.listWebhooks': { not: 'webhooks are set up by the integrator, not the model' },
  'webhooks.getWebhook': { not: 'webhooks are set up by the integrator, not the model' },
  'webhooks.updateWebhook': { not: 'webhooks are set up by the integrator, not the model' },
  'webhooks.enableWebhook': { not: 'webhooks are set up by the integrator, not the model' },
  'webhooks.disableWebhook': { not: 'webhooks are set up by the integrator, not the model' },
  'webhooks.testWebhook': { not: 'webhooks are set up by the integrator, not the model' },
  'webhooks.deleteWebhook': { not: 'webhooks are set up by the integrator, not the model' },
  'webhooks.listDeliveries': { not: 'webhooks are set up by the integrator, not the model' },
  'webhooks.redeliver': { not: 'webhooks are set up by the integrator, not the model' },
  'computers.createInstallCode': { not: 'installing a computer is for the human' },
  'computers.listComputers': 'read',
  'computers.registerComputer': AGENT,
  'computers.pollCommands': AGENT,
  'computers.postCommandResult': AGENT,
  'computers.reportScreen': AGENT,
  'computers.getComputer': { not: 'list_computers answers the same fields' },
  'computers.queueCommand': 'write',
  'computers.queueCommandFromQuery': URL_ONLY,
  'computers.listCommands': { not: 'get_command follows the commands the model queued' },
  'computers.getCommand': 'read',
  'computers.getCommandScreenshot': { not: 'screenshot answers the screen as an image' },
  'computers.cancelCommand': { not: 'a queued action is followed by get_command; cancelling is for the human' },
  'computers.screenshot': 'read',
  'computers.disableComputer': { not: 'disabling a computer is for the human' },
  'computers.deleteComputer': { not: 'removing a computer is for the human' },
};

/** `recallMemories` -> `recall_memories`. */
export const toolName = (operationId: string) => operationId.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
