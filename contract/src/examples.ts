// The examples of the document's answers that the schemas' own examples cannot give: every error
// status of every route with what the server answers there, and answers of one schema under two
// statuses. The server writes these messages itself (it cannot import them from here: the contract
// is the lower layer); server/test/openapi.error-examples.test.ts provokes them on a real server and
// compares.
import { EXAMPLE_EMAIL } from './accounts.js';
import { EXAMPLE_AUTH_DOCS_URL, type ErrorObject, MB } from './common.js';
import { bodyLimitOf, type ContractRoute } from './routes.js';
import type { z } from './zod.js';

export interface NamedExample {
  summary: string;
  value: unknown;
  /** Kept once under `components.examples` by this name, for an example many routes answer alike. */
  component?: string;
}

/** The server's messages that several routes answer (the same text as in server/src/http). */
export const ERROR_MESSAGES = {
  unauthorized: 'Mind Key fehlt oder ungültig.',
  rateLimited: 'Rate limit exceeded. Use Authorization header for unlimited access.',
  mindDisabled: 'This mind is disabled. Its data is kept; the operator can enable it again.',
  internal: 'Internal server error. The request id identifies it in the server log.',
  shuttingDown: 'The service is shutting down. Retry in a few seconds.',
  databaseBusy: 'The database is busy. Retry in a few seconds.',
} as const;

/** `http.STATUS_CODES`' names (the contract runs in browsers too, so not imported from node). */
const STATUS_NAMES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  409: 'Conflict',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  501: 'Not Implemented',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

type Detail = { path: string; message: string };
type Extra = { docs?: string; details?: Detail[] };

const errorObject = (statusCode: number, message: string, extra: Extra = {}): ErrorObject => {
  const name = STATUS_NAMES[statusCode];
  if (!name) throw new Error(`no status name for ${statusCode}`);
  return { statusCode, error: name, message, ...extra };
};
const example = (summary: string, statusCode: number, message: string, extra?: Extra, component?: string): NamedExample => ({
  summary,
  value: errorObject(statusCode, message, extra),
  ...(component ? { component } : {}),
});
/** A field problem found by a service rather than by the schema (`path: message`, one detail). */
const fieldExample = (summary: string, statusCode: number, path: string, message: string, component?: string) =>
  example(summary, statusCode, `${path}: ${message}`, { details: [{ path, message }] }, component);

/**
 * How a route is made to answer 400, for its example: one part of the request (`body`, or the
 * `query` as the strings a query string gives) that its own schema refuses, the example being the
 * server's answer to it; or a rule the service checks after the schema (`example`, with `request`
 * saying how the test provokes it).
 */
export type BadRequest =
  | { summary: string; body: unknown; query?: undefined; example?: undefined }
  | { summary: string; query: Record<string, string>; body?: undefined; example?: undefined }
  | { summary: string; example: NamedExample; body?: undefined; query?: undefined };

const DISABLED_COMPUTER = 'This computer is disabled; it takes no commands';
const QUEUE_FULL =
  'This computer already has 100 commands queued, the most it may have (MIND_MAX_QUEUED_COMMANDS_PER_COMPUTER); wait until its agent takes some or cancel some';
const COMPUTERS_CAP =
  'This account already has 100 computers, the most it may have (MIND_MAX_COMPUTERS_PER_USER); delete one with DELETE /computers/:id first';
const DUPLICATE_WEBHOOK_URL = 'A webhook with this url already exists in this mind';
const notFound = (what: string, summary?: string) =>
  summary
    ? example(summary, 404, `${what} not found`)
    : example(`No such ${what.toLowerCase()} (or another's)`, 404, `${what} not found`, undefined, `${what}NotFound`);

interface RouteErrors {
  400?: BadRequest;
  /** Replaces the 401 of the route's credential kind. */
  401?: NamedExample[];
  /** After the disabled mind's 403, which every route taking a Mind Key or a Computer Token has. */
  403?: NamedExample[];
  404?: NamedExample[];
  409?: NamedExample[];
  /** Added to the 413 of the route's body limit. */
  413?: NamedExample[];
  429?: NamedExample[];
  502?: NamedExample[];
  /** Added to the shared 503s. */
  503?: NamedExample[];
  504?: NamedExample[];
}

