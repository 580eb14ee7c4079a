// A command queued with query parameters (`GET /computers/:id/command`, for URL-only tools): the
// payload's own names, as text the service parses.
import { COMMAND_TYPES, CommandType, MODIFIER_KEYS, MOUSE_BUTTONS } from './commands.js';
import { QueryBoolean, QueryInteger } from './common.js';
import { NOT_NUL_OR, NOT_SPACE_OR, SPACE } from './patterns.js';
import { z } from './zod.js';

const QueryCoordinate = QueryInteger(0, 100_000);
const QueryDelta = QueryInteger(-100_000, 100_000);
/** `keys`: 1..10 comma-separated names, each 1..50 characters after trimming. */
const KEY_NAME = String.raw`\s*[^,\s](?:[^,]{0,48}[^,\s])?\s*`;
const QUERY_KEYS = new RegExp(`^${KEY_NAME}(?:,${KEY_NAME}){0,9}$`);
/** The same for the document, but for the names' lengths (engines count characters outside the BMP differently). */
const KEY_NAME_ANY_LENGTH = `${SPACE}*${NOT_SPACE_OR(',')}(?:${NOT_NUL_OR(',')}*${NOT_SPACE_OR(',')})?${SPACE}*`;
const QUERY_KEYS_PATTERN = `^${KEY_NAME_ANY_LENGTH}(?:,${KEY_NAME_ANY_LENGTH}){0,9}$`;

// Both patterns allow spaces around the list and its items (the service trims them): ECMA-262, RE2
// and Python then agree on every text, a newline at the end included (openapi.patterns.test.ts).
const MODIFIER = `${SPACE}*(?:${MODIFIER_KEYS.join('|')})${SPACE}*`;
/** `modifiers`: 1..4 comma-separated modifier names. */
const QUERY_MODIFIERS_PATTERN = `^${MODIFIER}(?:,${MODIFIER}){0,3}$`;
const POINT = '[0-9]{1,6},[0-9]{1,6}';
/** `path`: 2..100 points `x,y` separated by `;`. */
const QUERY_PATH_PATTERN = `^${SPACE}*${POINT}(?:;${POINT}){1,99}${SPACE}*$`;

/** `GET /computers/:id/command`: the payload's own names as query parameters. */
export const QueueCommandQuery = z
  .object({
    type: CommandType.openapi({ description: `One of: ${COMMAND_TYPES.join(', ')}.` }),
    x: QueryCoordinate.optional().openapi({ description: 'click, move, scroll, mouse_down, mouse_up, zoom: pixels from the left.' }),
    y: QueryCoordinate.optional().openapi({ description: 'click, move, scroll, mouse_down, mouse_up, zoom: pixels from the top.' }),
    button: z.enum(MOUSE_BUTTONS).optional().openapi({ description: 'click, drag, mouse_down, mouse_up: default left.' }),
    double: QueryBoolean.optional().openapi({ description: 'click: true for a double-click.' }),
    count: QueryInteger(1, 3).optional().openapi({ description: 'click: 1, 2 or 3 clicks.', example: 3 }),
    modifiers: z
      .string()
      .regex(new RegExp(QUERY_MODIFIERS_PATTERN), `must be 1 to 4 comma-separated names of: ${MODIFIER_KEYS.join(', ')}`)
      .optional()
      .openapi({
        pattern: QUERY_MODIFIERS_PATTERN,
        description: 'click, move, scroll, drag: keys held during it, comma-separated, e.g. `ctrl,shift`.',
        example: 'shift',
      }),
    text: z.string().min(1).max(10_000).optional().openapi({ description: 'type (required): the text to type.' }),
    keys: z.string().regex(QUERY_KEYS, 'must be 1 to 10 comma-separated key names of 1 to 50 characters').optional().openapi({
      description: 'key, hold_key (required): 1 to 10 comma-separated key names of 1 to 50 characters, e.g. `ctrl,c`.',
      pattern: QUERY_KEYS_PATTERN,
    }),
    deltaX: QueryDelta.optional().openapi({ description: 'scroll (this or deltaY): pixels, positive is right.' }),
    deltaY: QueryDelta.optional().openapi({ description: 'scroll (this or deltaX): pixels, positive is down.' }),
    fromX: QueryCoordinate.optional().openapi({ description: 'drag (or path): start x.' }),
    fromY: QueryCoordinate.optional().openapi({ description: 'drag (or path): start y.' }),
    toX: QueryCoordinate.optional().openapi({ description: 'drag (or path): end x.' }),
    toY: QueryCoordinate.optional().openapi({ description: 'drag (or path): end y.' }),
    path: z
      .string()
      .regex(new RegExp(QUERY_PATH_PATTERN), 'must be 2 to 100 points `x,y` separated by `;`, e.g. `10,10;200,150`')
      .optional()
      .openapi({
        pattern: QUERY_PATH_PATTERN,
        description: 'drag (instead of fromX..toY): 2 to 100 points `x,y` separated by `;`.',
        example: '10,10;50,40;90,80',
      }),
    duration_ms: QueryInteger(0, 10_000)
      .optional()
      .openapi({ description: 'hold_key, wait (required): milliseconds, up to 10,000.', example: 1000 }),
    screenshot: QueryBoolean.optional().openapi({ description: 'wait: true to take a screenshot after it.', example: 'true' }),
    width: QueryInteger(1, 100_000).optional().openapi({ description: "zoom (required): the region's width.", example: 400 }),
    height: QueryInteger(1, 100_000).optional().openapi({ description: "zoom (required): the region's height.", example: 300 }),
    max_width: QueryInteger(16, 100_000)
      .optional()
      .openapi({ description: 'screenshot, wait, zoom: scale the PNG to at most this width.', example: 1280 }),
    max_height: QueryInteger(16, 100_000)
      .optional()
      .openapi({ description: 'screenshot, wait, zoom: scale the PNG to at most this height.', example: 800 }),
  })
  .openapi({ example: { type: 'click', x: 640, y: 360 } as never });
