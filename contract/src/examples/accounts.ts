import { EXAMPLE_EMAIL } from '../accounts.js';
import { ERROR_MESSAGES } from '../errors/messages.js';
import { example, type RouteErrors } from './shared.js';

/** The accounts routes' own causes of their error statuses. */
export const ACCOUNTS_ERRORS: Record<string, RouteErrors> = {
  'accounts.register': {
    400: { summary: 'An email address that is not one', body: { email: 'new-user@example', password: 'correct horse battery' } },
    409: [example('The email is registered already', 'email_taken', ERROR_MESSAGES.emailTaken(EXAMPLE_EMAIL))],
  },
  'accounts.login': {
    400: { summary: 'No password', body: { email: EXAMPLE_EMAIL } },
    401: [example('Wrong email or password (which one is not said)', 'login_failed', ERROR_MESSAGES.loginFailed)],
    429: [
      example(
        'Too many failed logins from this address',
        'login_attempts_exceeded',
        'Too many failed logins from this address. Try again in 15 minutes.',
      ),
      example(
        'Too many failed logins for this account',
        'login_attempts_exceeded',
        'Too many failed logins for this account. Try again in 15 minutes.',
      ),
    ],
  },
};