/** Per route (`area.name`): its own causes of each error status. Statuses every route shares are made below. */
const ROUTE_ERRORS: Record<string, RouteErrors> = {
  'accounts.register': {
    400: { summary: 'An email address that is not one', body: { email: 'new-user@example', password: 'correct horse battery' } },
    409: [example('The email is registered already', 409, `An account with the email ${EXAMPLE_EMAIL} already exists`)],
  },
  'accounts.login': {
    400: { summary: 'No password', body: { email: EXAMPLE_EMAIL } },
    401: [example('Wrong email or password (which one is not said)', 401, 'Email or password is wrong.')],
    429: [
      example('Too many failed logins from this address', 429, 'Too many failed logins from this address. Try again in 15 minutes.'),
      example('Too many failed logins for this account', 429, 'Too many failed logins for this account. Try again in 15 minutes.'),
    ],
  },
  'minds.createMind': {
    400: { summary: 'No name', body: { description: 'Keeps notes for the literature review' } },
    409: [
      example('The user has MIND_MAX_MINDS_PER_USER minds', 409, 'A user can have at most 100 minds; delete one before creating another'),
    ],
  },
  'minds.deleteMind': {
    403: [example("Another user's mind", 403, 'This mind belongs to another user')],
    404: [notFound('Mind', 'No such mind')],
  },
  'tasks.listTasks': { 400: { summary: 'A status that does not exist', query: { status: 'open' } } },
  'tasks.createTask': { 400: { summary: 'No title', body: { priority: 'high' } } },
  'tasks.createTaskFromQuery': { 400: { summary: 'No title', query: { priority: 'high' } } },
  'tasks.getTask': { 404: [notFound('Task')] },
  'tasks.updateTask': { 400: { summary: 'A status that does not exist', body: { status: 'finished' } }, 404: [notFound('Task')] },
  'tasks.completeTask': { 404: [notFound('Task')] },
  'tasks.deleteTask': { 404: [notFound('Task')] },
  'memories.storeMemory': {
    400: { summary: 'A category that does not exist', body: { category: 'hobby', content: 'Plays the cello on Sundays.' } },
  },
  'memories.recallMemories': { 400: { summary: 'A limit over 100', query: { limit: '500' } } },
  'memories.exportMind': {
    400: {
      summary: 'A JWT without mind_id',
      example: fieldExample('A JWT without mind_id', 400, 'query.mind_id', 'is required with a JWT (which of your minds to export)'),
    },
    403: [
      example(
        'include_credentials with a Mind Key',
        403,
        "include_credentials=true needs the owning human's JWT (with mind_id), not a Mind Key",
      ),
    ],
    404: [notFound('Mind', "A mind_id that is not one of the caller's minds")],
  },
  'memories.importMind': {
    400: {
      summary: 'A document that is not a mind-export/1',
      body: {
        format: 'mind-export/2',
        exported_at: '2026-11-22T01:29:42.123Z',
        memories: [],
        tasks: [],
        chat: [],
        scripts: [],
        webhooks: [],
      },
    },
    409: [
      example(
        'Another write collided with the import twice (it is planned again once)',
        409,
        'The mind changed while this import was being written, so nothing was imported. Send the import again.',
      ),
    ],
    413: [
      example(
        'More items than MIND_IMPORT_MAX_ITEMS',
        413,
        'body: the document holds 100,001 items (memories, tasks, chat messages, scripts and webhooks together); one import takes at most 100,000 (MIND_IMPORT_MAX_ITEMS). Split it into documents of at most that many items and import them one after another (with mode=replace, only the first; the rest with mode=merge).',
      ),
    ],
    429: [
      example('Over 60 `?key=` requests a minute', 429, ERROR_MESSAGES.rateLimited, undefined, 'KeyRateLimit'),
      example(
        "Over the account's imports at a time",
        429,
        'This account is importing 100,000 items already; an account imports at most 100,000 at a time (MIND_IMPORT_CONCURRENCY_PER_USER=1 imports of up to MIND_IMPORT_MAX_ITEMS=100,000 items; a small import counts as 1,000). Retry when its imports have answered.',
      ),
      example(
        "Over the server's imports at a time",
        429,
        'The server is importing 200,000 items already; it imports at most 200,000 at a time (MIND_IMPORT_CONCURRENCY=2 imports of up to MIND_IMPORT_MAX_ITEMS=100,000 items). Retry in a few seconds.',
      ),
    ],
  },
  'memories.getMemory': { 404: [notFound('Memory')] },
  'memories.updateMemory': {
    400: { summary: 'Empty content', body: { content: '' } },
    404: [notFound('Memory')],
    409: [
      example(
        'Another memory of the mind has this category and key',
        409,
        'body.key: another memory of this mind already has the key "writing-style" in preference',
      ),
    ],
  },
  'memories.deleteMemory': { 404: [notFound('Memory')] },
  'memories.verifyMemory': {
    403: [
      example(
        'A Mind Key (verifying needs the human)',
        403,
        "Verifying a memory needs the owning human's JWT (Authorization: Bearer <JWT>), not a Mind Key",
      ),
    ],
    404: [notFound('Memory')],
  },
  'memories.unverifyMemory': {
    403: [
      example(
        'A Mind Key (unverifying needs the human)',
        403,
        "Unverifying a memory needs the owning human's JWT (Authorization: Bearer <JWT>), not a Mind Key",
      ),
    ],
    404: [notFound('Memory')],
  },
  'memories.postChatMessage': { 400: { summary: 'A role that does not exist', body: { role: 'user', content: 'Hello' } } },
  'memories.listChatMessages': {
    400: { summary: 'A limit of 0', query: { limit: '0' } },
    404: [notFound('Message given as `before`', 'A `before` that is no message of this mind')],
  },
  'memories.listScripts': { 400: { summary: 'A limit that is not a number', query: { limit: 'ten' } } },
  'memories.createScript': {
    400: { summary: 'No content', body: { name: 'fetch-arxiv' } },
    409: [example('The mind has a script of this name', 409, 'body.name: this mind already has a script named "fetch-arxiv"')],
  },
  'memories.getScript': { 404: [notFound('Script')] },
  'memories.updateScript': {
    400: { summary: 'Nothing to change', body: {} },
    404: [notFound('Script')],
    409: [example('Another script of the mind has this name', 409, 'body.name: this mind already has a script named "fetch-arxiv"')],
  },
  'memories.deleteScript': { 404: [notFound('Script')] },
  'webhooks.createWebhook': {
    400: {
      summary: 'A secret shorter than 8 characters',
      body: { url: 'https://example.com/hooks/mind', events: 'task.*', secret: 'short' },
    },
    409: [
      example('The mind has a webhook with this url', 409, DUPLICATE_WEBHOOK_URL),
      example('The mind has 20 webhooks', 409, 'A mind can have at most 20 webhooks; delete one before adding another'),
    ],
  },
  'webhooks.getWebhook': { 404: [notFound('Webhook')] },
  'webhooks.updateWebhook': {
    400: { summary: '`enabled` that is not a boolean', body: { enabled: 'yes' } },
    404: [notFound('Webhook')],
    409: [example('Another webhook of the mind has this url', 409, DUPLICATE_WEBHOOK_URL)],
  },
  'webhooks.enableWebhook': { 404: [notFound('Webhook')] },
  'webhooks.disableWebhook': { 404: [notFound('Webhook')] },
  'webhooks.testWebhook': {
    404: [notFound('Webhook')],
    409: [example('The webhook is disabled', 409, 'The webhook is disabled; enable it before sending a test event')],
  },
  'webhooks.deleteWebhook': { 404: [notFound('Webhook')] },
  'webhooks.listDeliveries': { 400: { summary: 'A limit over 100', query: { limit: '1000' } }, 404: [notFound('Webhook')] },
  'webhooks.redeliver': {
    404: [notFound('Webhook'), notFound('Delivery', 'No such delivery of this webhook')],
    409: [example('The webhook is disabled', 409, 'The webhook is disabled; enable it before redelivering')],
  },
  'computers.createInstallCode': {
    400: { summary: 'A blank computer name', body: { computer_name: '   ' } },
    404: [notFound('Mind', "A mind_id that is not one of the caller's minds (or not the Mind Key's own)")],
    409: [
      example(
        'The mind has MIND_MAX_INSTALL_CODES_PER_MIND open codes',
        409,
        'This mind already has 20 open install codes, the most it may have (MIND_MAX_INSTALL_CODES_PER_MIND); use one or wait until they expire (15 minutes)',
      ),
      example('The account has MIND_MAX_COMPUTERS_PER_USER computers', 409, COMPUTERS_CAP),
    ],
  },
  'computers.registerComputer': {
    400: {
      summary: 'No python (the agent runtime version)',
      body: { code: 'K7QM-4XHP', computer_name: 'office-desktop', platform: 'linux', platform_release: '6.1.0-28-amd64' },
    },
    409: [example('The account has MIND_MAX_COMPUTERS_PER_USER computers', 409, COMPUTERS_CAP)],
    429: [
      example(
        'Too many refused install codes from this address',
        429,
        'Too many failed registrations from this address. Try again in 15 minutes.',
      ),
    ],
  },
  'computers.pollCommands': { 400: { summary: 'A wait over 60 seconds', query: { wait: '120' } } },
  'computers.postCommandResult': {
    400: { summary: 'A status that does not exist', body: { status: 'ok' } },
    404: [notFound('Command', "No such command (or another computer's)")],
    409: [example('The command is finished', 409, 'This command is already done; its result cannot change')],
    413: [
      example(
        'A result over MIND_MAX_RESULT_BYTES besides the screenshot',
        413,
        'body.result: 70000 bytes of JSON besides the screenshot; at most 65536 are kept (MIND_MAX_RESULT_BYTES). Send a PNG as result.screenshot_b64.',
        { details: [{ path: 'body.result', message: 'at most 65536 bytes of JSON (MIND_MAX_RESULT_BYTES)' }] },
      ),
    ],
  },
  'computers.getComputer': { 404: [notFound('Computer')] },
  'computers.queueCommand': {
    400: { summary: 'A click without y', body: { type: 'click', payload: { x: 640 } } },
    404: [notFound('Computer')],
    409: [example('The computer is disabled', 409, DISABLED_COMPUTER), example('The queue is full', 409, QUEUE_FULL)],
  },
  'computers.queueCommandFromQuery': {
    400: {
      summary: 'A parameter of another type',
      example: fieldExample(
        'A parameter of another type',
        400,
        'query.text',
        'is not a parameter of type `click` (it takes x, y, button, double)',
      ),
    },
    404: [notFound('Computer')],
    409: [example('The computer is disabled', 409, DISABLED_COMPUTER), example('The queue is full', 409, QUEUE_FULL)],
  },
  'computers.listCommands': { 400: { summary: 'A limit over 200', query: { limit: '500' } }, 404: [notFound('Computer')] },
  'computers.getCommand': { 404: [notFound('Computer'), notFound('Command', 'No such command of this computer')] },
  'computers.getCommandScreenshot': {
    404: [
      notFound('Computer'),
      notFound('Command', 'No such command of this computer'),
      example('The command carries no screenshot', 404, 'Screenshot not found: this click command (done) carries no screenshot'),
    ],
  },
  'computers.cancelCommand': {
    404: [notFound('Computer'), notFound('Command', 'No such command of this computer')],
    409: [example('The command is no longer queued', 409, 'Only a queued command can be cancelled; this one is sent')],
  },
  'computers.screenshot': {
    404: [notFound('Computer')],
    409: [
      example('The computer is disabled', 409, DISABLED_COMPUTER),
      example('The queue is full', 409, QUEUE_FULL),
      example('The screenshot was cancelled while waiting', 409, 'The screenshot command was cancelled'),
    ],
    502: [example('The agent reported a failure', 502, 'The agent could not take the screenshot: cannot open display :0')],
    503: [example('The service began shutting down while waiting', 503, 'The service is shutting down; try again shortly')],
    504: [
      example(
        'No screenshot within 30 seconds',
        504,
        'The computer did not send a screenshot within 30 s. Is its agent running? GET /computers/:id shows whether it is online.',
      ),
    ],
  },
  'computers.disableComputer': { 404: [notFound('Computer')] },
  'computers.deleteComputer': { 404: [notFound('Computer')] },
};

