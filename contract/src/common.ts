import { initContract } from '@ts-rest/core';
import { ERROR_CODES, type ErrorCode, errorDocsPath } from './errors/codes.js';
import { NON_BLANK, trimmed } from './patterns.js';
import { z } from './zod.js';

// Annotated so declaration emit (the SDK bundles these types) can name it.
export const c: ReturnType<typeof initContract> = initContract();

/** Which credential a route accepts; one server middleware enforces it from this metadata. */
export type AuthKind = 'none' | 'jwt' | 'mindKey' | 'mindKeyOrJwt' | 'computerToken';

/** Every per-route fact the server, the SDK and the document need, kept with the route. */
export interface RouteMetadata<A extends AuthKind = AuthKind> {
  auth: A;
  /** OpenAPI tag (the area the route belongs to). */
  tag: string;
  /** Routes that answer with a body that is not JSON. */
  produces?: string;
  /** Largest JSON body the route reads, in bytes after any Content-Encoding is undone (default 1 MB). */
  bodyLimit?: number;
  /**
   * Whether the route changes anything (default: every method but GET). A Mind Key of scope `read`
   * is refused (403) on such a route, so a GET that writes (for URL-only tools) must say `true`.
   */
  writes?: boolean;
  /** Whether repeating the request can't duplicate anything (default: GET, PUT, DELETE yes; POST no). */
  idempotent?: boolean;
  /** Takes a Mind Key or a JWT but needs the human's JWT to succeed (the SDK sends the JWT when it has both). */
  preferJwt?: boolean;
  /**
   * The handler holds the body to the route's schema itself, in pieces between which other requests
   * are served (a whole-mind import: checking 100,000 items at once would hold the server for seconds).
   */
  bodyCheckedByHandler?: boolean;
}

export const MB = 1024 * 1024;

/**
 * What every list says of its pages: a page is bounded in bytes as well as in items, so a list of
 * large items (scripts of 1,000,000 characters) never makes one answer of 100 MB.
 */
export const PAGE_BYTES =
  'fewer when the page reaches the byte bound (`MIND_PAGE_MAX_BYTES`, 1 MiB by default; a page always holds at least one, whatever its size)';
/** A list's `cursor` query parameter: the `next_cursor` of the previous page, at most `max` characters. */
export const PageCursor = (max: number, description = '`next_cursor` of the previous page.') =>
  z.string().max(max).optional().openapi({ description });
/** A list's `next_cursor`: null on its last page. */
export const NextCursor = (example: string | null) =>
  z.string().nullable().openapi({ description: 'Pass as `cursor` for the next page; null on the last page.', example });
export const DEFAULT_BODY_LIMIT = MB;
/** For the agent's results (screenshots) and whole-mind imports. */
export const LARGE_BODY_LIMIT = 25 * MB;

/** Route metadata; the credential kind stays a literal type, so a handler's caller is typed by its route. */
export const meta = <const A extends AuthKind, const E extends Omit<RouteMetadata, 'auth' | 'tag'> = Record<never, never>>(
  auth: A,
  tag: string,
  extra?: E,
) => ({ auth, tag, ...(extra as E) }) satisfies RouteMetadata<A>;

/** The public URL the document's examples show (the server writes its MIND_PUBLIC_URL). */
export const EXAMPLE_PUBLIC_URL = 'http://127.0.0.1:3000';
/** Where the 401 points (the spec fixes it). */
export const EXAMPLE_AUTH_DOCS_URL = `${EXAMPLE_PUBLIC_URL}/docs/getting-started/authentication`;

export const ErrorDetail = z
  .object({
    path: z.string().openapi({ description: 'Where the problem is, e.g. `body.title` or `query.status`.', example: 'body.title' }),
    message: z.string().openapi({ description: 'What is wrong with it and what is allowed.', example: 'is required' }),
  })
  .openapi('ErrorDetail');

/** The error object's `code` in a route's answer: the codes of its status there (listed in the status's description). */
export const errorCodeSchema = (codes: readonly ErrorCode[]) => z.enum(codes as [ErrorCode, ...ErrorCode[]]);

export const ErrorObject = z
  .object({
    statusCode: z.number().int().openapi({ description: 'HTTP status.', example: 400 }),
    error: z.string().openapi({ description: 'HTTP status name.', example: 'Bad Request' }),
    message: z.string().openapi({ description: 'What went wrong and what to fix.', example: 'body.title: is required' }),
    // A string to the type system (every route's type carries this object: a union of every code
    // there would be too large to declare); the document lists the codes, the SDK types them.
    code: z.string().openapi({
      enum: Object.keys(ERROR_CODES),
      description:
        'What went wrong, for programs: branch on it, not on `message`. A code keeps its status and meaning for good; each has a section in the guides (`docs`).',
      example: 'validation_failed',
    }),
    docs: z.string().openapi({
      description: "URL of the guide's section on this code (a 401's: the authentication guide).",
      example: `${EXAMPLE_PUBLIC_URL}${errorDocsPath('validation_failed')}`,
    }),
    details: z.array(ErrorDetail).optional().openapi({ description: 'One entry per invalid field, for validation errors.' }),
  })
  .openapi('Error', { description: 'Every error the service answers has this shape.' });
