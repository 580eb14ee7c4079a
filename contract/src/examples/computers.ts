import { example, fieldExample, notFound, type RouteErrors } from './shared.js';

const DISABLED_COMPUTER = 'This computer is disabled; it takes no commands';
const QUEUE_FULL =
  'This computer already has 100 commands queued, the most it may have (MIND_MAX_QUEUED_COMMANDS_PER_COMPUTER); wait until its agent takes some or cancel some';
const COMPUTERS_CAP =
  'This account already has 100 computers, the most it may have (MIND_MAX_COMPUTERS_PER_USER); delete one with DELETE /computers/:id first';

/** The computers routes' own causes of their error statuses. */
export const COMPUTERS_ERRORS: Record<string, RouteErrors> = {
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