const CREDENTIAL_NAMES = { mindKey: 'a Mind Key', jwt: 'a JWT', computerToken: 'a Computer Token' } as const;
const ACCEPTS = {
  none: [],
  jwt: ['jwt'],
  mindKey: ['mindKey'],
  mindKeyOrJwt: ['mindKey', 'jwt'],
  computerToken: ['computerToken'],
} as const;

/** The server's 401 for a request without a credential: the spec's message, the guide, and what the route takes. */
function missingCredential({ metadata }: ContractRoute): NamedExample {
  const accepts: readonly (keyof typeof CREDENTIAL_NAMES)[] = ACCEPTS[metadata.auth];
  const wanted = accepts.map((kind) => CREDENTIAL_NAMES[kind]).join(' or ');
  const hint = `this route needs ${wanted}${accepts.includes('mindKey') ? ' (header or `?key=`)' : ''}`;
  const component = `No${accepts.map((kind) => kind[0]!.toUpperCase() + kind.slice(1)).join('Or')}`;
  return example(
    'No credential',
    401,
    ERROR_MESSAGES.unauthorized,
    { docs: EXAMPLE_AUTH_DOCS_URL, details: [{ path: 'headers.authorization', message: hint }] },
    component,
  );
}

/** The server's 400 for one part of a request its schema refuses: each issue as `location.path: message`. */
export function validationExample(summary: string, location: 'body' | 'query', schema: z.ZodTypeAny, input: unknown): NamedExample {
  const result = schema.safeParse(input);
  if (result.success) throw new Error(`the 400 example's ${location} is valid: ${JSON.stringify(input)}`);
  const details = result.error.issues.map((issue) => ({
    path: [location, ...issue.path].join('.'),
    message: issue.message === 'Required' ? 'is required' : issue.message,
  }));
  return example(summary, 400, details.map((d) => `${d.path}: ${d.message}`).join('; '), { details });
}

