// The signed-in person: the JWT and email in sessionStorage (this tab only, gone when it closes; never in
// a URL), and the console keys this tab made: a short-lived Mind Key of source `console` per mind opened,
// since the API reads a mind's tasks, memories, chat, scripts and webhooks with a Mind Key only.
import { MindClient, UnauthorizedError } from '@mindservice/sdk/browser';

const JWT = 'mind-console.jwt';
const EMAIL = 'mind-console.email';
const KEYS = 'mind-console.console-keys';

export interface Session {
  jwt: string;
  email: string;
}

/** The service the page came from: the console talks to no other. */
const baseUrl = () => window.location.origin;

export function loadSession(): Session | undefined {
  const jwt = sessionStorage.getItem(JWT);
  const email = sessionStorage.getItem(EMAIL);
  return jwt && email ? { jwt, email } : undefined;
}

export function saveSession(session: Session): void {
  sessionStorage.setItem(JWT, session.jwt);
  sessionStorage.setItem(EMAIL, session.email);
}

export function clearSession(): void {
  sessionStorage.removeItem(JWT);
  sessionStorage.removeItem(EMAIL);
  sessionStorage.removeItem(KEYS);
}

/** A key the console made for itself to read and change one mind; it expires within the hour. */
export interface ConsoleKey {
  id: string;
  secret: string;
  expiresAt: string;
}

/** A console key this close to its expiry is replaced rather than used. */
export const CONSOLE_KEY_MARGIN_MS = 5 * 60 * 1000;

function consoleKeys(): Record<string, ConsoleKey> {
  try {
    return JSON.parse(sessionStorage.getItem(KEYS) ?? '{}') as Record<string, ConsoleKey>;
  } catch {
    return {};
  }
}

/** Every console key this tab holds, by mind. */
export const heldConsoleKeys = (): Array<[mindId: string, key: ConsoleKey]> => Object.entries(consoleKeys());

/** The mind's console key this tab holds, whatever its expiry. */
export const consoleKeyOf = (mindId: string): ConsoleKey | undefined => consoleKeys()[mindId];

export function rememberConsoleKey(mindId: string, key: ConsoleKey | undefined): void {
  const all = consoleKeys();
  if (key) all[mindId] = key;
  else delete all[mindId];
  sessionStorage.setItem(KEYS, JSON.stringify(all));
}

/** A client without credentials: register and sign in. */
export const anonymousClient = () => new MindClient({ baseUrl: baseUrl(), maxRetries: 1 });

/** The person's client (JWT), with the mind's console key when there is one. */
export const clientFor = (session: Session, mindKey?: string) =>
  new MindClient({ baseUrl: baseUrl(), jwt: session.jwt, mindKey, maxRetries: 1 });

/** A 401 for the JWT: expired (7 days), or its account gone. */
export const isSessionEnded = (err: unknown) =>
  err instanceof UnauthorizedError && (err.code === 'jwt_expired' || err.code === 'jwt_invalid' || err.code === 'credential_missing');

/**
 * A 401 for a Mind Key: unknown, revoked (maybe in the Keys tab), expired (a tab asleep past the hour), or
 * its mind deleted (the JWT is the service's own, never malformed).
 */
export const isMindKeyRefused = (err: unknown) =>
  err instanceof UnauthorizedError &&
  (err.code === 'mind_key_invalid' ||
    err.code === 'mind_key_revoked' ||
    err.code === 'mind_key_expired' ||
    err.code === 'credential_malformed');

/** What to show for an error: the service's message (with its request id), or the browser's. */
export function describeError(err: unknown): string {
  if (err instanceof Error) {
    const details = (err as { details?: Array<{ path: string; message: string }> }).details;
    const named = details?.length ? ` (${details.map((d) => `${d.path}: ${d.message}`).join('; ')})` : '';
    return `${err.message}${named}`;
  }
  return String(err);
}
