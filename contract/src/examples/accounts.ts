import { EXAMPLE_EMAIL } from '../accounts.js';
import { example, type RouteErrors } from './shared.js';

/** The accounts routes' own causes of their error statuses. */
export const ACCOUNTS_ERRORS: Record<string, RouteErrors> = {
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
};
