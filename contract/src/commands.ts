// The commands a computer's agent runs: each type's payload, how they are queued (a body, or query
// parameters for URL-only tools), polled and reported, and what a command looks like afterwards.
import { Id, NonBlank, NullableTimestamp, QueryBoolean, QueryInteger, Timestamp } from './common.js';
import { NOT_NUL_OR, NOT_SPACE_OR, SPACE } from './patterns.js';
import { z } from './zod.js';

const Coordinate = z.number().int().min(0).max(100_000).openapi({ description: 'Pixels from the top-left corner.' });
const Delta = z.number().int().min(-100_000).max(100_000);

export const ClickPayload = z
  .object({
    x: Coordinate,
    y: Coordinate,
    button: z.enum(['left', 'right', 'middle']).optional().openapi({ description: 'Default `left`.' }),
    double: z.boolean().optional().openapi({ description: 'Double-click. Default false.' }),
  })
  .openapi('ClickPayload', { example: { x: 640, y: 360 } });
export const MovePayload = z.object({ x: Coordinate, y: Coordinate }).openapi('MovePayload', { example: { x: 100, y: 200 } });
export const TypePayload = z.object({ text: z.string().min(1).max(10_000) }).openapi('TypePayload', { example: { text: 'hello world' } });
export const KeyPayload = z
  .object({
    keys: z.array(NonBlank(50)).min(1).max(10).openapi({ description: 'A key combination, pressed together, e.g. `["ctrl", "c"]`.' }),
  })
  .openapi('KeyPayload', { example: { keys: ['ctrl', 'c'] } });
export const ScrollPayload = z
  .object({
    deltaX: Delta.optional().openapi({ description: 'Pixels; positive scrolls right. Default 0.' }),
    deltaY: Delta.optional().openapi({ description: 'Pixels; positive scrolls down. Default 0.' }),
  })
  .refine((p) => p.deltaX !== undefined || p.deltaY !== undefined, {
    message: 'is required when deltaX is not given (a scroll needs one of them)',
    path: ['deltaY'],
  })
  .openapi('ScrollPayload', {
    description: 'At least one of `deltaX` and `deltaY`.',
    anyOf: [{ required: ['deltaX'] }, { required: ['deltaY'] }],
    example: { deltaX: 0, deltaY: 300 },
  });
export const DragPayload = z
  .object({ fromX: Coordinate, fromY: Coordinate, toX: Coordinate, toY: Coordinate })
  .openapi('DragPayload', { example: { fromX: 10, fromY: 10, toX: 200, toY: 150 } });
export const ScreenshotPayload = z.object({}).openapi('ScreenshotPayload', { example: {} });

export const COMMAND_TYPES = ['screenshot', 'click', 'move', 'type', 'key', 'scroll', 'drag'] as const;
export const CommandType = z.enum(COMMAND_TYPES).openapi('CommandType');
export type CommandType = z.infer<typeof CommandType>;

/** The payload schema of each command type; the server validates queued commands with these. */
export const COMMAND_PAYLOADS = {
  screenshot: ScreenshotPayload,
  click: ClickPayload,
  move: MovePayload,
  type: TypePayload,
  key: KeyPayload,
  scroll: ScrollPayload,
  drag: DragPayload,
} as const;

export const QueueCommandBody = z
  .discriminatedUnion('type', [
    z.object({ type: z.literal('screenshot'), payload: ScreenshotPayload.optional() }),
    z.object({ type: z.literal('click'), payload: ClickPayload }),
    z.object({ type: z.literal('move'), payload: MovePayload }),
    z.object({ type: z.literal('type'), payload: TypePayload }),
    z.object({ type: z.literal('key'), payload: KeyPayload }),
    z.object({ type: z.literal('scroll'), payload: ScrollPayload }),
    z.object({ type: z.literal('drag'), payload: DragPayload }),
  ])
  .openapi('QueueCommandBody', { example: { type: 'click', payload: { x: 640, y: 360 } } });
export type QueueCommandBody = z.infer<typeof QueueCommandBody>;

