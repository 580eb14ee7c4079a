// The examples of the document's answers that the schemas' own examples cannot give: every error
// status of every route with what the server answers there, and answers of one schema under two
// statuses. The server writes these messages itself (it cannot import them from here: the contract
// is the lower layer); server/test/openapi.error-examples.test.ts provokes them on a real server and
// compares.
import type { ErrorObject } from '../common.js';

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
export const example = (summary: string, statusCode: number, message: string, extra?: Extra, component?: string): NamedExample => ({
  summary,
  value: errorObject(statusCode, message, extra),
  ...(component ? { component } : {}),
});
/** A field problem found by a service rather than by the schema (`path: message`, one detail). */
export const fieldExample = (summary: string, statusCode: number, path: string, message: string, component?: string) =>
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

export const notFound = (what: string, summary?: string) =>
  summary
    ? example(summary, 404, `${what} not found`)
    : example(`No such ${what.toLowerCase()} (or another's)`, 404, `${what} not found`, undefined, `${what}NotFound`);

export interface RouteErrors {
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