/** What makes a route answer 400 (see BadRequest); routes reading only path parameters: one that is not valid percent-encoding. */
export function badRequestOf(entry: ContractRoute): BadRequest {
  const declared = ROUTE_ERRORS[entry.key]?.[400];
  if (declared) return declared;
  const { route } = entry;
  const name = /:(\w+)/.exec(route.path)?.[1];
  if (!name || route.query || ('body' in route && bodyLimitOf(route) > 0)) {
    throw new Error(`${entry.key}: its 400 example needs a request its schema refuses (ROUTE_ERRORS)`);
  }
  return {
    summary: 'A path parameter that is not valid percent-encoding',
    example: fieldExample(
      'A path parameter that is not valid percent-encoding',
      400,
      `params.${name}`,
      'is not valid percent-encoding',
      `BadPercentEncoding-${name}`,
    ),
  };
}

function badRequestExample(entry: ContractRoute): NamedExample {
  const bad = badRequestOf(entry);
  if (bad.example) return bad.example;
  const { route } = entry;
  if (bad.body !== undefined) return validationExample(bad.summary, 'body', (route as { body: z.ZodTypeAny }).body, bad.body);
  if (!route.query) throw new Error(`${entry.key}: a 400 query example on a route without a query`);
  return validationExample(bad.summary, 'query', route.query as z.ZodTypeAny, bad.query);
}

