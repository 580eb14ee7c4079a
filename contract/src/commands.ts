// The commands a computer's agent runs: each type's payload, how they are queued (a body, or query
// parameters for URL-only tools), polled and reported, and what a command looks like afterwards.
import { Id, NextCursor, NonBlank, NullableTimestamp, QueryBoolean, QueryInteger, Timestamp } from './common.js';
import { NOT_NUL_OR, NOT_SPACE_OR, SPACE } from './patterns.js';
import { z } from './zod.js';

const Coordinate = z.number().int().min(0).max(100_000).openapi({ description: 'Pixels from the top-left corner.' });
const Delta = z.number().int().min(-100_000).max(100_000);
/** The largest screenshot a model is sent is about 1280x800; 16 px is the smallest that still shows anything. */
const MaxSide = (side: 'width' | 'height') =>
  z
    .number()
    .int()
    .min(16)
    .max(100_000)
    .openapi({
      description: `Scale the image down, keeping its aspect ratio, so it is at most this many pixels ${side === 'width' ? 'wide' : 'high'} (never up).`,
    });
const Milliseconds = (min: number, what: string) =>
  z
    .number()
    .int()
    .min(min)
    .max(10_000)
    .openapi({ description: `${what}, in milliseconds (${min} to 10,000).` });

export const MOUSE_BUTTONS = ['left', 'right', 'middle', 'back', 'forward'] as const;
const Button = z.enum(MOUSE_BUTTONS).optional().openapi({ description: 'Default `left`. `back` and `forward` are the side buttons.' });

/** Keys held down during a click, scroll, move or drag; `super` is the Windows / Command key. */
export const MODIFIER_KEYS = ['shift', 'ctrl', 'alt', 'super'] as const;
export type ModifierKey = (typeof MODIFIER_KEYS)[number];
const Modifiers = z
  .array(z.enum(MODIFIER_KEYS))
  .min(1)
  .max(MODIFIER_KEYS.length)
  // A key named twice is held once.
  .transform((keys) => [...new Set(keys)])
  .optional()
  .openapi({ description: 'Keys held down during the action: `shift`, `ctrl`, `alt`, `super`.', example: ['shift'] });

const OptionalPoint = {
  x: Coordinate.optional().openapi({ description: 'Move here first (with `y`); default: where the pointer is.' }),
  y: Coordinate.optional().openapi({ description: 'With `x`.' }),
};

type Check = (payload: Record<string, unknown>, ctx: z.RefinementCtx) => void;
/** `x` and `y` come together or not at all. */
const bothOrNeither =
  (a: string, b: string): Check =>
  (p, ctx) => {
    if ((p[a] === undefined) !== (p[b] === undefined)) {
      const missing = p[a] === undefined ? a : b;
      const given = missing === a ? b : a;
      ctx.addIssue({ code: 'custom', path: [missing], message: `is required when ${given} is given` });
    }
  };
const checks =
  (...all: Check[]) =>
  (payload: Record<string, unknown>, ctx: z.RefinementCtx) => {
    for (const check of all) check(payload, ctx);
  };
const PAIR_RULE = { anyOf: [{ required: ['x', 'y'] }, { not: { anyOf: [{ required: ['x'] }, { required: ['y'] }] } }] };

export const ClickPayload = z
  .object({
    ...OptionalPoint,
    button: Button,
    double: z.boolean().optional().openapi({ description: 'Double-click (the same as `count: 2`). Default false.' }),
    count: z
      .number()
      .int()
      .min(1)
      .max(3)
      .optional()
      .openapi({ description: 'Clicks: 1, 2 (double) or 3 (triple: a whole line or paragraph). Default 1.' }),
    modifiers: Modifiers,
  })
  .superRefine(
    checks(bothOrNeither('x', 'y'), (p, ctx) => {
      if (p.double !== undefined && p.count !== undefined && (p.double ? 2 : 1) !== p.count) {
        ctx.addIssue({ code: 'custom', path: ['count'], message: `is ${p.count} but double is ${p.double}: give one of them` });
      }
    }),
  )
  .openapi('ClickPayload', {
    description: 'Without `x` and `y` it clicks where the pointer is. `double` and `count` together must agree (double is count 2).',
    allOf: [
      PAIR_RULE,
      {
        anyOf: [
          { not: { required: ['double', 'count'] } },
          { properties: { double: { const: true }, count: { const: 2 } } },
          { properties: { double: { const: false }, count: { const: 1 } } },
        ],
      },
    ],
    example: { x: 640, y: 360 },
  });
