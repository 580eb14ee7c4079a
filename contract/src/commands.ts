// The commands a computer's agent runs: each type's payload, how they are queued (a body, or query
// parameters for URL-only tools), polled and reported, and what a command looks like afterwards.
import { NonBlank } from './common.js';
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