const own = (entry: ContractRoute, status: keyof RouteErrors) => (ROUTE_ERRORS[entry.key]?.[status] ?? []) as NamedExample[];
const takesMindKey = (entry: ContractRoute) => entry.metadata.auth === 'mindKey' || entry.metadata.auth === 'mindKeyOrJwt';

/** The examples of one error status of a route: what the server answers there, each cause its own example. */
export function errorExamples(entry: ContractRoute, status: number): NamedExample[] {
  const required = (list: NamedExample[]) => {
    if (list.length === 0) throw new Error(`${entry.key}: no example for its ${status} (contract/src/examples.ts)`);
    return list;
  };
  switch (status) {
    case 400:
      return [badRequestExample(entry)];
    case 401:
      return ROUTE_ERRORS[entry.key]?.[401] ?? [missingCredential(entry)];
    case 403: {
      const disabled =
        takesMindKey(entry) || entry.metadata.auth === 'computerToken'
          ? [example("The credential's mind is disabled", 403, ERROR_MESSAGES.mindDisabled, undefined, 'MindDisabled')]
          : [];
      return required([...disabled, ...own(entry, 403)]);
    }
    case 413: {
      const limit = bodyLimitOf(entry.route);
      const mb = `${Math.round(limit / MB)} MB`;
      return [
        example(`A body over ${mb}`, 413, `Request body is larger than ${mb}`, undefined, `BodyOver${mb.replace(' ', '')}`),
        ...own(entry, 413),
      ];
    }
    case 415:
      return [
        example(
          'A charset other than UTF-8',
          415,
          'Unsupported request body encoding: unsupported charset "LATIN1"',
          undefined,
          'UnsupportedCharset',
        ),
        example(
          'A Content-Encoding other than gzip, deflate or br',
          415,
          'Unsupported request body encoding: unsupported content encoding "compress"',
          undefined,
          'UnsupportedContentEncoding',
        ),
      ];
    case 429:
      return required(
        ROUTE_ERRORS[entry.key]?.[429] ??
          (takesMindKey(entry)
            ? [example('Over 60 `?key=` requests a minute', 429, ERROR_MESSAGES.rateLimited, undefined, 'KeyRateLimit')]
            : []),
      );
    case 500:
      return [example('An unexpected failure', 500, ERROR_MESSAGES.internal, undefined, 'InternalError')];
    case 503:
      return [
        example('The service is shutting down', 503, ERROR_MESSAGES.shuttingDown, undefined, 'ShuttingDown'),
        example('The database is busy', 503, ERROR_MESSAGES.databaseBusy, undefined, 'DatabaseBusy'),
        ...own(entry, 503),
      ];
    case 404:
    case 409:
    case 502:
    case 504:
      return required(own(entry, status));
    default:
      throw new Error(`${entry.key}: no examples for status ${status}`);
  }
}

