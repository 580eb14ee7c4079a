import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AppContext } from '../core/context.js';
import { ApiError } from '../http/api-error.js';
import type { Authenticator } from '../http/auth.js';
import { hasBody, readJsonBody } from '../http/body.js';
import { apiErrorOf, type ErrorResponder, sendJson } from '../http/errors.js';
import { clientAddressKey, createRateLimiter } from '../http/rate-limit.js';
import type { RawRequest } from '../http/request.js';
import { authorizationServerMetadata, protectedResourceMetadata } from './metadata.js';
import { invalidRequest, OAuthProblem, sendOAuthJson, sendProblem } from './problem.js';
import { OAuthService } from './service.js';
import { OAuthTokens } from './tokens.js';

/** Registrations one address may make in an hour, and client metadata documents it may make the server fetch. */
export const REGISTRATIONS_PER_HOUR = 20;
export const DOCUMENT_FETCHES_PER_HOUR = 20;
/** The bodies of /oauth/register, /oauth/token and /oauth/consent are small. */
const BODY_LIMIT = 16 * 1024;

export interface OAuthEndpointOptions {
  authenticator: Authenticator;
  errors: ErrorResponder;
  ipOf: (req: IncomingMessage) => string;
}

type Serve = (req: RawRequest, res: ServerResponse, query: URLSearchParams) => Promise<void>;

/**
 * OAuth 2.1 for hosted assistants' connectors (docs/mcp.md): the two metadata documents, dynamic
 * registration, the token endpoint, and the consent page's two calls. A protocol with formats of its
 * own (form-encoded token requests, RFC 6749 errors), so it is served here rather than by the contract.
 * Answers undefined for a path that is not one of these.
 */
export function oauthEndpoint(ctx: AppContext, options: OAuthEndpointOptions) {
  const publicUrl = ctx.config.publicUrl;
  const service = new OAuthService(ctx);
  const tokens = new OAuthTokens(ctx);
  const registrations = createRateLimiter(ctx, 'oauth-register', REGISTRATIONS_PER_HOUR, 3600_000);
  const documentFetches = createRateLimiter(ctx, 'oauth-fetch', DOCUMENT_FETCHES_PER_HOUR, 3600_000);
  const countFetch = (req: IncomingMessage) => async () => {
    const hit = await documentFetches.hit(`oauth-fetch:${clientAddressKey(options.ipOf(req))}`);
    if (hit.limited) {
      throw ApiError.of(
        429,
        'oauth_clients_exceeded',
        `At most ${DOCUMENT_FETCHES_PER_HOUR} client metadata documents an hour are fetched for one address; try again later.`,
        { headers: { 'Retry-After': String(hit.retryAfter) } },
      );
    }
  };

  const document =
    (build: (url: string) => unknown): Serve =>
    async (_req, res) => {
      res.setHeader('Cache-Control', 'public, max-age=3600');
      sendJson(res, 200, build(publicUrl));
    };

  const register: Serve = async (req, res) => {
    const hit = await registrations.hit(`oauth-register:${clientAddressKey(options.ipOf(req))}`);
    if (hit.limited) {
      throw new OAuthProblem(
        'temporarily_unavailable',
        `At most ${REGISTRATIONS_PER_HOUR} registrations an hour from one address; try again later.`,
        429,
        {
          'Retry-After': String(hit.retryAfter),
        },
      );
    }
    const body = await protocolBody(() => readJsonBody(req, res, BODY_LIMIT), 'invalid_client_metadata');
    sendOAuthJson(res, 201, await service.register(body));
  };

  const token: Serve = async (req, res) => {
    const form = await protocolBody(() => readForm(req, res), 'invalid_request');
    sendOAuthJson(res, 200, await tokens.exchange(withBasicClientId(req, form)));
  };

  const describe: Serve = async (req, res, query) => {
    res.setHeader('Cache-Control', 'no-store');
    sendJson(res, 200, await service.describe(Object.fromEntries(paramsOnce(query, 'query')), countFetch(req)));
  };

  const decide: Serve = async (req, res) => {
    const caller = await options.authenticator.authenticate({ headers: req.headers, ip: options.ipOf(req) }, res, 'jwt');
    if (caller.kind !== 'user') throw new Error('the authenticator answered no user for a JWT route');
    const body = await readJsonBody(req, res, BODY_LIMIT);
    if (typeof body !== 'object' || body === null || Array.isArray(body)) throw ApiError.invalidField('body', 'must be a JSON object');
    res.setHeader('Cache-Control', 'no-store');
    sendJson(res, 200, await service.decide(caller.userId, body as Record<string, unknown>, countFetch(req)));
  };

  // The authorization endpoint is the console's consent page; the request's parameters travel in the
  // URL's fragment, which the page reads and the server never logs twice.
  const authorize: Serve = async (req, res) => {
    const query = (req.url ?? '').split('?')[1] ?? '';
    res.statusCode = 302;
    res.setHeader('Location', `/console/#/oauth/authorize?${query}`);
    res.setHeader('Cache-Control', 'no-store');
    res.end();
  };

  const ROUTES: Record<string, { methods: Record<string, Serve>; protocol?: boolean; anyOrigin?: boolean }> = {
    '/.well-known/oauth-protected-resource': { methods: { GET: document(protectedResourceMetadata) }, anyOrigin: true },
    '/.well-known/oauth-protected-resource/mcp': { methods: { GET: document(protectedResourceMetadata) }, anyOrigin: true },
    '/.well-known/oauth-authorization-server': { methods: { GET: document(authorizationServerMetadata) }, anyOrigin: true },
    '/oauth/register': { methods: { POST: register }, protocol: true, anyOrigin: true },
    '/oauth/token': { methods: { POST: token }, protocol: true, anyOrigin: true },
    '/oauth/authorize': { methods: { GET: authorize } },
    '/oauth/consent': { methods: { GET: describe, POST: decide } },
  };

  return (req: RawRequest, res: ServerResponse): boolean => {
    const [path = '', search = ''] = (req.url ?? '').split('?', 2);
    const route = ROUTES[path.length > 1 ? path.replace(/\/$/, '') : path];
    if (!route) return false;
    const method = req.method === 'HEAD' ? 'GET' : (req.method ?? 'GET');
    const allow = [...Object.keys(route.methods), 'OPTIONS'].join(', ');
    // Browser-based MCP clients read the metadata and exchange tokens from their own origin; none of it rides on cookies.
    if (route.anyOrigin && req.headers.origin !== undefined) {
      res.setHeader('Access-Control-Allow-Origin', '*');
      res.setHeader('Access-Control-Expose-Headers', 'WWW-Authenticate, Retry-After');
    }
    if (method === 'OPTIONS') {
      if (route.anyOrigin) {
        res.setHeader('Access-Control-Allow-Methods', allow);
        res.setHeader('Access-Control-Allow-Headers', 'Authorization, Content-Type, MCP-Protocol-Version');
        res.setHeader('Access-Control-Max-Age', '600');
      }
      res.setHeader('Allow', allow);
      res.statusCode = 204;
      res.end();
      return true;
    }
    const serve = route.methods[method];
    const fail = (err: unknown) => {
      if (err instanceof OAuthProblem) return sendProblem(res, err);
      if (route.protocol && err instanceof ApiError && err.statusCode < 500) {
        return sendProblem(res, new OAuthProblem('invalid_request', err.message, err.statusCode));
      }
      options.errors.answer(err, req, res);
    };
    if (!serve) {
      res.setHeader('Allow', allow);
      const message = `${req.method} is not allowed on ${path}; it takes ${allow}`;
      fail(route.protocol ? new OAuthProblem('invalid_request', message, 405) : ApiError.of(405, 'method_not_allowed', message));
      return true;
    }
    serve(req, res, new URLSearchParams(search)).catch(fail);
    return true;
  };
}

