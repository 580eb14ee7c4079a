import type { IncomingMessage, ServerResponse } from 'node:http';
import { parse as parseQuery } from 'node:querystring';
import type { RouteMetadata } from '@mindservice/contract';
import { type AppRoute, checkZodSchema, isAppRouteNoBody, validateResponse } from '@ts-rest/core';
import { type AppRouteImplementation, RequestValidationError } from '@ts-rest/express';
import express from 'express';
import type { Authenticator, CredentialSource } from './auth.js';
import type { Caller } from './caller.js';
import { answerError, sendJson } from './errors.js';
import type { RawRequest } from './request-log.js';

/** A route's handler from the ts-rest router implementation (the same function Express calls), untyped to share one list. */
type Handler = (args: { params: object; query: unknown; body: unknown; headers: IncomingMessage['headers']; req: unknown; res: unknown }) => Promise<{
  status: number | string;
  body: unknown;
}>;

export interface DirectRoute {
  route: AppRoute;
  handler: Handler;
}

/** A route of the contract with its handler from the router implementation. */
export const directRoute = <R extends AppRoute>(route: R, handler: AppRouteImplementation<R>): DirectRoute => ({ route, handler: handler as unknown as Handler });

type DirectRequest = RawRequest & CredentialSource & { body?: unknown; caller?: Caller };

/**
 * The routes agents call most, served by node:http before Express. Measured: a long-poll held
 * through Express, its router and ts-rest kept about three times what node:http's own request holds
 * (10,000 held polls: 430 MB RSS before, about 260 after), and on POST /memory Express's router and
 * request/response wrappers with ts-rest's dispatch cost about a third of the request's CPU
 * (1,400-1,500 writes/s through Express, 2,100-2,250 here; see docs/performance.md). Nothing else differs: the same body parser (express.json, same limit and
 * errors), the same authenticator, ts-rest's own validation against the contract's schemas and its
 * response validation, the handler function of the router implementation, the error object and the
 * log line. Only a request in its plain form comes here (the method and the exact path, any query);
 * HEAD, a trailing slash or other spellings Express accepts go through Express as before.
 */
export function directRoutes(
  routes: DirectRoute[],
  auth: Authenticator,
  options: {
    validateResponses: boolean;
    /** The client's address as Express computes req.ip (the trust-proxy setting): `?key=` is rate-limited by it. */
    ipOf: (req: IncomingMessage) => string;
    onUnexpected: (err: unknown, req: RawRequest) => void;
  },
) {
  const byRoute = new Map(routes.map((r) => [`${r.route.method} ${r.route.path}`, r]));
  const parseJson = express.json({ limit: '1mb' });
  const readBody = (req: IncomingMessage, res: ServerResponse) =>
    new Promise<void>((done, fail) => parseJson(req as never, res as never, (err?: unknown) => (err ? fail(err) : done())));

  const serve = async ({ route, handler }: DirectRoute, req: DirectRequest, res: ServerResponse) => {
    // Express's order: the body is parsed first (for every method, GET too), then the auth middleware
    // runs, then ts-rest validates.
    await readBody(req, res);
    req.caller = await auth.authenticate(req, res, (route.metadata as RouteMetadata).auth);
    const query = checkZodSchema(req.query, route.query);
    const body = checkZodSchema(req.body, 'body' in route ? route.body : null);
    if (!query.success || !body.success) {
      throw new RequestValidationError(null, null, query.success ? null : query.error, body.success ? null : body.error);
    }
    const result = await handler({ params: {}, query: query.data, body: body.data, headers: req.headers, req, res });
    const status = Number(result.status);
    const answer = options.validateResponses ? validateResponse({ appRoute: route, response: { status, body: result.body } }).body : result.body;
    if (isAppRouteNoBody(route.responses[status])) {
      res.statusCode = status;
      return void res.end();
    }
    sendJson(res, status, answer);
  };

  /** The server for this request if it is one of the direct routes in its plain form, else undefined. */
  return (req: RawRequest): ((req: RawRequest, res: ServerResponse) => void) | undefined => {
    // As Express reads it (parseurl): a #fragment is no part of the path or the query.
    const fragmentAt = req.url?.indexOf('#') ?? -1;
    const url = fragmentAt < 0 ? (req.url ?? '') : req.url!.slice(0, fragmentAt);
    const queryAt = url.indexOf('?');
    const direct = byRoute.get(`${req.method} ${queryAt < 0 ? url : url.slice(0, queryAt)}`);
    if (!direct) return undefined;
    return (raw, res) => {
      // Express's 'simple' query parser is node:querystring's. req.ip is a plain property: a lazy
      // getter on each request turned it into a slow-mode object, +3 KB per held poll (RSS 279 -> 305 MB
      // with 10,000 polls).
      const req = Object.assign(raw, { query: queryAt < 0 ? {} : parseQuery(url.slice(queryAt + 1)), ip: options.ipOf(raw) });
      serve(direct, req, res).catch((err: unknown) => answerError(err, raw, res, options.onUnexpected));
    };
  };
}
