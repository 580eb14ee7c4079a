import { OpenAPIRegistry, OpenApiGeneratorV31, type RouteConfig } from '@asteasolutions/zod-to-openapi';
import { isZodType } from '@ts-rest/core';
import type { AuthKind } from './common.js';
import { routesWithOwnErrors } from './examples/errors.js';
import { contract } from './index.js';
import { listRoutes } from './routes.js';
import type { z } from './zod.js';
import { commandQueryForm } from './openapi/command-query.js';
import { forbidNul } from './openapi/forbid-nul.js';
import { liftParameterDescriptions, unfilledOptionalQuery } from './openapi/parameters.js';
import { responsesOf } from './openapi/responses.js';
import { wholeExamples } from './openapi/whole-examples.js';

export const API_VERSION = '0.1.0';

const SECURITY: Record<AuthKind, Record<string, string[]>[]> = {
  none: [],
  jwt: [{ JWT: [] }],
  mindKey: [{ MindKey: [] }, { MindKeyQuery: [] }],
  mindKeyOrJwt: [{ MindKey: [] }, { MindKeyQuery: [] }, { JWT: [] }],
  computerToken: [{ ComputerToken: [] }],
};

const AUTH_TEXT: Record<AuthKind, string> = {
  none: 'No credential.',
  jwt: 'Credential: the account JWT (`Authorization: Bearer <jwt>`).',
  mindKey:
    'Credential: the Mind Key, as `Authorization: Bearer mk_...` or `?key=mk_...` (the query form is limited to 60 requests a minute per IP).',
  mindKeyOrJwt: "Credential: a Mind Key (header or `?key=`) or the owning user's JWT.",
  computerToken: 'Credential: the Computer Token (`Authorization: Bearer ct_...`) issued at registration.',
};

/** What each tag (the area of a route) holds: Swagger UI shows it above the tag's operations. */
const TAGS: Record<string, string> = {
  System: 'Health, the list of routes, and this document. No credential.',
  Accounts: 'Register and log in: the JWT for the account routes. No credential.',
  Minds: "Create, list and delete a user's minds (JWT). Creating a mind answers its Mind Key, once.",
  Tasks: "The Mind Key's mind's tasks: create, list in priority order, update, complete, delete. GET forms for URL-only tools.",
  Memories:
    "The mind's memories: store, full-text recall, statistics; verification by the human (JWT); the whole mind exported and imported.",
  Chat: 'Chat messages between the human and the agent, per thread.',
  Scripts: 'Named scripts the mind keeps (name unique in the mind).',
  Webhooks: 'Signed HTTP callbacks when events happen in the mind; their delivery history and redelivery.',
  Computers: 'Remote control of registered computers (Mind Key or JWT): install codes, commands, their results and screenshots.',
  'Computer agent': 'What `screen-remote-agent` calls: registration with an install code, then its Computer Token for polling and results.',
};

/** Builds the OpenAPI 3.1 document from the contract. Pure: same contract, same document. */
export function buildOpenApiDocument() {
  const registry = new OpenAPIRegistry();
  registry.registerComponent('securitySchemes', 'MindKey', {
    type: 'http',
    scheme: 'bearer',
    description: 'Mind Key (`mk_...`) from POST /minds, sent as `Authorization: Bearer mk_...`.',
  });
  registry.registerComponent('securitySchemes', 'MindKeyQuery', {
    type: 'apiKey',
    in: 'query',
    name: 'key',
    description: 'Mind Key as the `key` query parameter, for URL-only tools. Limited to 60 requests a minute per IP.',
  });
  registry.registerComponent('securitySchemes', 'JWT', {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'JWT',
    description: 'Account token from POST /register or POST /login, valid 7 days.',
  });
  registry.registerComponent('securitySchemes', 'ComputerToken', {
    type: 'http',
    scheme: 'bearer',
    description: 'Computer Token (`ct_...`) from POST /computers/register; used only by the agent.',
  });

  const routes = listRoutes(contract);
  const unknown = routesWithOwnErrors().filter((key) => !routes.some((r) => r.key === key));
  if (unknown.length) throw new Error(`error examples for routes the contract does not have: ${unknown.join(', ')}`);
  const seen = new Set<string>();
  const sharedExamples = new Map<string, string>();
  for (const entry of routes) {
    const { name, route, metadata } = entry;
    if (!TAGS[metadata.tag]) throw new Error(`${entry.key}: tag ${metadata.tag} has no description (TAGS)`);
    if (seen.has(name)) throw new Error(`duplicate operationId ${name}`);
    seen.add(name);
    const request: RouteConfig['request'] = {};
    if (route.pathParams) request.params = route.pathParams as z.AnyZodObject;
    if (route.query) request.query = route.query as z.AnyZodObject;
    if (isZodType(route.headers)) request.headers = route.headers as z.AnyZodObject;
    if (route.method !== 'GET' && 'body' in route && isZodType(route.body)) {
      request.body = { required: true, content: { 'application/json': { schema: route.body as z.ZodTypeAny } } };
    }
    registry.registerPath({
      method: route.method.toLowerCase() as RouteConfig['method'],
      path: route.path.replace(/:(\w+)/g, '{$1}'),
      operationId: name,
      summary: route.summary,
      description: [route.description, AUTH_TEXT[metadata.auth]].filter(Boolean).join('\n\n'),
      tags: [metadata.tag],
      security: SECURITY[metadata.auth],
      request,
      responses: responsesOf(registry, sharedExamples, entry),
    });
  }

  const document = new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: '3.1.0',
    info: {
      title: 'Mind Service API',
      version: API_VERSION,
      description:
        'A persistent home for LLM agents: minds with tasks, memories, chat and scripts, signed webhooks, and remote computer control. ' +
        'Errors always have the shape `{statusCode, error, message, code, docs, details?}`: `code` is stable and machine-readable, ' +
        'each error status of an operation lists the codes it can answer, and `docs` links to the code in [the errors guide](/docs/errors). ' +
        'Guides: [/docs](/docs).',
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [{ url: '/', description: 'This server' }],
    tags: [...new Set(routes.map((r) => r.metadata.tag))].map((name) => ({ name, description: TAGS[name] })),
  });
  // What the generator cannot say, added to its document (each step in ./openapi/).
  liftParameterDescriptions(document);
  commandQueryForm(document);
  unfilledOptionalQuery(document);
  wholeExamples(document, routes);
  forbidNul(document);
  return document;
}

export { badRequestOf } from './examples/errors.js';
export type { BadRequest } from './examples/shared.js';
export { ERROR_MESSAGES } from './errors/messages.js';
