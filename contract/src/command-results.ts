// What a command looks like once queued: its status, result and screenshot, as polled and listed.
import { CommandType } from './commands.js';
import { Id, NextCursor, NullableTimestamp, Timestamp } from './common.js';
import { z } from './zod.js';

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
