import { STATUS_CODES, type ServerResponse } from 'node:http';
import { ERROR_MESSAGES, type ErrorObject, errorDocsPath } from '@mindservice/contract';
import { isDatabaseBusy } from '../db/errors.js';
import { ApiError, type ApiErrorExtra, codeOf } from './api-error.js';
import type { RawRequest } from './request.js';
import { clip, MAX_ERROR_DETAILS } from './validation.js';

const MAX_MESSAGE = 4000;

export const internalError = () => ApiError.of(500, 'internal_error', ERROR_MESSAGES.internal);

/**
 * The error object: the spec's fields, the code, and `docs`, the code's section of the errors guide
 * under `publicUrl` (or the link the error carries: the 401's authentication guide).
 */
export function errorBody(statusCode: number, message: string, extra: ApiErrorExtra = {}, publicUrl = ''): ErrorObject {
  const code = codeOf(statusCode, extra);
  const body: ErrorObject = {
    statusCode,
    error: STATUS_CODES[statusCode] ?? 'Error',
    message: clip(message, MAX_MESSAGE),
    code,
    docs: extra.docs ?? `${publicUrl}${errorDocsPath(code)}`,
  };
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

export function sendError(res: ServerResponse, error: ApiError, publicUrl = '') {
  if (res.headersSent) return void res.end();
  try {
    for (const [name, value] of Object.entries(error.extra.headers ?? {})) res.setHeader(name, value);
    sendJson(res, error.statusCode, errorBody(error.statusCode, error.message, error.extra, publicUrl));
  } catch {
    // Whatever failed, the answer is still the error object, never an HTML page or a stack.
    res.statusCode = 500;
    res.setHeader('Content-Type', 'application/json; charset=utf-8');
    res.end(JSON.stringify(errorBody(500, ERROR_MESSAGES.internal, { code: 'internal_error' }, publicUrl)));
  }
}

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
  if (isDatabaseBusy(err)) return ApiError.of(503, 'database_busy', ERROR_MESSAGES.databaseBusy, { headers: { 'Retry-After': '5' } });
  const parserError = err as BodyParserError;
  switch (parserError?.type) {
    case 'entity.parse.failed':
      return ApiError.of(400, 'json_invalid', ERROR_MESSAGES.jsonInvalid(parserError.message ?? ''));
    case 'entity.too.large':
      return ApiError.of(413, 'body_too_large', ERROR_MESSAGES.bodyTooLarge(parserError.limit));
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return ApiError.of(415, 'encoding_unsupported', ERROR_MESSAGES.encodingUnsupported(parserError.message ?? ''));
    case 'request.aborted':
      return 'aborted';
  }
  // What else body-parser refuses with a 400 (a body shorter than its Content-Length) is no JSON either.
  if (parserError?.status === 400) return ApiError.of(400, 'json_invalid', parserError.message ?? 'Bad request');
  return undefined;
}

/** How an app answers failures: the error object with `docs` under its public URL, the unexpected reported first. */
export interface ErrorResponder {
  send(res: ServerResponse, error: ApiError): void;
  /** Answers whatever a request threw (see apiErrorOf); the unexpected go to `onUnexpected`, then are a 500. */
  answer(err: unknown, req: RawRequest, res: ServerResponse): void;
}

export function errorResponder(publicUrl: string, onUnexpected: (err: unknown, req: RawRequest) => void): ErrorResponder {
  const send = (res: ServerResponse, error: ApiError) => sendError(res, error, publicUrl);
  return {
    send,
    answer(err, req, res) {
      const error = apiErrorOf(err);
      if (error === 'aborted') return void res.end();
      if (error) return send(res, error);
      onUnexpected(err, req);
      send(res, internalError());
    },
  };
}

/** The spec's 404 for a path no route has, pointing to the list of routes. */
export const routeNotFound = (method: string, path: string) =>
  ApiError.of(404, 'route_not_found', ERROR_MESSAGES.routeNotFound(method, path), {
    details: [{ path: 'url', message: 'is no route of this service; GET /endpoints lists every route' }],
  });
