import { COMMAND_PAYLOADS, type CommandType, issueMessage, type QueueCommandBody } from '@mindservice/contract';
import type { z } from 'zod';
import { ApiError, type ErrorDetail } from '../http/api-error.js';

/** The query parameters each command type takes in `GET /computers/:id/command` (the payload's own names). */
const QUERY_NAMES: Record<CommandType, readonly string[]> = {
  screenshot: [],
  click: ['x', 'y', 'button', 'double'],
  move: ['x', 'y'],
  type: ['text'],
  key: ['keys'],
  scroll: ['deltaX', 'deltaY'],
  drag: ['fromX', 'fromY', 'toX', 'toY'],
};
const ALL_PAYLOAD_NAMES = [...new Set(Object.values(QUERY_NAMES).flat())];

export interface NewCommand {
  type: CommandType;
  payload: Record<string, unknown>;
}

const fail = (details: ErrorDetail[]) =>
  ApiError.badRequest('validation_failed', details.map((d) => `${d.path}: ${d.message}`).join('; '), details);

function issuesAt(location: string, error: z.ZodError): ErrorDetail[] {
  return error.issues.map((issue) => ({
    // `keys.0` came from the one comma-separated `keys` parameter: name the parameter.
    path: [location, ...(location === 'query' ? issue.path.slice(0, 1) : issue.path)].join('.'),
    message: issueMessage(issue),
  }));
}

/** Rules the schemas cannot say: a scroll must scroll somewhere. */
function checkPayload(type: CommandType, payload: Record<string, unknown>, location: string) {
  if (type === 'scroll' && payload.deltaX === undefined && payload.deltaY === undefined) {
    throw fail([{ path: `${location}.deltaY`, message: 'is required when deltaX is not given (a scroll needs one of them)' }]);
  }
}

/** The POST form: the contract already validated the payload for its type. */
export function commandFromBody(body: QueueCommandBody): NewCommand {
  const payload = (body.payload ?? {}) as Record<string, unknown>;
  checkPayload(body.type, payload, 'body.payload');
  return { type: body.type, payload };
}

/**
 * The GET form: builds the payload from the query's own names (the contract coerced numbers and
 * booleans), then validates it exactly like the POST form. Parameters another type uses are refused.
 */
export function commandFromQuery(query: Record<string, unknown>): NewCommand {
  const type = query.type as CommandType;
  const names = QUERY_NAMES[type];
  const stray = ALL_PAYLOAD_NAMES.filter((name) => query[name] !== undefined && !names.includes(name));
  if (stray.length) {
    const takes = names.length ? names.join(', ') : 'no other parameters';
    throw fail(stray.map((name) => ({ path: `query.${name}`, message: `is not a parameter of type \`${type}\` (it takes ${takes})` })));
  }
  const raw: Record<string, unknown> = {};
  for (const name of names) {
    const value = query[name];
    if (value === undefined) continue;
    raw[name] =
      name === 'keys'
        ? String(value)
            .split(',')
            .map((k) => k.trim())
        : value;
  }
  const parsed = COMMAND_PAYLOADS[type].safeParse(raw);
  if (!parsed.success) throw fail(issuesAt('query', parsed.error));
  const payload = parsed.data as Record<string, unknown>;
  checkPayload(type, payload, 'query');
  return { type, payload };
}