export const MovePayload = z
  .object({ x: Coordinate, y: Coordinate, modifiers: Modifiers })
  .openapi('MovePayload', { example: { x: 100, y: 200 } });
export const TypePayload = z
  .object({ text: z.string().min(1).max(10_000).openapi({ description: 'The text to type.' }) })
  .openapi('TypePayload', { example: { text: 'hello world' } });
const KeyNames = z
  .array(NonBlank(50))
  .min(1)
  .max(10)
  .openapi({ description: 'A key combination, pressed together, e.g. `["ctrl", "c"]` (X keysym names such as `Return`, `Page_Down`).' });
export const KeyPayload = z.object({ keys: KeyNames }).openapi('KeyPayload', { example: { keys: ['ctrl', 'c'] } });
export const ScrollPayload = z
  .object({
    deltaX: Delta.optional().openapi({ description: 'Pixels; positive scrolls right. Default 0. One wheel step is 100 pixels.' }),
    deltaY: Delta.optional().openapi({ description: 'Pixels; positive scrolls down. Default 0. One wheel step is 100 pixels.' }),
    ...OptionalPoint,
    modifiers: Modifiers,
  })
  .superRefine(
    checks(bothOrNeither('x', 'y'), (p, ctx) => {
      if (p.deltaX === undefined && p.deltaY === undefined) {
        ctx.addIssue({ code: 'custom', path: ['deltaY'], message: 'is required when deltaX is not given (a scroll needs one of them)' });
      }
    }),
  )
  .openapi('ScrollPayload', {
    description: 'At least one of `deltaX` and `deltaY`; at `x`, `y` when given (both), else where the pointer is.',
    allOf: [{ anyOf: [{ required: ['deltaX'] }, { required: ['deltaY'] }] }, PAIR_RULE],
    example: { deltaX: 0, deltaY: 300 },
  });
const PathPoint = z.object({ x: Coordinate, y: Coordinate });
const ENDPOINTS = ['fromX', 'fromY', 'toX', 'toY'] as const;
export const DragPayload = z
  .object({
    fromX: Coordinate.optional().openapi({ description: 'Start x (with fromY, toX, toY; or give `path`).' }),
    fromY: Coordinate.optional(),
    toX: Coordinate.optional(),
    toY: Coordinate.optional(),
    path: z
      .array(PathPoint)
      .min(2)
      .max(100)
      .optional()
      .openapi({ description: 'Instead of from/to: the points the pointer passes, 2 to 100, the button held from the first to the last.' }),
    button: Button,
    modifiers: Modifiers,
  })
  .superRefine((p, ctx) => {
    const given = ENDPOINTS.filter((name) => p[name] !== undefined);
    if (p.path !== undefined) {
      for (const name of given) ctx.addIssue({ code: 'custom', path: [name], message: 'cannot be given with path (give one form)' });
      return;
    }
    for (const name of ENDPOINTS)
      if (p[name] === undefined) ctx.addIssue({ code: 'custom', path: [name], message: 'is required (or give path)' });
  })
  .openapi('DragPayload', {
    description: 'Either `fromX`, `fromY`, `toX`, `toY`, or `path`.',
    oneOf: [
      { required: [...ENDPOINTS], not: { required: ['path'] } },
      { required: ['path'], not: { anyOf: ENDPOINTS.map((name) => ({ required: [name] })) } },
    ],
    example: { fromX: 10, fromY: 10, toX: 200, toY: 150 },
  });
const ScreenshotSize = { max_width: MaxSide('width').optional(), max_height: MaxSide('height').optional() };

export const ScreenshotPayload = z.object(ScreenshotSize).openapi('ScreenshotPayload', {
  description:
    "The result has the PNG's `width` and `height`, the screen's `screen_width` and `screen_height`, and `scale` (PNG pixels per screen pixel, at most 1): a point (px, py) of the PNG is (round(px / scale), round(py / scale)) on the screen.",
  example: {},
});
export const MouseDownPayload = z
  .object({ button: Button, ...OptionalPoint })
  .superRefine(bothOrNeither('x', 'y'))
  .openapi('MouseDownPayload', {
    description: 'Presses a button and keeps it down (until `mouse_up`).',
    ...PAIR_RULE,
    example: { x: 100, y: 200 },
  });
