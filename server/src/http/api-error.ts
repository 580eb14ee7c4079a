// The one error type services throw. It imports nothing, so any module can throw it.

export interface ErrorDetail {
  path: string;
  message: string;
}

export interface ApiErrorExtra {
  details?: ErrorDetail[];
  docs?: string;
  headers?: Record<string, string>;
}

/** A failure with its HTTP status; the pipeline writes it as the spec's error object. */
export class ApiError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly extra: ApiErrorExtra = {},
  ) {
    super(message);
  }

  static badRequest(message: string, details?: ErrorDetail[]) {
    return new ApiError(400, message, { details });
  }
  static notFound(what: string) {
    return new ApiError(404, `${what} not found`);
  }
  static conflict(message: string) {
    return new ApiError(409, message);
  }
  static forbidden(message: string) {
    return new ApiError(403, message);
  }
  /** A field problem found by a service rather than by the schema. */
  static invalidField(path: string, message: string) {
    return new ApiError(400, `${path}: ${message}`, { details: [{ path, message }] });
  }
}

export const MIND_DISABLED_MESSAGE = 'This mind is disabled. Its data is kept; the operator can enable it again.';

export const internalError = () => new ApiError(500, 'Internal server error. The request id identifies it in the server log.');
