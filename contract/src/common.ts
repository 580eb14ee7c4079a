import { initContract } from '@ts-rest/core';
import { z } from './zod.js';

// Annotated so declaration emit (the SDK bundles these types) can name it.
export const c: ReturnType<typeof initContract> = initContract();

/** Which credential a route accepts; one server middleware enforces it from this metadata. */
export type AuthKind = 'none' | 'jwt' | 'mindKey' | 'mindKeyOrJwt' | 'computerToken';

export interface RouteMetadata {
  auth: AuthKind;
  /** OpenAPI tag (the area the route belongs to). */
  tag: string;
  /** Routes that answer with a body that is not JSON. */
  produces?: string;
}

export const meta = (auth: AuthKind, tag: string, extra: Omit<RouteMetadata, 'auth' | 'tag'> = {}) =>
  ({ auth, tag, ...extra }) satisfies RouteMetadata;

export const ErrorDetail = z
  .object({
    path: z.string().openapi({ description: 'Where the problem is, e.g. `body.title` or `query.status`.' }),
    message: z.string().openapi({ description: 'What is wrong with it.' }),
  })
  .openapi('ErrorDetail');

export const ErrorObject = z
  .object({
    statusCode: z.number().int().openapi({ description: 'HTTP status.', example: 400 }),
    error: z.string().openapi({ description: 'HTTP status name.', example: 'Bad Request' }),
    message: z.string().openapi({ description: 'What went wrong and what to fix.', example: 'body.title: Required' }),
    docs: z.string().optional().openapi({ description: 'URL of related documentation, when there is one.' }),
    details: z.array(ErrorDetail).optional().openapi({ description: 'One entry per invalid field, for validation errors.' }),
  })
  .openapi('Error', { description: 'Every error the service answers has this shape.' });
export type ErrorObject = z.infer<typeof ErrorObject>;

const errorDescriptions: Record<number, string> = {
  400: 'Malformed request: invalid JSON, a missing or invalid field (the message names it).',
  401: 'Missing or invalid credential, or the wrong kind of credential for this route.',
  403: 'Authenticated but not permitted.',
  404: 'The resource does not exist or belongs to someone else.',
  409: 'Conflict with the current state.',
  413: 'Request body too large.',
  429: 'Rate limit of `?key=` authentication exceeded.',
  500: 'Unexpected server error; retry with backoff and check GET /health.',
  501: 'Not implemented yet in this version of the server.',
  502: "The computer's agent reported a failure.",
  503: 'Temporarily unavailable; retry later.',
  504: 'Timed out waiting for the computer.',
};
export type ErrorStatus = keyof typeof errorDescriptions & number;

/** Error responses for a route, all with the error object. */
export function errors<const S extends number>(...statuses: S[]): { [K in S]: typeof ErrorObject } {
  const out = {} as { [K in S]: typeof ErrorObject };
  for (const s of statuses) out[s] = ErrorObject;
  return out;
}
export const errorDescription = (status: number) => errorDescriptions[status] ?? 'Error';

export const Id = (what: string) =>
  z.string().openapi({ description: `${what} id (UUID).`, example: '0b6f5a62-3f5e-4e8e-9a52-2c7d3f3f1a10' });
export const Timestamp = (what: string) =>
  z.string().openapi({ description: `${what} (ISO 8601, UTC).`, example: '2026-11-22T01:29:42.123Z' });
export const NullableTimestamp = (what: string) =>
  z.string().nullable().openapi({ description: `${what} (ISO 8601, UTC), or null.`, example: null });

export const IdParams = (what: string) => z.object({ id: Id(what) });


/** Query booleans arrive as strings. */
export const QueryBoolean = z
  .enum(['true', 'false', '1', '0'])
  .transform((v) => v === 'true' || v === '1');