export const MouseUpPayload = z
  .object({ button: Button, ...OptionalPoint })
  .superRefine(bothOrNeither('x', 'y'))
  .openapi('MouseUpPayload', { description: 'Releases a button pressed by `mouse_down`.', ...PAIR_RULE, example: { x: 300, y: 200 } });
export const HoldKeyPayload = z
  .object({ keys: KeyNames, duration_ms: Milliseconds(1, 'How long the keys stay down') })
  .openapi('HoldKeyPayload', { example: { keys: ['shift'], duration_ms: 1000 } });
export const WaitPayload = z
  .object({
    duration_ms: Milliseconds(0, 'How long to wait'),
    screenshot: z.boolean().optional().openapi({ description: "Then take a screenshot (the result is a screenshot's). Default false." }),
    ...ScreenshotSize,
  })
  .superRefine((p, ctx) => {
    for (const name of ['max_width', 'max_height'] as const) {
      if (p[name] !== undefined && p.screenshot !== true) ctx.addIssue({ code: 'custom', path: [name], message: 'needs screenshot: true' });
    }
  })
  .openapi('WaitPayload', {
    description: '`max_width` and `max_height` only with `screenshot: true`.',
    anyOf: [
      { required: ['screenshot'], properties: { screenshot: { const: true } } },
      { not: { anyOf: [{ required: ['max_width'] }, { required: ['max_height'] }] } },
    ],
    example: { duration_ms: 2000, screenshot: true },
  });
export const CursorPositionPayload = z
  .object({})
  .openapi('CursorPositionPayload', { description: "The result has the pointer's `x` and `y`.", example: {} });
export const ZoomPayload = z
  .object({
    x: Coordinate.openapi({ description: "The region's left edge." }),
    y: Coordinate.openapi({ description: "The region's top edge." }),
    width: z.number().int().min(1).max(100_000).openapi({ description: "The region's width in screen pixels." }),
    height: z.number().int().min(1).max(100_000).openapi({ description: "The region's height in screen pixels." }),
    ...ScreenshotSize,
  })
  .openapi('ZoomPayload', {
    description:
      'A screenshot of a region of the screen, which must lie on the screen; scaled to fit `max_width` / `max_height` when given, up or down, keeping the aspect ratio. The agent refuses (the command fails) a zoom whose PNG would be over 8,192 pixels a side, before making it. The result says `scale` (PNG pixels per region pixel).',
    example: { x: 0, y: 0, width: 400, height: 300, max_width: 800 },
  });

export const COMMAND_TYPES = [
  'screenshot',
  'click',
  'move',
  'type',
  'key',
  'scroll',
  'drag',
  'mouse_down',
  'mouse_up',
  'hold_key',
  'wait',
  'cursor_position',
  'zoom',
] as const;
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
  mouse_down: MouseDownPayload,
  mouse_up: MouseUpPayload,
  hold_key: HoldKeyPayload,
  wait: WaitPayload,
  cursor_position: CursorPositionPayload,
  zoom: ZoomPayload,
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
    z.object({ type: z.literal('mouse_down'), payload: MouseDownPayload.optional() }),
    z.object({ type: z.literal('mouse_up'), payload: MouseUpPayload.optional() }),
    z.object({ type: z.literal('hold_key'), payload: HoldKeyPayload }),
    z.object({ type: z.literal('wait'), payload: WaitPayload }),
    z.object({ type: z.literal('cursor_position'), payload: CursorPositionPayload.optional() }),
    z.object({ type: z.literal('zoom'), payload: ZoomPayload }),
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
      "What the agent posted (free-form). A screenshot (also `zoom`, and `wait` with `screenshot: true`) has `width` and `height` (the PNG's), `screen_width`, `screen_height`, `scale` (PNG pixels per screen pixel) and `screenshot: {bytes, url}` (the name `screenshot` is the service's); `cursor_position` has `x` and `y`. The rest of a result is at most 64 KB of JSON (`MIND_MAX_RESULT_BYTES`).",
    example: {
      width: 1280,
      height: 720,
      screen_width: 1920,
      screen_height: 1080,
      scale: 0.6667,
      screenshot: { bytes: 254_211, url: SCREENSHOT_URL_EXAMPLE },
    },
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
    next_cursor: NextCursor('YzEwNDI'),
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
