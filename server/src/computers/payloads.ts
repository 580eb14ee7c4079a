import { COMMAND_PAYLOADS, type CommandType, issueMessage, type QueueCommandBody, type Screen } from '@mindservice/contract';
import type { z } from 'zod';
import { ApiError, type ErrorDetail } from '../http/api-error.js';

/** The query parameters each command type takes in `GET /computers/:id/command` (the payload's own names). */
const QUERY_NAMES: Record<CommandType, readonly string[]> = {
  screenshot: ['max_width', 'max_height'],
  click: ['x', 'y', 'button', 'double', 'count', 'modifiers'],
  move: ['x', 'y', 'modifiers'],
  type: ['text'],
  key: ['keys'],
  scroll: ['deltaX', 'deltaY', 'x', 'y', 'modifiers'],
  drag: ['fromX', 'fromY', 'toX', 'toY', 'path', 'button', 'modifiers'],
  mouse_down: ['button', 'x', 'y'],
  mouse_up: ['button', 'x', 'y'],
  hold_key: ['keys', 'duration_ms'],
  wait: ['duration_ms', 'screenshot', 'max_width', 'max_height'],
  cursor_position: [],
  zoom: ['x', 'y', 'width', 'height', 'max_width', 'max_height'],
};
const ALL_PAYLOAD_NAMES = [...new Set(Object.values(QUERY_NAMES).flat())];

/** Query values that are lists in the payload: comma-separated names, or `x,y;x,y` points. */
const FROM_QUERY_TEXT: Record<string, (text: string) => unknown> = {
  keys: (text) => text.split(',').map((k) => k.trim()),
  modifiers: (text) => text.split(',').map((k) => k.trim()),
  path: (text) =>
    text
      .trim()
      .split(';')
      .map((point) => {
        const [x, y] = point.split(',').map(Number);
        return { x, y };
      }),
};

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

/** The POST form: the contract already validated the payload for its type. */
export function commandFromBody(body: QueueCommandBody): NewCommand {
  return { type: body.type, payload: (body.payload ?? {}) as Record<string, unknown> };
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
    raw[name] = FROM_QUERY_TEXT[name] ? FROM_QUERY_TEXT[name](String(value)) : value;
  }
  const parsed = COMMAND_PAYLOADS[type].safeParse(raw);
  if (!parsed.success) throw fail(issuesAt('query', parsed.error));
  return { type, payload: parsed.data as Record<string, unknown> };
}

/**
 * A zoom's region must lie on the screen the agent reported (`location`: where the payload came
 * from). With no screen reported yet, the agent checks it against the screen it has.
 */
export function checkOnScreen(command: NewCommand, screen: Screen | null, location: 'body.payload' | 'query'): void {
  if (command.type !== 'zoom' || !screen) return;
  const { x, y, width, height } = command.payload as { x: number; y: number; width: number; height: number };
  const details: ErrorDetail[] = [];
  const size = `${screen.width}x${screen.height}`;
  if (x >= screen.width) details.push({ path: `${location}.x`, message: `is past the screen's right edge (the screen is ${size})` });
  else if (x + width > screen.width)
    details.push({ path: `${location}.width`, message: `reaches x=${x + width}, past the screen's width ${screen.width}` });
  if (y >= screen.height) details.push({ path: `${location}.y`, message: `is past the screen's bottom edge (the screen is ${size})` });
  else if (y + height > screen.height)
    details.push({ path: `${location}.height`, message: `reaches y=${y + height}, past the screen's height ${screen.height}` });
  if (details.length) throw fail(details);
}
