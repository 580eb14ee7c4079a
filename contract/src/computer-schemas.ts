// A registered computer, its screen, and the install codes that register one.
import { Id, NonBlank, NullableTimestamp, Timestamp } from './common.js';
import { z } from './zod.js';

export const Screen = z
  .object({
    width: z.number().int().min(1).max(100_000).openapi({ description: 'Pixels.', example: 1920 }),
    height: z.number().int().min(1).max(100_000).openapi({ description: 'Pixels.', example: 1080 }),
    scale_factor: z
      .number()
      .min(0.25)
      .max(8)
      .optional()
      .openapi({ description: 'Device pixels per logical pixel, where the platform has one (macOS Retina 2); absent on X11.', example: 1 }),
  })
  .openapi('Screen', { description: "The computer's screen as its agent last reported it. Commands' coordinates are in these pixels." });
export type Screen = z.infer<typeof Screen>;

export const Computer = z
  .object({
    id: Id('Computer'),
    computer_name: z.string().openapi({ example: 'office-desktop' }),
    platform: z.string().openapi({ example: 'linux' }),
    platform_release: z.string().openapi({ example: '6.1.0-28-amd64' }),
    python: z.string().openapi({ description: 'Runtime version of the agent.', example: 'node v20.20.2' }),
    status: z.enum(['active', 'disabled']).openapi({ description: 'A disabled computer takes no commands; its token is revoked.' }),
    online: z.boolean().openapi({ description: 'Polling now or within the last 90 seconds.', example: true }),
    last_seen_at: NullableTimestamp('Last poll or result', '2026-11-22T01:31:05.377Z'),
    mind_id: z.string().nullable().openapi({
      description: "The mind it belongs to, when registered with a Mind Key's install code (or a JWT's `mind_id`).",
      example: '0b6f5a62-3f5e-4e8e-9a52-2c7d3f3f1a10',
    }),
    screen: Screen.nullable().openapi({ description: 'Its screen, as the agent reported it at registration or since; null until then.' }),
    created_at: Timestamp('When it registered'),
  })
  .openapi('Computer');
export type Computer = z.infer<typeof Computer>;

export const InstallCodeBody = z
  .object({
    computer_name: NonBlank(200).optional().openapi({ example: 'office-desktop' }),
    mind_id: z
      .string()
      .optional()
      .openapi({ description: 'With a JWT: tie the computer to one of your minds.', example: '0b6f5a62-3f5e-4e8e-9a52-2c7d3f3f1a10' }),
  })
  .openapi('InstallCodeBody');
export const InstallCode = z
  .object({
    install_code: z.string().openapi({ description: '`XXXX-XXXX`, single use.', example: 'K7QM-4XHP' }),
    expires_at: Timestamp('When the code stops working (15 minutes)'),
  })
  .openapi('InstallCode');

export type InstallCode = z.infer<typeof InstallCode>;

export const RegisterComputerBody = z
  .object({
    code: NonBlank(20).openapi({
      description: 'The install code: `install_code` of POST /computers/install-code; unknown, expired or used codes are 400.',
      example: 'K7QM-4XHP',
    }),
    computer_name: NonBlank(200).openapi({ example: 'office-desktop' }),
    platform: NonBlank(200).openapi({ example: 'linux' }),
    platform_release: z.string().trim().max(200).openapi({ example: '6.1.0-28-amd64' }),
    python: z
      .string()
      .trim()
      .max(200)
      .openapi({ description: "The agent runtime's version (the field keeps the spec's name).", example: 'node v20.20.2' }),
    screen: Screen.optional().openapi({ description: "The computer's screen, when the agent can read it." }),
  })
  .openapi('RegisterComputerBody');
export const RegisteredComputer = z
  .object({
    computer_id: Id('Computer'),
    computer_name: z.string().openapi({
      description: 'The name stored: the one given when the install code was made, else the one the agent sent.',
      example: 'office-desktop',
    }),
    computer_token: z.string().openapi({
      description: 'The Computer Token (`ct_...`), shown only once.',
      example: 'ct_Vb3Jq9Xw2Lm5Rt8Yp1Zs4Kd7Hg0Nf6Ca2Ue9Io3QxW',
    }),
  })
  .openapi('RegisteredComputer');
