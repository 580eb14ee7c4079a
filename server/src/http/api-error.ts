// The one error type services throw. It imports nothing at run time (only the contract's types of
// the code table), so any module of any layer can throw it.
import type { ErrorCode, ErrorCodeOf, NotFoundWhat } from '@mindservice/contract';

export interface ErrorDetail {
  path: string;
  message: string;
}

export interface ApiErrorExtra {
  /** The error's code (contract/src/errors/codes.ts); the factories name it. */
  code?: ErrorCode;
  details?: ErrorDetail[];
  /** Where the error links instead of its code's section of the errors guide (the 401: the authentication guide). */
  docs?: string;
  headers?: Record<string, string>;
}

/**
 * The code of an error made without one: a 400 is a field the thrower found invalid; anything else
 * is a bug of its thrower, answered as the unexpected failure it is.
 */
export const codeOf = (statusCode: number, extra: ApiErrorExtra): ErrorCode =>
  extra.code ?? (statusCode === 400 ? 'validation_failed' : 'internal_error');

/** A failure with its HTTP status and code; the pipeline writes it as the spec's error object. */
export class ApiError extends Error {
  /** Prefer the factories: their types tie the code to the status it always has. */
  constructor(
    readonly statusCode: number,
    message: string,
    readonly extra: ApiErrorExtra = {},
  ) {
    super(message);
  }

  get code(): ErrorCode {
    return codeOf(this.statusCode, this.extra);
  }

  /** An error of `code`, answered with the status the code always has. */
  static of<S extends number>(statusCode: S, code: ErrorCodeOf<S>, message: string, extra: Omit<ApiErrorExtra, 'code'> = {}) {
    return new ApiError(statusCode, message, { ...extra, code });
  }
  static badRequest(code: ErrorCodeOf<400>, message: string, details?: ErrorDetail[]) {
    return new ApiError(400, message, { code, details });
  }
  /** `Task` -> 404 `Task not found`, code `task_not_found`. */
  static notFound(what: NotFoundWhat) {
    const code = `${what.split(' ', 1)[0]!.toLowerCase()}_not_found` as ErrorCodeOf<404>;
    return new ApiError(404, `${what} not found`, { code });
  }
  static conflict(code: ErrorCodeOf<409>, message: string) {
    return new ApiError(409, message, { code });
  }
  static forbidden(code: ErrorCodeOf<403>, message: string) {
    return new ApiError(403, message, { code });
  }
  /**
   * A field problem found by a service rather than by the schema: `validation_failed`, except that a
   * `cursor` the server did not give is `cursor_invalid` (whichever list it was sent to).
   */
  static invalidField(
    path: string,
    message: string,
    code: ErrorCodeOf<400> = path === 'query.cursor' ? 'cursor_invalid' : 'validation_failed',
  ) {
    return new ApiError(400, `${path}: ${message}`, { code, details: [{ path, message }] });
  }
}
