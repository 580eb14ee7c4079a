// `queue_command`'s `wait`: the one tool argument that is not the route's. A model that queues a click
// wants to know how it went; with `wait` the tool answers the command as `get_command` does once it is
// finished (or when the wait is over), read through the same route.
import type { ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { ApiError } from '../http/api-error.js';
import type { MindCaller } from '../http/caller.js';
import type { RouteAnswer } from '../http/pipeline.js';
import type { ApiRequest } from '../http/request.js';
import type { Invoke, McpTool } from './types.js';

export const MAX_WAIT_SECONDS = 30;
const QUEUE_ROUTE = 'computers.queueCommand';
const READ_ROUTE = 'computers.getCommand';
const FINISHED = new Set(['done', 'failed', 'expired', 'cancelled']);
/** How often the command is read while waiting: short against a click's latency, cheap for the database. */
const READ_EVERY_MS = 200;

/** Adds `wait` to the queueing tool's input. */
export function addWait(tools: McpTool[]) {
  const queue = tools.find((t) => t.key === QUEUE_ROUTE);
  const read = tools.find((t) => t.key === READ_ROUTE);
  if (!queue || !read) throw new Error('queue_command and get_command must be tools');
  queue.waits = true;
  queue.definition.inputSchema.properties = {
    ...(queue.definition.inputSchema.properties as object),
    wait: {
      type: 'integer',
      minimum: 0,
      maximum: MAX_WAIT_SECONDS,
      description: `Seconds to wait for the command to finish, 0 to ${MAX_WAIT_SECONDS} (default 0: answer once it is queued). With a wait the answer is the command as get_command answers it: finished, or still queued or sent when the wait ran out.`,
    },
  };
}

/** The `wait` argument in seconds (0 when absent); a 400 naming it when it is not 0..30 whole seconds. */
export function waitOf(value: unknown): number {
  if (value === undefined) return 0;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > MAX_WAIT_SECONDS) {
    throw new ApiError(400, `wait: must be a whole number of seconds from 0 to ${MAX_WAIT_SECONDS}`, {
      details: [{ path: 'wait', message: `must be a whole number of seconds from 0 to ${MAX_WAIT_SECONDS}` }],
    });
  }
  return value;
}

/** Reads the queued command until it is finished, the wait is over, or the client went away. */
export async function awaitCommand(
  invoke: Invoke,
  computerId: unknown,
  queued: RouteAnswer,
  seconds: number,
  caller: MindCaller,
  req: ApiRequest,
  res: ServerResponse,
): Promise<RouteAnswer> {
  if (queued.kind !== 'json') return queued;
  const params = { id: computerId, cid: (queued.body as { command_id: string }).command_id };
  const deadline = Date.now() + seconds * 1000;
  for (;;) {
    const answer = await invoke(READ_ROUTE, { params, query: {}, body: undefined }, caller, req, res);
    const status = answer.kind === 'json' ? (answer.body as { status?: string }).status : undefined;
    if (FINISHED.has(status ?? '') || Date.now() >= deadline || res.destroyed) return answer;
    await sleep(Math.min(READ_EVERY_MS, Math.max(0, deadline - Date.now())));
  }
}