export type ErrorObject = z.infer<typeof ErrorObject>;

/** What each error status means; each route's answer lists below it the codes it can answer there. */
const errorDescriptions: Record<number, string> = {
  400: 'The request is malformed or a field is invalid (the message and `details` name it and say what is allowed).',
  401: 'No credential, an unknown one, or one of a kind this route does not take.',
  403: 'Authenticated, but not permitted.',
  404: 'The resource does not exist, or belongs to another user or mind (which is not revealed).',
  409: 'Refused because of the current state of the mind, the account or the resource.',
  412: 'A condition of the request (`If-Match`, `If-None-Match`) does not hold; nothing was written.',
  413: 'The body is larger than the route takes (counted after any Content-Encoding is undone).',
  415: 'The body is not JSON, or its charset or Content-Encoding is not one the server reads.',
  429: 'Too many requests or failed attempts; `Retry-After` says when to retry.',
  500: 'Unexpected server error; retry with backoff and check GET /health.',
  501: 'Not implemented yet in this version of the server.',
  502: "The computer's agent reported a failure.",
  503: 'Temporarily unavailable; retry later.',
  504: 'Timed out waiting for the computer.',
};

/** Error responses for a route, all with the error object. */
export function errors<const S extends number>(...statuses: S[]): { [K in S]: typeof ErrorObject } {
  const out = {} as { [K in S]: typeof ErrorObject };
  for (const s of statuses) out[s] = ErrorObject;
  return out;
}
export const errorDescription = (status: number) => errorDescriptions[status] ?? 'Error';

/** Any route can answer these: an unexpected failure, or the service (or its database) busy or shutting down. */
export const serverErrors = errors(500, 503);
/** A route that reads a JSON body can also answer: broken JSON, a body over its limit, an unsupported encoding. */
export const bodyErrors = errors(400, 413, 415);
/** Routes that take a Mind Key: wrong or missing credential, a disabled mind, the `?key=` rate limit. */
export const mindKeyErrors = errors(401, 403, 429);
/** Routes that take a JWT or a Computer Token. */
export const credentialErrors = errors(401);

/** ts-rest router options every area uses: shared error responses on every route, and handlers held to the declared statuses. */
export const routerOptions = <const R extends Record<number, typeof ErrorObject>>(commonResponses: R) =>
  ({ commonResponses: { ...serverErrors, ...commonResponses }, strictStatusCodes: true }) as const;

export const Id = (what: string) =>
  z.string().openapi({ description: `${what} id (UUID).`, example: '0b6f5a62-3f5e-4e8e-9a52-2c7d3f3f1a10' });
export const Timestamp = (what: string) =>
  z.string().openapi({ description: `${what} (ISO 8601, UTC).`, example: '2026-11-22T01:29:42.123Z' });
/** `example`: what the document shows (null unless a time fits the example better). */
export const NullableTimestamp = (what: string, example: string | null = null) =>
  z
    .string()
    .nullable()
    .openapi({ description: `${what} (ISO 8601, UTC), or null.`, example });

export const IdParams = (what: string) => z.object({ id: Id(what) });

/** A string the server trims that must keep at least one character: the document says so with a pattern. */
export const NonBlank = (max: number) =>
  // The server refuses U+0000 before any schema, so `\S` says the rest (and stops at the first such
  // character); the document states the whole rule in the portable pattern.
  z.string().trim().regex(/\S/, 'must not be empty').max(max).openapi({ pattern: NON_BLANK });

/**
 * An integer in a query string: decimal digits only (a `-` first where negatives are allowed), so `0x10`,
 * `1e1`, ` 5` and `5.0` are 400s; the document says `type: integer` with its range.
 */
export const QueryInteger = (min: number, max: number) =>
  z
    .string()
    .regex(
      min < 0 ? /^-?\d+$/ : /^\d+$/,
      min < 0 ? 'must be a whole number in decimal digits' : 'must be a whole number in decimal digits (0-9 only)',
    )
    .transform(Number)
    .pipe(z.number().int().min(min).max(max))
    // A client passes a number (sent as its decimal digits); the server reads the query string's text.
    .openapi({ type: 'integer', minimum: min, maximum: max }) as unknown as z.ZodType<number, z.ZodTypeDef, number>;

