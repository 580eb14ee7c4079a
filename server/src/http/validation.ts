import { issueMessage } from '@mindservice/contract';
import type { ZodError } from 'zod';
import { ApiError, type ErrorDetail } from './api-error.js';

/** A validation error names at most this many problems, and says how many more there are. */
export const MAX_ERROR_DETAILS = 20;
const MAX_DETAIL_TEXT = 300;

export const clip = (text: string, max: number) => (text.length <= max ? text : `${text.slice(0, max - 1)}…`);

/** One detail per zod issue, in the contract's one style (what is wrong, what is allowed), at most MAX_ERROR_DETAILS. */
function zodDetails(location: string, error: ZodError): { details: ErrorDetail[]; more: number } {
  const details = error.issues.slice(0, MAX_ERROR_DETAILS).map((issue) => ({
    path: clip([location, ...issue.path].join('.'), MAX_DETAIL_TEXT),
    message: clip(issueMessage(issue), MAX_DETAIL_TEXT),
  }));
  return { details, more: error.issues.length - details.length };
}

/** 400 `validation_failed` naming each invalid field (at most MAX_ERROR_DETAILS, then how many more), for each part of a request that failed. */
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
  return ApiError.badRequest(
    'validation_failed',
    more > 0 ? `${message}; and ${more} more problem${more === 1 ? '' : 's'}` : message,
    details,
  );
}

export const validationErrorFrom = (location: string, error: ZodError) => validationError([[location, error]]);
