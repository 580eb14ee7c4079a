import type { IncomingMessage, ServerResponse } from 'node:http';
import { parse as parseQuery } from 'node:querystring';
import { bodyLimitOf, type ContractRoute, ERROR_MESSAGES, isWrite, listRoutes, type RouteMetadata } from '@mindservice/contract';
import { type AppRoute, type AppRouter, checkZodSchema, isAppRouteNoBody, isAppRouteOtherResponse, validateResponse } from '@ts-rest/core';
import type { ZodError } from 'zod';
import { ApiError } from './api-error.js';
import { type Authenticator, refuseReadOnlyWrite } from './auth.js';
import type { Caller } from './caller.js';
import { checkJson, hasBody, readJsonBody } from './body.js';
import { type ErrorResponder, sendJson } from './errors.js';
import type { RawRequest } from './request.js';
import type { ApiRequest } from './request.js';
import { validationError } from './validation.js';

/** A handler of the router implementation, untyped so that one table holds them all (each is typed by its route where written). */
type AnyHandler = (args: Record<string, unknown>) => Promise<{ status: number | string; body: unknown }>;

interface CompiledRoute {
  key: string;
  route: AppRoute;
  metadata: RouteMetadata;
  handler: AnyHandler;
  pattern: RegExp;
  paramNames: string[];
  bodyLimit: number;
  /** The route changes something: a `read` Mind Key is refused. */
  writes: boolean;
}

/** A request's parts before validation: what the URL and body gave, or what an MCP tool call's arguments gave. */
export interface RouteInput {
  params: Record<string, unknown>;
  query: Record<string, unknown>;
  body: unknown;
}

/** A route's answer as data: JSON (validated when configured), nothing (204), or bytes of `contentType`. */
export type RouteAnswer =
  | { status: number; kind: 'json'; body: unknown }
  | { status: number; kind: 'empty' }
  | { status: number; kind: 'bytes'; contentType: string; body: Buffer };

export interface PipelineOptions {
  validateResponses: boolean;
  /** The client's address under the trust-proxy setting (`?key=` and failed logins are limited by it). */
  ipOf: (req: IncomingMessage) => string;
  /** How failures are answered (the unexpected logged first). */
  errors: ErrorResponder;
}

/** `/computers/:id/commands` -> a pattern matching as Express does: any case, an optional trailing slash. */
function compilePath(path: string): { pattern: RegExp; paramNames: string[] } {
  const paramNames: string[] = [];
  const source = path
    .split('/')
    .map((segment) => {
      if (!segment.startsWith(':')) return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      paramNames.push(segment.slice(1));
      return '([^/]+)';
    })
    .join('/');
  return { pattern: new RegExp(`^${source}/?$`, 'i'), paramNames };
}

function handlerAt(implementation: object, key: string): AnyHandler {
  const handler = key.split('.').reduce<unknown>((node, name) => (node as Record<string, unknown> | undefined)?.[name], implementation);
  if (typeof handler !== 'function') throw new Error(`No handler for route ${key}`);
  return handler as AnyHandler;
}

const decodeParam = (name: string, raw: string) => {
  try {
    return decodeURIComponent(raw);
  } catch {
    throw ApiError.invalidField(`params.${name}`, 'is not valid percent-encoding');
  }
};

const METHOD_ORDER = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

/** The methods a path takes, as `Allow` lists them: each route's, HEAD with GET, and OPTIONS. */
function allowOf(routes: CompiledRoute[]): string[] {
  const methods = new Set<string>(['OPTIONS', ...routes.map((compiled) => compiled.route.method)]);
  if (methods.has('GET')) methods.add('HEAD');
  return METHOD_ORDER.filter((method) => methods.has(method));
}

/**
 * The one way a request to a contract route is served: the route matched from the contract's list,
 * the credential checked from the headers (before any body is read: a request without a valid
 * credential costs no body parsing), the body read up to the route's limit, the request validated
 * against the contract, the handler, the answer (validated when configured), the error object.
 * Express serves only what is not a contract route (the guides, the OpenAPI document, 404s).
 */