const QueryCoordinate = QueryInteger(0, 100_000);
const QueryDelta = QueryInteger(-100_000, 100_000);
/** `keys`: 1..10 comma-separated names, each 1..50 characters after trimming. */
const KEY_NAME = String.raw`\s*[^,\s](?:[^,]{0,48}[^,\s])?\s*`;
const QUERY_KEYS = new RegExp(`^${KEY_NAME}(?:,${KEY_NAME}){0,9}$`);
/** The same for the document, but for the names' lengths (engines count characters outside the BMP differently). */
const KEY_NAME_ANY_LENGTH = `${SPACE}*${NOT_SPACE_OR(',')}(?:${NOT_NUL_OR(',')}*${NOT_SPACE_OR(',')})?${SPACE}*`;
const QUERY_KEYS_PATTERN = `^${KEY_NAME_ANY_LENGTH}(?:,${KEY_NAME_ANY_LENGTH}){0,9}$`;

/** `GET /computers/:id/command`: the payload's own names as query parameters. */
export const QueueCommandQuery = z
  .object({
    type: CommandType.openapi({ description: 'screenshot, click, move, type, key, scroll or drag.' }),
    x: QueryCoordinate.optional().openapi({ description: 'click, move (required): pixels from the left.' }),
    y: QueryCoordinate.optional().openapi({ description: 'click, move (required): pixels from the top.' }),
    button: z.enum(['left', 'right', 'middle']).optional().openapi({ description: 'click: default left.' }),
    double: QueryBoolean.optional().openapi({ description: 'click: true for a double-click.' }),
    text: z.string().min(1).max(10_000).optional().openapi({ description: 'type (required): the text to type.' }),
    keys: z.string().regex(QUERY_KEYS, 'must be 1 to 10 comma-separated key names of 1 to 50 characters').optional().openapi({
      description: 'key (required): 1 to 10 comma-separated key names of 1 to 50 characters, e.g. `ctrl,c`.',
      pattern: QUERY_KEYS_PATTERN,
    }),
    deltaX: QueryDelta.optional().openapi({ description: 'scroll (this or deltaY): pixels, positive is right.' }),
    deltaY: QueryDelta.optional().openapi({ description: 'scroll (this or deltaX): pixels, positive is down.' }),
    fromX: QueryCoordinate.optional().openapi({ description: 'drag (required): start x.' }),
    fromY: QueryCoordinate.optional().openapi({ description: 'drag (required): start y.' }),
    toX: QueryCoordinate.optional().openapi({ description: 'drag (required): end x.' }),
    toY: QueryCoordinate.optional().openapi({ description: 'drag (required): end y.' }),
  })
  .openapi({ example: { type: 'click', x: 640, y: 360 } as never });

export const CommandStatus = z.enum(['queued', 'sent', 'done', 'failed', 'expired', 'cancelled']).openapi('CommandStatus', {
  description:
    '`queued` -> `sent` (handed to the agent) -> `done` | `failed`; `expired` after 10 minutes unfinished; `cancelled` by DELETE while queued.',
});
export type CommandStatus = z.infer<typeof CommandStatus>;

const SCREENSHOT_URL_EXAMPLE = '/computers/3f0c8a1e-5b7d-4c2f-9e6a-1d0b2c3e4f5a/commands/9d2e4b7a-3c1f-4e8d-a6b5-0f1e2d3c4b5a/screenshot';

/** Where a command's screenshot is: its size and the route that answers the PNG. */
export const ScreenshotRef = z
  .object({
    bytes: z.number().int().openapi({ description: 'Size of the PNG in bytes.', example: 254_211 }),
    url: z.string().openapi({
      description: 'The route that answers the PNG (`image/png`), relative to the service.',
      example: SCREENSHOT_URL_EXAMPLE,
    }),
  })
  .openapi('ScreenshotRef');
export type ScreenshotRef = z.infer<typeof ScreenshotRef>;

/**
 * What the agent posted, without the screenshot's bytes: `screenshot_b64` is kept apart and shown as
 * `screenshot: {bytes, url}`; only `GET /computers/:id/commands/:cid` adds `screenshot_b64` back.
 */