/** A body read for /oauth/register or /oauth/token: what the service's reader refuses becomes the protocol's error. */
async function protocolBody<T>(read: () => Promise<T>, error: string): Promise<T> {
  try {
    return await read();
  } catch (err) {
    const refusal = apiErrorOf(err);
    if (refusal instanceof ApiError && refusal.statusCode < 500) {
      throw new OAuthProblem(error, refusal.message, refusal.statusCode === 413 ? 413 : 400);
    }
    throw err;
  }
}

/** Each parameter at most once (RFC 6749 section 3.1); an empty value counts as absent. */
function paramsOnce(params: URLSearchParams, where: 'query' | 'body'): Map<string, string> {
  const seen = new Map<string, string>();
  for (const [name, value] of params) {
    if (seen.has(name)) {
      if (where === 'body') throw invalidRequest(`${name} is given more than once`);
      throw ApiError.invalidField(`${where}.${name}`, 'is given more than once');
    }
    if (value !== '') seen.set(name, value);
  }
  return seen;
}

/** A form-encoded body (RFC 6749 section 4.1.3) of at most BODY_LIMIT bytes; past that the rest is discarded unread. */
async function readForm(req: IncomingMessage, res: ServerResponse): Promise<Record<string, string>> {
  const type = req.headers['content-type'] ?? '';
  if (!/^application\/x-www-form-urlencoded\s*(?:;|$)/i.test(type)) {
    if (hasBody(req)) res.setHeader('Connection', 'close');
    throw invalidRequest(`the body must be application/x-www-form-urlencoded (got ${type || 'no Content-Type'})`);
  }
  const text = await new Promise<string>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= BODY_LIMIT) return void chunks.push(chunk);
      req.off('data', onData);
      req.resume();
      res.setHeader('Connection', 'close');
      reject(new OAuthProblem('invalid_request', `the body is larger than ${BODY_LIMIT} bytes`, 413));
    };
    req.on('data', onData);
    req.once('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.once('error', reject);
  });
  return Object.fromEntries(paramsOnce(new URLSearchParams(text), 'body'));
}

/** A client that sends its id as HTTP Basic (client_secret_basic with an empty secret) is read as a public client. */
function withBasicClientId(req: IncomingMessage, form: Record<string, string>): Record<string, string> {
  const match = /^Basic\s+([A-Za-z0-9+/=]+)$/i.exec(req.headers.authorization ?? '');
  if (!match || form.client_id) return form;
  const [id = ''] = Buffer.from(match[1]!, 'base64').toString('utf8').split(':');
  let clientId = id;
  try {
    clientId = decodeURIComponent(id);
  } catch {
    // Not percent-encoded after all: the id as sent.
  }
  return clientId ? { ...form, client_id: clientId } : form;
}