/**
 * A number in a query string, written as JSON writes one (`0.5`, `1`, `5e-7`: what a client's
 * `String(x)` gives; a `-` first where negatives are allowed), so `.5`, ` 0.5`, `0x1` and `Infinity`
 * are 400s; the document says `type: number` with its range, and the message names it.
 */
export const QueryNumber = (min: number, max: number) => {
  const range = `must be a number from ${min} to ${max}`;
  const json = min < 0 ? /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/ : /^(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;
  return z
    .string()
    .regex(json, `${range}, written as in JSON (such as 0.5)`)
    .transform(Number)
    .pipe(z.number().min(min, range).max(max, range))
    .openapi({ type: 'number', minimum: min, maximum: max }) as unknown as z.ZodType<number, z.ZodTypeDef, number>;
};

// Years 0001-9998: a date-time's offset then never moves it out of four digits in UTC.
const YEAR = `(?:0(?:00[1-9]|0[1-9][0-9]|[1-9][0-9][0-9])|[1-8][0-9]{3}|9(?:[0-8][0-9][0-9]|9[0-8][0-9]|99[0-8]))`;
const DATE =
  `${YEAR}-(?:(?:0[13578]|1[02])-(?:0[1-9]|[12][0-9]|3[01])|(?:0[469]|11)-(?:0[1-9]|[12][0-9]|30)|02-(?:0[1-9]|1[0-9]|2[0-8]))` +
  `|(?:[0-9]{2}(?:0[48]|[2468][048]|[13579][26])|(?:0[48]|[2468][048]|[13579][26])00)-02-29`;
const TIME = String.raw`T(?:[01][0-9]|2[0-3]):[0-5][0-9](?::[0-5][0-9](?:\.[0-9]{1,9})?)?(?:Z|[+-](?:[01][0-9]|2[0-3]):?[0-5][0-9])`;
/** An ISO 8601 date (`2026-12-01`) or date-time with a zone (`2026-12-01T09:00:00Z`) that exists, leap days included, years 0001-9998. */
export const ISO_DATE_OR_DATE_TIME = new RegExp(`^(?:${DATE})(?:${TIME})?$`);
/** The same as the document states it: white space around it is trimmed first. */
const ISO_DATE_OR_DATE_TIME_TRIMMED = trimmed(`(?:${DATE})(?:${TIME})?`);

/** True for an ISO 8601 date (`2026-12-01`) or date-time with a zone (`2026-12-01T09:00:00Z`) that exists. */
export function isIsoDateOrDateTime(value: string): boolean {
  if (!ISO_DATE_OR_DATE_TIME.test(value)) return false;
  // The pattern checks the calendar; Date.parse the rest. (Date.UTC would read years 0-99 as 1900-1999.)
  return !Number.isNaN(Date.parse(value.length === 10 ? `${value}T00:00:00Z` : value));
}

/** The document states the whole rule as a pattern (white space around it allowed: the server trims it first). */
export const IsoDateOrDateTime = z
  .string()
  .trim()
  .regex(
    ISO_DATE_OR_DATE_TIME,
    'must be an ISO 8601 date (2026-12-01) or date-time with a time zone (2026-12-01T09:00:00Z) of the years 0001 to 9998 (in UTC before the year 10000)',
  )
  .openapi({ pattern: ISO_DATE_OR_DATE_TIME_TRIMMED });

const DATE_TIME = String.raw`(?:${DATE})T(?:[01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9](?:\.[0-9]{1,9})?(?:Z|[+-](?:[01][0-9]|2[0-3]):[0-5][0-9])`;
/** An RFC 3339 date-time (`2026-12-01T09:00:00Z`, `2026-12-01T10:00:00.5+01:00`) that exists, years 0001-9998. */
export const ISO_DATE_TIME = new RegExp(`^${DATE_TIME}$`);

/** A point in time (a zone and seconds required: a bare date would leave the hour to guess). */
export const IsoDateTime = z
  .string()
  .trim()
  .regex(ISO_DATE_TIME, 'must be an RFC 3339 date-time with seconds and a time zone (2026-12-01T09:00:00Z) of the years 0001 to 9998')
  .openapi({ pattern: trimmed(DATE_TIME), example: '2026-12-01T09:00:00Z' });

/**
 * An update body must change something: an empty object (or one with only unknown fields, which are
 * ignored) is a 400. The document says it as `anyOf` one of the fields `required`.
 */
export function atLeastOneOf<T extends z.AnyZodObject>(schema: T) {
  const names = Object.keys(schema.shape);
  return schema
    .refine((value) => Object.values(value).some((v) => v !== undefined), { message: `must give at least one of: ${names.join(', ')}` })
    .openapi({ anyOf: names.map((name) => ({ required: [name] })) });
}

/** Query booleans arrive as strings. */
export const QueryBoolean = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');
