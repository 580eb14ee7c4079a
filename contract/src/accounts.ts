import { bodyErrors, c, errors, Id, meta, NonBlank, routerOptions, Timestamp } from './common.js';
import { trimmed } from './patterns.js';
import { z } from './zod.js';

/**
 * The address the document's register and login examples use: not the quickstart's (ada@example.com),
 * so trying POST /register in Swagger UI after the quickstart creates an account (a second try is the 409).
 */
export const EXAMPLE_EMAIL = 'new-user@example.com';
const EXAMPLE_JWT =
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIwYjZmNWE2Mi0zZjVlLTRlOGUtOWE1Mi0yYzdkM2YzZjFhMTAiLCJpYXQiOjE3OTUzMTE1ODIsImV4cCI6MTc5NTkxNjM4Mn0.8PI2swCPv-yHL5VBdZ6OjD_r0y-YGjKikTlEAuPL86E';

/** The addresses zod's `email()` accepts, as a pattern the document can state. */
const EMAIL = trimmed(String.raw`(?:[A-Za-z0-9_'+-]+\.)*[A-Za-z0-9_'+-]*[A-Za-z0-9_+-]@(?:[A-Za-z0-9][A-Za-z0-9-]*\.)+[A-Za-z]{2,}`);

export const User = z
  .object({
    id: Id('User'),
    email: z.string().openapi({ example: EXAMPLE_EMAIL }),
    display_name: z.string().nullable().openapi({ description: 'Name shown to people, or null.', example: 'Ada' }),
    created_at: Timestamp('When the account was created'),
  })
  .openapi('User');
export type User = z.infer<typeof User>;

export const AuthResponse = z
  .object({
    jwt: z
      .string()
      .openapi({ description: 'Account token (HS256, valid 7 days). Send as `Authorization: Bearer <jwt>`.', example: EXAMPLE_JWT }),
    user: User,
  })
  .openapi('AuthResponse');
export type AuthResponse = z.infer<typeof AuthResponse>;

export const RegisterBody = z
  .object({
    email: z
      .string()
      .trim()
      .max(254)
      // The same addresses as zod's email(), as a pattern the document states.
      .regex(new RegExp(EMAIL), 'must be an email address such as name@example.com')
      .openapi({
        pattern: EMAIL,
        format: 'email',
        description: 'An email address (as zod reads one: `name@example.com`); unique regardless of letter case.',
        example: EXAMPLE_EMAIL,
      }),
    password: z
      .string()
      .min(6, 'must be at least 6 characters')
      .openapi({ description: 'At least 6 characters, no maximum; every character counts.', example: 'correct horse battery' }),
    display_name: NonBlank(200).optional().openapi({ example: 'Ada' }),
  })
  .openapi('RegisterBody');
export type RegisterBody = z.infer<typeof RegisterBody>;

export const LoginBody = z
  .object({
    email: NonBlank(254).openapi({ example: EXAMPLE_EMAIL }),
    password: z.string().min(1).openapi({ example: 'correct horse battery' }),
  })
  .openapi('LoginBody');
export type LoginBody = z.infer<typeof LoginBody>;

export const accountsContract = c.router(
  {
    register: {
      method: 'POST',
      path: '/register',
      summary: 'Create an account',
      description: 'Registers a user and returns a JWT for the account routes. Emails are unique regardless of letter case.',
      body: RegisterBody,
      responses: { 201: AuthResponse, ...errors(409), ...bodyErrors },
      metadata: meta('none', 'Accounts'),
    },
    login: {
      method: 'POST',
      path: '/login',
      summary: 'Log in',
      description:
        'Exchanges email and password for a new JWT (valid 7 days). Wrong credentials answer 401 without saying which part was wrong.',
      body: LoginBody,
      responses: { 200: AuthResponse, ...errors(401, 429), ...bodyErrors },
      metadata: meta('none', 'Accounts', { idempotent: true }),
    },
  },
  routerOptions({}),
);
