import { ERROR_MESSAGES } from '../errors/messages.js';
import { example, fieldExample, notFound, type RouteErrors } from './shared.js';

const DISABLED_COMPUTER = example('The computer is disabled', 'computer_disabled', ERROR_MESSAGES.computerDisabled);
const QUEUE_FULL = example('The queue is full', 'command_queue_full', ERROR_MESSAGES.commandQueueFull(100));
const COMPUTERS_CAP = example(
  'The account has MIND_MAX_COMPUTERS_PER_USER computers',
  'computers_limit_reached',
  ERROR_MESSAGES.computersLimitReached(100),
);
const MIND_SHARE = example(
  'The mind has MIND_MAX_COMPUTERS_PER_MIND computers and open codes of its Mind Key',
  'mind_computers_limit_reached',
  ERROR_MESSAGES.mindComputersLimitReached(10),
);
const NO_COMMAND = notFound('Command', 'No such command of this computer');

/** The computers routes' own causes of their error statuses. */
export const COMPUTERS_ERRORS: Record<string, RouteErrors> = {
  'computers.createInstallCode': {
    400: { summary: 'A blank computer name', body: { computer_name: '   ' } },
    404: [notFound('Mind', "A mind_id that is not one of the caller's minds (or not the Mind Key's own)")],
    409: [
      example(
        'The mind has MIND_MAX_INSTALL_CODES_PER_MIND open codes',
        'install_codes_limit_reached',
        ERROR_MESSAGES.installCodesLimitReached('This mind', 20),
      ),
      COMPUTERS_CAP,
      MIND_SHARE,
    ],
  },
  'computers.registerComputer': {
    400: {
      summary: 'No python (the agent runtime version)',
      body: { code: 'K7QM-4XHP', computer_name: 'office-desktop', platform: 'linux', platform_release: '6.1.0-28-amd64' },
    },
    409: [COMPUTERS_CAP, MIND_SHARE],
    429: [
      example(
        'Too many refused install codes from this address',
        'registration_attempts_exceeded',
        'Too many failed registrations from this address. Try again in 15 minutes.',
      ),
    ],
    codes: ['install_code_unknown', 'install_code_used', 'install_code_expired'],
  },
  'computers.pollCommands': { 400: { summary: 'A wait over 60 seconds', query: { wait: '120' } } },
  'computers.postCommandResult': {
    400: { summary: 'A status that does not exist', body: { status: 'ok' } },
    404: [notFound('Command', "No such command (or another computer's)")],
    409: [example('The command is finished', 'command_finished', ERROR_MESSAGES.commandFinished('done'))],
    413: [
      example(
        'A result over MIND_MAX_RESULT_BYTES besides the screenshot',
        'result_too_large',
        ERROR_MESSAGES.resultTooLarge(70_000, 65_536),
        { details: [{ path: 'body.result', message: ERROR_MESSAGES.resultTooLargeDetail(65_536) }] },
      ),
    ],
  },
  'computers.reportScreen': { 400: { summary: 'A screen without a height', body: { width: 1920 } } },
  'computers.getComputer': { 404: [notFound('Computer')] },
  'computers.queueCommand': {
    400: { summary: 'A click without y', body: { type: 'click', payload: { x: 640 } } },
    404: [notFound('Computer')],
    409: [DISABLED_COMPUTER, QUEUE_FULL],
  },
  'computers.queueCommandFromQuery': {
    400: {
      summary: 'A parameter of another type',
      example: fieldExample(
        'A parameter of another type',
        'query.text',
        'is not a parameter of type `click` (it takes x, y, button, double, count, modifiers)',
      ),
    },
    404: [notFound('Computer')],
    409: [DISABLED_COMPUTER, QUEUE_FULL],
  },
  'computers.listComputers': { 400: { summary: 'A limit over 100', query: { limit: '500' } }, codes: ['cursor_invalid'] },
  'computers.listCommands': {
    400: { summary: 'A limit over 200', query: { limit: '500' } },
    404: [notFound('Computer')],
    codes: ['cursor_invalid'],
  },
  'computers.getCommand': { 404: [notFound('Computer'), NO_COMMAND] },
  'computers.getCommandScreenshot': {
    404: [
      notFound('Computer'),
      NO_COMMAND,
      example('The command carries no screenshot', 'screenshot_not_found', ERROR_MESSAGES.screenshotNotFound('click', 'done')),
    ],
  },
  'computers.cancelCommand': {
    404: [notFound('Computer'), NO_COMMAND],
    409: [example('The command is no longer queued', 'command_not_queued', ERROR_MESSAGES.commandNotQueued('sent'))],
  },
  'computers.screenshot': {
    400: { summary: 'A max_width under 16', query: { max_width: '8' } },
    404: [notFound('Computer')],
    409: [
      DISABLED_COMPUTER,
      QUEUE_FULL,
      example('The screenshot was cancelled while waiting', 'command_cancelled', ERROR_MESSAGES.screenshotCancelled),
    ],
    502: [example('The agent reported a failure', 'agent_failed', ERROR_MESSAGES.agentFailed('cannot open display :0'))],
    503: [example('The service began shutting down while waiting', 'shutting_down', ERROR_MESSAGES.shuttingDown)],
    504: [example('No screenshot within 30 seconds', 'screenshot_timeout', ERROR_MESSAGES.screenshotTimeout('30 s'))],
  },
  'computers.disableComputer': { 404: [notFound('Computer')] },
  'computers.deleteComputer': { 404: [notFound('Computer')] },
};
