import {
  bodyErrors,
  c,
  credentialErrors,
  errors,
  Id,
  LARGE_BODY_LIMIT,
  meta,
  mindKeyErrors,
  QueryInteger,
  routerOptions,
  PAGE_BYTES,
  NextCursor,
  PageCursor,
} from './common.js';
import { QueueCommandQuery } from './command-query.js';
import { Command, CommandList, CommandResultBody, CommandStatus, PollResult, QueuedCommand } from './command-results.js';
import { QueueCommandBody } from './commands.js';
import { Screen, Computer, InstallCodeBody, InstallCode, RegisterComputerBody, RegisteredComputer } from './computer-schemas.js';
import { z } from './zod.js';

const ComputerParams = z.object({ id: Id('Computer') });
const CommandParams = z.object({ id: Id('Computer'), cid: Id('Command') });
const user = meta('mindKeyOrJwt', 'Computers');
const agent = meta('computerToken', 'Computer agent');

// Order matters: literal paths (/computers/list, /computers/me/...) come before `/computers/:id`.
export const computersContract = c.router(
  {
    createInstallCode: {
      method: 'POST',
      path: '/computers/install-code',
      summary: 'Create an install code',
      description:
        "A single-use code (`XXXX-XXXX`, valid 15 minutes) for `screen-remote-agent register`. Made with a Mind Key, the computer belongs to that mind. 409 when the user has `MIND_MAX_COMPUTERS_PER_USER` computers or the mind `MIND_MAX_INSTALL_CODES_PER_MIND` open codes; with a Mind Key also when the mind's computers and the key's open codes reach `MIND_MAX_COMPUTERS_PER_MIND` (the owner's JWT is held to the account's cap alone).",
      body: InstallCodeBody,
      responses: { 201: InstallCode, ...errors(404, 409), ...mindKeyErrors, ...bodyErrors },
      metadata: user,
    },
    listComputers: {
      method: 'GET',
      path: '/computers/list',
      summary: 'List computers',
      description: `Computers the caller sees, oldest first: at most \`limit\` (default 100) a page, ${PAGE_BYTES}. Page with \`next_cursor\`.`,
      query: z.object({
        limit: QueryInteger(1, 100).optional().openapi({ description: 'Computers per page, 1..100, default 100.' }),
        cursor: PageCursor(200),
      }),
      responses: {
        200: z
          .object({
            computers: z.array(Computer),
            next_cursor: NextCursor(null),
          })
          .openapi('ComputerList'),
        ...errors(400),
        ...mindKeyErrors,
      },
      metadata: user,
    },
    registerComputer: {
      method: 'POST',
      path: '/computers/register',
      summary: 'Register a computer (agent)',
      description:
        'Called by `screen-remote-agent register` with an install code; returns the Computer Token once. A code that is unknown (`install_code_unknown`), already used (`install_code_used`) or expired (`install_code_expired`, after 15 minutes) is 400.',
      body: RegisterComputerBody,
      responses: { 201: RegisteredComputer, ...errors(409, 429), ...bodyErrors },
      metadata: meta('none', 'Computer agent'),
    },
    pollCommands: {
      method: 'GET',
      path: '/computers/me/poll',
      summary: 'Wait for commands (agent)',
      description:
        'Answers at once when commands are queued, else as soon as one is queued during the wait, else empty after `wait` seconds. Answered commands are `sent`. A newer poll ends an older one with an empty answer.',
      query: z.object({ wait: QueryInteger(0, 60).optional().openapi({ description: 'Seconds, 0..60, default 25.' }) }),
      responses: { 200: PollResult, ...errors(400, 403), ...credentialErrors },
      metadata: agent,
    },
    postCommandResult: {
      method: 'POST',
      path: '/computers/me/commands/:cid/result',
      summary: 'Report a command result (agent)',
      description:
        "Up to 25 MB (screenshots, `result.screenshot_b64`); the rest of a result at most 64 KB of JSON (`MIND_MAX_RESULT_BYTES`, else 413). Another computer's command is 404; a finished one 409. A `done` screenshot or zoom without `result.screenshot_b64` is 400.",
      pathParams: z.object({ cid: Id('Command') }),
      body: CommandResultBody,
      responses: {
        200: z
          .object({ command_id: Id('Command'), status: CommandStatus })
          .openapi('CommandResultAck', { example: { command_id: '9d2e4b7a-3c1f-4e8d-a6b5-0f1e2d3c4b5a', status: 'done' } }),
        ...errors(403, 404, 409),
        ...credentialErrors,
        ...bodyErrors,
      },
      metadata: meta('computerToken', 'Computer agent', { bodyLimit: LARGE_BODY_LIMIT, idempotent: true }),
    },
    reportScreen: {
      method: 'PUT',
      path: '/computers/me/screen',
      summary: 'Report the screen (agent)',
      description: "The agent's screen size, at start and whenever it changes; `GET /computers/:id` shows it as `screen`.",
      body: Screen,
      responses: {
        200: z.object({ computer_id: Id('Computer'), screen: Screen }).openapi('ReportedScreen', {
          example: { computer_id: '3f0c8a1e-5b7d-4c2f-9e6a-1d0b2c3e4f5a', screen: { width: 1920, height: 1080 } },
        }),
        ...errors(403),
        ...credentialErrors,
        ...bodyErrors,
      },
      metadata: meta('computerToken', 'Computer agent', { idempotent: true }),
    },
    getComputer: {
      method: 'GET',
      path: '/computers/:id',
      summary: 'Get a computer',
      pathParams: ComputerParams,
      responses: { 200: Computer, ...errors(404), ...mindKeyErrors },
      metadata: user,
    },
    queueCommand: {
      method: 'POST',
      path: '/computers/:id/commands',
      summary: 'Queue a command',
      description:
        "Queues a command for the computer's agent; read its outcome with GET /computers/:id/commands/:cid. 409 for a disabled computer or one with `MIND_MAX_QUEUED_COMMANDS_PER_COMPUTER` commands queued. " +
        "400 for a `zoom` whose region does not lie inside the screen the computer's agent reported (`screen` of GET /computers/:id; the message names the edge it crosses); with no screen reported yet, the agent checks it.",
      pathParams: ComputerParams,
      body: QueueCommandBody,
      responses: { 201: QueuedCommand, ...errors(404, 409), ...mindKeyErrors, ...bodyErrors },
      metadata: user,
    },
    queueCommandFromQuery: {
      method: 'GET',
      path: '/computers/:id/command',
      summary: 'Queue a command from query parameters',
      description:
        'For URL-only tools: `?type=click&x=10&y=20`, `?type=type&text=hi`, `?type=key&keys=ctrl,c`, `?type=scroll&deltaY=300`, `?type=drag&path=10,10;50,40;90,80`. ' +
        "Each type takes its payload's fields by their own names and no others (400 naming a parameter of another type); lists are comma-separated (`keys`, `modifiers`) and a drag's `path` is `x,y` points separated by `;`. " +
        'See QueueCommandBody for what each type takes. As with POST /computers/:id/commands, a `zoom` whose region does not lie inside the screen the agent reported is 400.',
      pathParams: ComputerParams,
      query: QueueCommandQuery,
      responses: { 201: QueuedCommand, ...errors(400, 404, 409), ...mindKeyErrors },
      metadata: meta('mindKeyOrJwt', 'Computers', { writes: true }),
    },
    listCommands: {
      method: 'GET',
      path: '/computers/:id/commands',
      summary: 'Recent commands',
      description:
        `Newest first, at most \`limit\` a page, ${PAGE_BYTES}: pass \`next_cursor\` as \`cursor\` for the next page (null on the last).` +
        ' Results carry no screenshot bytes: a screenshot is `result.screenshot: {bytes, url}`; fetch the PNG from that url.' +
        ' A `cursor` this list did not give is 400 (`cursor_invalid`).',
      pathParams: ComputerParams,
      query: z.object({
        limit: QueryInteger(1, 200).optional().openapi({ description: '1..200, default 20.' }),
        cursor: PageCursor(200),
      }),
      responses: { 200: CommandList, ...errors(400, 404), ...mindKeyErrors },
      metadata: user,
    },
    getCommand: {
      method: 'GET',
      path: '/computers/:id/commands/:cid',
      summary: 'Get a command',
      description: 'With its whole result: a screenshot adds `result.screenshot_b64` (the PNG, base64).',
      pathParams: CommandParams,
      responses: { 200: Command, ...errors(404), ...mindKeyErrors },
      metadata: user,
    },
    getCommandScreenshot: {
      method: 'GET',
      path: '/computers/:id/commands/:cid/screenshot',
      summary: 'The PNG of a command',
      description:
        'The screenshot a finished command carried, as `image/png` bytes. 404 when the command has none (not finished, failed, not a screenshot, or purged).',
      pathParams: CommandParams,
      responses: { 200: c.otherResponse({ contentType: 'image/png', body: c.type<Blob>() }), ...errors(404), ...mindKeyErrors },
      metadata: meta('mindKeyOrJwt', 'Computers', { produces: 'image/png' }),
    },
    cancelCommand: {
      method: 'DELETE',
      path: '/computers/:id/commands/:cid',
      summary: 'Cancel a queued command',
      description: '409 when the command is no longer queued.',
      pathParams: CommandParams,
      responses: { 200: Command, ...errors(404, 409), ...mindKeyErrors },
      metadata: user,
    },
    screenshot: {
      method: 'GET',
      path: '/computers/:id/screenshot',
      summary: 'Take a screenshot',
      description:
        'Queues a screenshot and waits up to 30 seconds for the agent; answers the PNG bytes, scaled down to `max_width` / `max_height` when given (what a computer-use model wants: at most about 1280x800). 504 when the agent does not answer in time (the command becomes `expired`), 502 when the agent reports that it failed, 409 for a disabled computer.',
      pathParams: ComputerParams,
      query: z.object({
        max_width: QueryInteger(16, 100_000)
          .optional()
          .openapi({ description: 'Scale down to at most this width, keeping the aspect ratio.', example: 1280 }),
        max_height: QueryInteger(16, 100_000)
          .optional()
          .openapi({ description: 'Scale down to at most this height, keeping the aspect ratio.', example: 800 }),
      }),
      responses: {
        200: c.otherResponse({ contentType: 'image/png', body: c.type<Blob>() }),
        ...errors(404, 409, 502, 503, 504),
        ...mindKeyErrors,
      },
      metadata: meta('mindKeyOrJwt', 'Computers', { produces: 'image/png', idempotent: false }),
    },
    disableComputer: {
      method: 'POST',
      path: '/computers/:id/disable',
      summary: 'Disable a computer',
      description: "Revokes its token at once (the agent's next call is 401) and keeps the record.",
      pathParams: ComputerParams,
      body: c.noBody(),
      responses: { 200: Computer, ...errors(404), ...mindKeyErrors },
      metadata: meta('mindKeyOrJwt', 'Computers', { idempotent: true }),
    },
    deleteComputer: {
      method: 'DELETE',
      path: '/computers/:id',
      summary: 'Delete a computer',
      description: 'Removes the computer and its commands permanently.',
      pathParams: ComputerParams,
      responses: { 204: c.noBody(), ...errors(404), ...mindKeyErrors },
      metadata: user,
    },
  },
  routerOptions({}),
);
