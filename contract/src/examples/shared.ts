// The examples of the document's answers that the schemas' own examples cannot give: every error
// status of every route with what the server answers there, and answers of one schema under two
// statuses. The messages come from ../errors/messages.ts, as the server's do;
// server/test/openapi.error-examples.test.ts provokes the examples on a real server and compares.
import { EXAMPLE_PUBLIC_URL, type ErrorObject } from '../common.js';
import { ERROR_CODES, type ErrorCode, errorDocsPath, type NotFoundWhat, notFoundCode } from '../errors/codes.js';
import { ERROR_MESSAGES } from '../errors/messages.js';

export interface NamedExample {
  summary: string;
  value: unknown;
  /** Kept once under `components.examples` by this name, for an example many routes answer alike. */
  component?: string;
}

/** `http.STATUS_CODES`' names (the contract runs in browsers too, so not imported from node). */
const STATUS_NAMES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  409: 'Conflict',
  412: 'Precondition Failed',
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

/** The error object the server answers for a code: its status, its name, and the link to the code's section. */
const errorObject = (code: ErrorCode, message: string, extra: Extra = {}): ErrorObject => {
  const statusCode = ERROR_CODES[code].status;
  const name = STATUS_NAMES[statusCode];
  if (!name) throw new Error(`no status name for ${statusCode}`);
  const { docs = `${EXAMPLE_PUBLIC_URL}${errorDocsPath(code)}`, details } = extra;
  return { statusCode, error: name, message, code, docs, ...(details ? { details } : {}) };
};
export const example = (summary: string, code: ErrorCode, message: string, extra?: Extra, component?: string): NamedExample => ({
  summary,
  value: errorObject(code, message, extra),
  ...(component ? { component } : {}),
});
/** A field problem found by a service rather than by the schema (`path: message`, one detail). */
export const fieldExample = (summary: string, path: string, message: string, component?: string) =>
  example(summary, 'validation_failed', `${path}: ${message}`, { details: [{ path, message }] }, component);

/** The code an example answers with. */
export const codeOf = (example: NamedExample) => (example.value as ErrorObject).code as ErrorCode;

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

export const notFound = (what: NotFoundWhat, summary?: string) =>
  summary
    ? example(summary, notFoundCode(what), ERROR_MESSAGES.notFound(what))
    : example(
        `No such ${what.toLowerCase()} (or another's)`,
        notFoundCode(what),
        ERROR_MESSAGES.notFound(what),
        undefined,
        `${what}NotFound`,
      );

export interface RouteErrors {
  400?: BadRequest;
  /** Replaces the 401 of the route's credential kind. */
  401?: NamedExample[];
  /** After the disabled mind's 403, which every route taking a Mind Key or a Computer Token has. */
  403?: NamedExample[];
  404?: NamedExample[];
  409?: NamedExample[];
  412?: NamedExample[];
  /** Added to the 413 of the route's body limit. */
  413?: NamedExample[];
  429?: NamedExample[];
  502?: NamedExample[];
  /** Added to the shared 503s. */
  503?: NamedExample[];
  504?: NamedExample[];
  /**
   * Codes the route answers without an example of their own (the document lists them under their
   * status): a cursor the server did not give, a duplicate in an import, a refused install code.
   */
  codes?: ErrorCode[];
}