/** Route keys the table names: each must be a route of the contract. */
export const routesWithOwnErrors = () => Object.keys(ROUTE_ERRORS);

const HEALTH = { version: '0.1.0', uptime_s: 3600 };
/** POST /memory's answer; an update differs only in its older created_at. */
const STORED_MEMORY = {
  id: '5d1c7e0a-8f7b-4c3e-9a1d-2b6e4f8c0a11',
  category: 'preference',
  key: 'writing-style',
  content: 'Prefers short sentences and British spelling.',
  tags: ['writing', 'style'],
  verified: false,
  verified_at: null,
  source: 'chat 2026-11-20',
  created_at: '2026-11-22T01:29:42.123Z',
  updated_at: '2026-11-22T01:29:42.123Z',
};

/** Answers whose schema another status of the route shares: each status its own example. */
const SHARED_SCHEMA_EXAMPLES: Record<string, Record<number, NamedExample[]>> = {
  'system.health': {
    200: [{ summary: 'Ready', value: { status: 'ok', ...HEALTH, database: 'ok' } }],
    503: [
      { summary: 'The database does not answer', value: { status: 'unavailable', ...HEALTH, database: 'unreachable' } },
      { summary: 'Shutting down', value: { status: 'draining', ...HEALTH, database: 'ok' } },
    ],
  },
  'memories.storeMemory': {
    200: [
      {
        summary: 'Updated: the mind had a memory of this category and key',
        value: { ...STORED_MEMORY, created_at: '2026-11-20T10:02:11.000Z' },
      },
    ],
    201: [
      {
        summary: 'Created',
        value: STORED_MEMORY,
      },
    ],
  },
};

/** A success answer's own examples, when its schema's examples would show the same for two statuses. */
export const successExamples = (entry: ContractRoute, status: number): NamedExample[] => SHARED_SCHEMA_EXAMPLES[entry.key]?.[status] ?? [];