export const CommandResult = z
  .object({
    screenshot: ScreenshotRef.optional().openapi({
      description: 'When the result carried a screenshot: its size and where to fetch the PNG.',
    }),
    screenshot_b64: z
      .string()
      .optional()
      .openapi({ description: 'The PNG, base64; only in `GET /computers/:id/commands/:cid`, never in lists, events or webhooks.' }),
  })
  .catchall(z.unknown())
  .openapi('CommandResult', {
    description:
      "What the agent posted (free-form). A screenshot has `width`, `height` and `screenshot: {bytes, url}` (the name `screenshot` is the service's). The rest of a result is at most 64 KB of JSON (`MIND_MAX_RESULT_BYTES`).",
    example: { width: 1920, height: 1080, screenshot: { bytes: 254_211, url: SCREENSHOT_URL_EXAMPLE } },
  });
export type CommandResult = z.infer<typeof CommandResult>;

const Payload = z.record(z.unknown()).openapi({ description: "The type's payload (see QueueCommandBody).", example: { x: 640, y: 360 } });

export const Command = z
  .object({
    command_id: Id('Command'),
    computer_id: Id('Computer'),
    type: CommandType,
    payload: Payload,
    status: CommandStatus,
    result: CommandResult.nullable(),
    error: z.string().nullable().openapi({ description: 'Why it failed or expired; null otherwise.', example: null }),
    attempts: z.number().int().openapi({ description: 'How often the command was handed to the agent.', example: 1 }),
    created_at: Timestamp('When it was queued'),
    sent_at: NullableTimestamp('When it was handed to the agent', '2026-11-22T01:29:43.020Z'),
    completed_at: NullableTimestamp('When it finished', '2026-11-22T01:29:43.318Z'),
  })
  .openapi('Command', {
    example: {
      command_id: '9d2e4b7a-3c1f-4e8d-a6b5-0f1e2d3c4b5a',
      computer_id: '3f0c8a1e-5b7d-4c2f-9e6a-1d0b2c3e4f5a',
      type: 'click',
      payload: { x: 640, y: 360 },
      status: 'done',
      result: { ok: true, duration_ms: 12 },
      error: null,
      attempts: 1,
      created_at: '2026-11-22T01:29:42.123Z',
      sent_at: '2026-11-22T01:29:43.020Z',
      completed_at: '2026-11-22T01:29:43.318Z',
    },
  });
export type Command = z.infer<typeof Command>;

export const CommandList = z
  .object({
    commands: z.array(Command),
    next_cursor: z
      .string()
      .nullable()
      .openapi({ description: 'Pass as `cursor` for the next page; null on the last page.', example: 'YzEwNDI' }),
  })
  .openapi('CommandList');
export type CommandList = z.infer<typeof CommandList>;

export const QueuedCommand = z.object({ command_id: Id('Command'), status: z.literal('queued') }).openapi('QueuedCommand');

export const PolledCommand = z
  .object({ command_id: Id('Command'), type: CommandType, payload: Payload, created_at: Timestamp('When it was queued') })
  .openapi('PolledCommand', {
    example: {
      command_id: '9d2e4b7a-3c1f-4e8d-a6b5-0f1e2d3c4b5a',
      type: 'click',
      payload: { x: 640, y: 360 },
      created_at: '2026-11-22T01:29:42.123Z',
    },
  });
export type PolledCommand = z.infer<typeof PolledCommand>;
export const PollResult = z.object({ commands: z.array(PolledCommand) }).openapi('PollResult');
export type PollResult = z.infer<typeof PollResult>;

export const CommandResultBody = z
  .object({
    status: z.enum(['done', 'failed']),
    result: z
      .record(z.unknown())
      .optional()
      .openapi({
        description:
          "Any JSON object (no string in it may hold U+0000, nested at most 64 levels); a screenshot's result must have `screenshot_b64`, the PNG as base64.",
        example: { ok: true, duration_ms: 12 },
      }),
    error: z.string().max(10_000).optional().openapi({ description: 'With `failed`: what went wrong.', example: 'cannot open display :0' }),
  })
  .openapi('CommandResultBody', { example: { status: 'done', result: { ok: true, duration_ms: 12 } } });
