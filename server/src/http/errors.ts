import { STATUS_CODES, type ServerResponse } from 'node:http';
import type { ErrorObject } from '@mindservice/contract';
import { RequestValidationError } from '@ts-rest/express';
import type { NextFunction, Request, Response } from 'express';
import type { ZodError } from 'zod';
import { isDatabaseBusy } from '../db/errors.js';

export interface ErrorDetail {
  path: string;
  message: string;
}

/** The one error type services throw; the error middleware turns it into the spec's error object. */
export class ApiError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly extra: { details?: ErrorDetail[]; docs?: string; headers?: Record<string, string> } = {},
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

export const internalError = () => new ApiError(500, 'Internal server error. The request id identifies it in the server log.');

export function errorBody(statusCode: number, message: string, extra: ApiError['extra'] = {}): ErrorObject {
  const body: ErrorObject = { statusCode, error: STATUS_CODES[statusCode] ?? 'Error', message };
  if (extra.docs) body.docs = extra.docs;
  if (extra.details?.length) body.details = extra.details;
  return body;
}

/** Writes a JSON answer with node:http alone, so the long-poll route (served before Express) shares it. */
export function sendJson(res: ServerResponse, statusCode: number, body: unknown) {
  const json = JSON.stringify(body);
  res.statusCode = statusCode;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', Buffer.byteLength(json));
  res.end(json);
}

export function sendError(res: ServerResponse, error: ApiError) {
  if (res.headersSent) return void res.end();
  for (const [name, value] of Object.entries(error.extra.headers ?? {})) res.setHeader(name, value);
  sendJson(res, error.statusCode, errorBody(error.statusCode, error.message, error.extra));
}

function zodDetails(location: string, error: ZodError): ErrorDetail[] {
  return error.issues.map((issue) => {
    // A discriminated union names its tag; keep the path readable for nested payload errors.
    const path = [location, ...issue.path].join('.');
    return { path, message: issue.message === 'Required' ? 'is required' : issue.message };
  });
}

/** ts-rest's request validation failure -> 400 naming each invalid field. */
export function validationError(err: RequestValidationError): ApiError {
  const details = [
    ...(err.pathParams ? zodDetails('params', err.pathParams) : []),
    ...(err.headers ? zodDetails('headers', err.headers) : []),
    ...(err.query ? zodDetails('query', err.query) : []),
    ...(err.body ? zodDetails('body', err.body) : []),
  ];
  const message = details.map((d) => `${d.path}: ${d.message}`).join('; ') || 'Invalid request';
  return new ApiError(400, message, { details });
}

export const validationErrorFrom = (location: string, error: ZodError) => {
  const details = zodDetails(location, error);
  return new ApiError(400, details.map((d) => `${d.path}: ${d.message}`).join('; '), { details });
};

interface BodyParserError {
  type?: string;
  status?: number;
  limit?: number;
  message?: string;
}

/**
 * The error object for whatever a request threw: an ApiError as it is, ts-rest's validation failure
 * and body-parser's errors translated; 'aborted' when the client went away mid-body; undefined for
 * anything unexpected (logged, then answered 500).
 */
export function apiErrorOf(err: unknown): ApiError | 'aborted' | undefined {
  if (err instanceof ApiError) return err;
  if (err instanceof RequestValidationError) return validationError(err);
  if (isDatabaseBusy(err)) return new ApiError(503, 'The database is busy. Retry in a few seconds.', { headers: { 'Retry-After': '5' } });
  const parserError = err as BodyParserError;
  if (parserError?.type === 'entity.parse.failed') return new ApiError(400, `Request body is not valid JSON: ${parserError.message}`);
  if (parserError?.type === 'entity.too.large') {
    const mb = parserError.limit ? `${Math.round(parserError.limit / 1024 / 1024)} MB` : 'the limit';
    return new ApiError(413, `Request body is larger than ${mb}`);
  }
  if (parserError?.type === 'encoding.unsupported' || parserError?.type === 'charset.unsupported') {
    return new ApiError(415, `Unsupported request body encoding: ${parserError.message}`);
  }
  if (parserError?.type === 'request.aborted') return 'aborted';
  if (typeof parserError?.status === 'number' && parserError.status >= 400 && parserError.status < 500) {
    return new ApiError(parserError.status, parserError.message ?? 'Bad request');
  }
  return undefined;
}

/** Answers a failed request with the error object (see apiErrorOf); the unexpected go to `onUnexpected` first. */
export function answerError<Req>(err: unknown, req: Req, res: ServerResponse, onUnexpected: (err: unknown, req: Req) => void) {
  const error = apiErrorOf(err);
  if (error === 'aborted') return void res.end();
  if (error) return sendError(res, error);
  onUnexpected(err, req);
  sendError(res, internalError());
}

/** The final middleware: everything that goes wrong ends here as the error object. */
export function errorMiddleware(onUnexpected: (err: unknown, req: Request) => void) {
  return (err: unknown, req: Request, res: Response, _next: NextFunction) => answerError(err, req, res, onUnexpected);
}

export function notFoundMiddleware(req: Request, res: Response) {
  sendError(res, new ApiError(404, `Route ${req.method} ${req.path} not found`));
}
