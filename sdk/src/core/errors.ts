// Every error the SDK throws is a MindServiceError. An answer from the service becomes the subclass for its
// status (BadRequestError, UnauthorizedError, ...); no answer at all is a ConnectionError or a TimeoutError.
// `code` says what went wrong (the service's code table, contract/src/errors/codes.ts): branch on it.
import type { ErrorCode, ErrorCodeOf } from '../contract.js';

/** One invalid field of a validation error. */
export interface ErrorDetail {
  path: string;
  message: string;
}

export interface ErrorInit {
  statusCode?: number | undefined;
  error?: string | undefined;
  message: string;
  code?: ErrorCode | undefined;
  docs?: string | undefined;
  details?: ErrorDetail[] | undefined;
  requestId?: string | undefined;
  headers?: Headers | undefined;
  body?: unknown;
  cause?: unknown;
}

/** The base of every SDK error. Fields mirror the service's error object. */
export class MindServiceError extends Error {
  /** HTTP status; undefined when no answer arrived (connection errors, timeouts, aborts). */
  readonly statusCode: number | undefined;
  /** HTTP status name, e.g. `Bad Request`. */
  readonly error: string | undefined;
  /**
   * What went wrong, e.g. `task_not_found` or `validation_failed`; a code keeps its meaning for good.
   * Undefined when no answer arrived, or the answer was not the service's error object.
   */
  readonly code: ErrorCode | undefined;
  /** URL of the guide's section on this code (a 401's: the authentication guide). */
  readonly docs: string | undefined;
  /** One entry per invalid field, for validation errors. */
  readonly details: ErrorDetail[] | undefined;
  /** The service's `X-Request-Id`, to quote when reporting a problem. */
  readonly requestId: string | undefined;
  readonly headers: Headers | undefined;
  /** The parsed response body (the error object), or its text when it was not JSON. */
  readonly body: unknown;

  constructor(init: ErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.name = new.target.name;
    this.statusCode = init.statusCode;
    this.error = init.error;
    this.code = init.code;
    this.docs = init.docs;
    this.details = init.details;
    this.requestId = init.requestId;
    this.headers = init.headers;
    this.body = init.body;
  }
}

export class BadRequestError extends MindServiceError {
  declare readonly statusCode: 400;
  declare readonly code: ErrorCodeOf<400> | undefined;
}
export class UnauthorizedError extends MindServiceError {
  declare readonly statusCode: 401;
  declare readonly code: ErrorCodeOf<401> | undefined;
}
/** 401 `mind_key_expired`: the Mind Key's `expires_at` has passed; the owner makes a new one. */
export class MindKeyExpiredError extends UnauthorizedError {
  declare readonly code: 'mind_key_expired';
}
/** 401 `mind_key_revoked`: the mind's owner revoked this Mind Key; ask them for a new one. */
export class MindKeyRevokedError extends UnauthorizedError {
  declare readonly code: 'mind_key_revoked';
}
export class ForbiddenError extends MindServiceError {
  declare readonly statusCode: 403;
  declare readonly code: ErrorCodeOf<403> | undefined;
}
/** 403 `key_read_only`: a Mind Key of scope `read` on a call that would change something. */
export class KeyReadOnlyError extends ForbiddenError {
  declare readonly code: 'key_read_only';
}
export class NotFoundError extends MindServiceError {
  declare readonly statusCode: 404;
  declare readonly code: ErrorCodeOf<404> | undefined;
}
export class ConflictError extends MindServiceError {
  declare readonly statusCode: 409;
  declare readonly code: ErrorCodeOf<409> | undefined;
}
/** A conditional write (`If-Match`, `If-None-Match`) whose condition did not hold: nothing was written. */
export class PreconditionFailedError extends MindServiceError {
  declare readonly statusCode: 412;
  declare readonly code: ErrorCodeOf<412> | undefined;
}
export class PayloadTooLargeError extends MindServiceError {
  declare readonly statusCode: 413;
  declare readonly code: ErrorCodeOf<413> | undefined;
}
export class RateLimitedError extends MindServiceError {
  declare readonly statusCode: 429;
  declare readonly code: ErrorCodeOf<429> | undefined;
  /** Seconds to wait before trying again (`Retry-After`), when the service said. */
  readonly retryAfter: number | undefined;
  constructor(init: ErrorInit) {
    super(init);
    this.retryAfter = parseRetryAfterSeconds(init.headers?.get('retry-after') ?? null);
  }
}
export class InternalServerError extends MindServiceError {
  declare readonly statusCode: 500;
  declare readonly code: ErrorCodeOf<500> | undefined;
}
export class NotImplementedError extends MindServiceError {
  declare readonly statusCode: 501;
}
export class UnavailableError extends MindServiceError {
  declare readonly statusCode: 503;
  declare readonly code: ErrorCodeOf<503> | undefined;
}
/** 504: the service waited for something (a computer's screenshot) that did not come in time. */
export class GatewayTimeoutError extends MindServiceError {
  declare readonly statusCode: 504;
  declare readonly code: ErrorCodeOf<504> | undefined;
}

/** No answer: the service could not be reached or the connection broke. */
export class ConnectionError extends MindServiceError {
  declare readonly statusCode: undefined;
}
/** No answer within the request's `timeout`. */
export class TimeoutError extends ConnectionError {}
/** The caller's `signal` aborted the request. Never retried. */
export class RequestAbortedError extends MindServiceError {
  declare readonly statusCode: undefined;
}

const BY_STATUS: Record<number, new (init: ErrorInit) => MindServiceError> = {
  400: BadRequestError,
  401: UnauthorizedError,
  403: ForbiddenError,
  404: NotFoundError,
  409: ConflictError,
  412: PreconditionFailedError,
  413: PayloadTooLargeError,
  429: RateLimitedError,
  500: InternalServerError,
  501: NotImplementedError,
  503: UnavailableError,
  504: GatewayTimeoutError,
};

/** Codes with a class of their own (a subclass of their status's), for `instanceof`. */
const BY_CODE: Partial<Record<ErrorCode, new (init: ErrorInit) => MindServiceError>> = {
  mind_key_expired: MindKeyExpiredError,
  mind_key_revoked: MindKeyRevokedError,
  key_read_only: KeyReadOnlyError,
};

/** The error for a non-2xx answer; `body` is the parsed JSON or the raw text. */
export function errorFromResponse(statusCode: number, headers: Headers, body: unknown): MindServiceError {
  const obj = body && typeof body === 'object' ? (body as Record<string, unknown>) : undefined;
  const text = typeof body === 'string' && body.length > 0 ? body.slice(0, 200) : undefined;
  const message = typeof obj?.message === 'string' ? obj.message : (text ?? `HTTP ${statusCode}`);
  const code = typeof obj?.code === 'string' ? obj.code : undefined;
  const Class = (code !== undefined ? BY_CODE[code as ErrorCode] : undefined) ?? BY_STATUS[statusCode] ?? MindServiceError;
  return new Class({
    statusCode,
    error: typeof obj?.error === 'string' ? obj.error : undefined,
    message,
    code: code as ErrorCode | undefined,
    docs: typeof obj?.docs === 'string' ? obj.docs : undefined,
    details: Array.isArray(obj?.details) ? (obj.details as ErrorDetail[]) : undefined,
    requestId: headers.get('x-request-id') ?? undefined,
    headers,
    body,
  });
}

/** `Retry-After` as seconds: a number of seconds or an HTTP date. */
export function parseRetryAfterSeconds(value: string | null, now = Date.now()): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, (date - now) / 1000);
}
