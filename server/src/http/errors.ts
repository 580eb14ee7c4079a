import { STATUS_CODES, type ServerResponse } from 'node:http';
import type { ErrorObject } from '@mindservice/contract';
import type { NextFunction, Request, Response } from 'express';
import type { ZodError } from 'zod';
import { isDatabaseBusy } from '../db/errors.js';
import { ApiError, type ApiErrorExtra, type ErrorDetail, internalError } from './api-error.js';

export { ApiError, type ErrorDetail, internalError } from './api-error.js';

/** A validation error names at most this many problems, and says how many more there are. */
export const MAX_ERROR_DETAILS = 20;
const MAX_DETAIL_TEXT = 300;
const MAX_MESSAGE = 4000;

const clip = (text: string, max: number) => (text.length <= max ? text : `${text.slice(0, max - 1)}…`);

export function errorBody(statusCode: number, message: string, extra: ApiErrorExtra = {}): ErrorObject {
  const body: ErrorObject = { statusCode, error: STATUS_CODES[statusCode] ?? 'Error', message: clip(message, MAX_MESSAGE) };
  if (extra.docs) body.docs = extra.docs;
  if (extra.details?.length) body.details = extra.details.slice(0, MAX_ERROR_DETAILS);
  return body;
}

/** Writes a JSON answer with node:http alone. */
export function sendJson(res: ServerResponse, statusCode: number, body: unknown) {
  const json = JSON.stringify(body);
  res.statusCode = statusCode;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', Buffer.byteLength(json));
  res.end(json);
}

const INTERNAL_ERROR_JSON = JSON.stringify(errorBody(500, internalError().message));

export function sendError(res: ServerResponse, error: ApiError) {
  if (res.headersSent) return void res.end();
  try {
    for (const [name, value] of Object.entries(error.extra.headers ?? {})) res.setHeader(name, value);
    sendJson(res, error.statusCode, errorBody(error.statusCode, error.message, error.extra));
  } catch {
    // Whatever failed, the answer is still the error object, never an HTML page or a stack.
    res.statusCode = 500;
    res.setHeader('Content-Type', 'application/json; charset=utf-8');
    res.end(INTERNAL_ERROR_JSON);
  }
}

/** One detail per zod issue, at most MAX_ERROR_DETAILS of them (the rest are counted). */
function zodDetails(location: string, error: ZodError): { details: ErrorDetail[]; more: number } {
  const details = error.issues.slice(0, MAX_ERROR_DETAILS).map((issue) => ({
    path: clip([location, ...issue.path].join('.'), MAX_DETAIL_TEXT),
    message: clip(issue.message === 'Required' ? 'is required' : issue.message, MAX_DETAIL_TEXT),
  }));
  return { details, more: error.issues.length - details.length };
}

/** 400 naming each invalid field (at most MAX_ERROR_DETAILS, then how many more), for each part of a request that failed. */
export function validationError(failures: Array<[location: string, error: ZodError]>): ApiError {
  const details: ErrorDetail[] = [];
  let more = 0;
  for (const [location, error] of failures) {
    const part = zodDetails(location, error);
    const room = MAX_ERROR_DETAILS - details.length;
    details.push(...part.details.slice(0, room));
    more += part.more + Math.max(0, part.details.length - room);
  }
  const message = details.map((d) => `${d.path}: ${d.message}`).join('; ') || 'Invalid request';
  return new ApiError(400, more > 0 ? `${message}; and ${more} more problem${more === 1 ? '' : 's'}` : message, { details });
}

export const validationErrorFrom = (location: string, error: ZodError) => validationError([[location, error]]);

interface BodyParserError {
  type?: string;
  status?: number;
  limit?: number;
  message?: string;
}

/**
 * The error object for whatever a request threw: an ApiError as it is, body-parser's errors
 * translated; 'aborted' when the client went away mid-body; undefined for anything unexpected
 * (logged, then answered 500).
 */
export function apiErrorOf(err: unknown): ApiError | 'aborted' | undefined {
  if (err instanceof ApiError) return err;
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

/** The final Express middleware (docs and unknown paths): everything that goes wrong ends here as the error object. */
export function errorMiddleware(onUnexpected: (err: unknown, req: Request) => void) {
  return (err: unknown, req: Request, res: Response, _next: NextFunction) => answerError(err, req, res, onUnexpected);
}

export function notFoundMiddleware(req: Request, res: Response) {
  sendError(res, new ApiError(404, `Route ${req.method} ${req.path} not found`));
}