export function createPipeline(contract: AppRouter, implementation: object, auth: Authenticator, options: PipelineOptions) {
  const byMethod = new Map<string, CompiledRoute[]>();
  const byKey = new Map<string, CompiledRoute>();
  for (const { key, route, metadata } of listRoutes(contract) as ContractRoute[]) {
    const compiled: CompiledRoute = {
      key,
      route,
      metadata,
      handler: handlerAt(implementation, key),
      bodyLimit: bodyLimitOf(route),
      writes: isWrite(route),
      ...compilePath(route.path),
    };
    byKey.set(key, compiled);
    const methods = route.method === 'GET' ? ['GET', 'HEAD'] : [route.method];
    for (const method of methods) byMethod.set(method, [...(byMethod.get(method) ?? []), compiled]);
  }

  /** Validates a request's parts against the route and runs its handler: the same for HTTP and for MCP tool calls. */
  async function run(compiled: CompiledRoute, input: RouteInput, caller: Caller, req: ApiRequest, res: ServerResponse) {
    const { route } = compiled;
    const failures: Array<[string, ZodError]> = [];
    const check = (location: string, data: unknown, schema: unknown) => {
      const result = checkZodSchema(data, schema);
      if (!result.success) failures.push([location, result.error]);
      return result.success ? result.data : undefined;
    };
    const validParams = check('params', input.params, route.pathParams);
    const validQuery = check('query', input.query, route.query);
    // A route whose handler checks its body itself (in pieces: a whole-mind import) gets it as sent.
    const validBody = check('body', input.body, 'body' in route && compiled.metadata.bodyCheckedByHandler !== true ? route.body : null);
    if (failures.length > 0) throw validationError(failures);

    return compiled.handler({
      params: validParams,
      query: validQuery,
      body: validBody,
      headers: req.headers,
      caller,
      req,
      res,
    });
  }

  async function serve(compiled: CompiledRoute, match: RegExpExecArray, query: string, req: ApiRequest, res: ServerResponse) {
    const { metadata } = compiled;
    const params: Record<string, string> = {};
    compiled.paramNames.forEach((name, i) => {
      params[name] = decodeParam(name, match[i + 1] ?? '');
    });
    req.query = query ? parseQuery(query) : {};
    req.ip = options.ipOf(req);

    let caller: Caller;
    try {
      caller = await auth.authenticate(req, res, metadata.auth, compiled.writes);
    } catch (err) {
      // Refused before its body was read: don't spend anything on reading it.
      if (hasBody(req)) res.setHeader('Connection', 'close');
      throw err;
    }
    checkJson(params, 'params');
    checkJson(req.query, 'query');
    // A route whose handler checks its body does so in pieces, checkJson included (a whole-mind import); its body is parsed in pieces too.
    const handlerChecks = metadata.bodyCheckedByHandler === true;
    const rawBody = compiled.bodyLimit > 0 ? await readJsonBody(req, res, compiled.bodyLimit, handlerChecks) : undefined;
    const answer = await answerOf(compiled, await run(compiled, { params, query: req.query, body: rawBody }, caller, req, res));
    res.statusCode = answer.status;
    if (answer.kind === 'empty') return void res.end();
    if (answer.kind === 'bytes') {
      res.setHeader('Content-Type', answer.contentType);
      return void res.end(answer.body);
    }
    sendJson(res, answer.status, answer.body);
  }

  function answerOf(compiled: CompiledRoute, result: { status: number | string; body: unknown }): RouteAnswer {
    const { route } = compiled;
    const status = Number(result.status);
    const declared = route.responses[status];
    if (declared !== undefined && isAppRouteNoBody(declared)) return { status, kind: 'empty' };
    if (declared !== undefined && isAppRouteOtherResponse(declared)) {
      return { status, kind: 'bytes', contentType: declared.contentType, body: result.body as Buffer };
    }
    const body = options.validateResponses
      ? validateResponse({ appRoute: route, response: { status, body: result.body } }).body
      : result.body;
    return { status, kind: 'json', body };
  }

  /**
   * Runs the route `key` for a caller its transport authenticated (the MCP endpoint): the same
   * validation, handler and answer as over HTTP, without a URL. Throws the ApiError HTTP would answer.
   */
  async function invoke(key: string, input: RouteInput, caller: Caller, req: ApiRequest, res: ServerResponse): Promise<RouteAnswer> {
    const compiled = byKey.get(key);
    if (!compiled) throw new Error(`No route ${key}`);
    refuseReadOnlyWrite(caller, compiled.writes);
    checkJson(input.params, 'params');
    checkJson(input.query, 'query');
    checkJson(input.body, 'body');
    return answerOf(compiled, await run(compiled, input, caller, req, res));
  }

  const allRoutes = [...byKey.values()];

  /** A request's path as Express reads it (a #fragment is no part of the path or the query), and its query. */
  function targetOf(req: RawRequest): { path: string; query: string } {
    const url = req.url ?? '';
    const fragmentAt = url.indexOf('#');
    const target = fragmentAt < 0 ? url : url.slice(0, fragmentAt);
    const queryAt = target.indexOf('?');
    return queryAt < 0 ? { path: target, query: '' } : { path: target.slice(0, queryAt), query: target.slice(queryAt + 1) };
  }

  /** The methods the request's path takes (`Allow`), or [] when no route has the path. */
  const allowedMethods = (req: RawRequest): string[] => {
    const { path } = targetOf(req);
    const routes = allRoutes.filter((compiled) => compiled.pattern.test(path));
    return routes.length > 0 ? allowOf(routes) : [];
  };

  /**
   * The server for this request if it addresses a contract route's path, else undefined (Express
   * takes it). A path with other methods than this one is a 405 naming them in `Allow`; OPTIONS
   * answers 204 with `Allow` (CORS headers come only for a listed origin, from headers.ts).
   */
  const routeFor = (req: RawRequest): ((res: ServerResponse) => void) | undefined => {
    const { path, query } = targetOf(req);
    for (const compiled of byMethod.get(req.method ?? '') ?? []) {
      const match = compiled.pattern.exec(path);
      if (!match) continue;
      return (res) => {
        serve(compiled, match, query, req as ApiRequest, res).catch((err: unknown) => options.errors.answer(err, req, res));
      };
    }
    const allow = allowedMethods(req);
    if (allow.length === 0) return undefined;
    return (res) => {
      res.setHeader('Allow', allow.join(', '));
      if (req.method === 'OPTIONS') {
        res.statusCode = 204;
        return void res.end();
      }
      const takes = allow.filter((method) => method !== 'HEAD' && method !== 'OPTIONS');
      if (hasBody(req)) res.setHeader('Connection', 'close');
      options.errors.send(res, ApiError.of(405, 'method_not_allowed', ERROR_MESSAGES.methodNotAllowed(req.method ?? '', path, takes)));
    };
  };
  return Object.assign(routeFor, { invoke, allowedMethods });
}
