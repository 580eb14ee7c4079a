import { OpenAPIRegistry, OpenApiGeneratorV31, type RouteConfig } from '@asteasolutions/zod-to-openapi';
import { isZodType, type AppRoute } from '@ts-rest/core';
import { type AuthKind, ErrorObject, errorDescription } from './common.js';
import { COMMAND_PAYLOADS, COMMAND_TYPES } from './commands.js';
import { errorExamples, routesWithOwnErrors } from './examples/errors.js';
import type { NamedExample } from './examples/shared.js';
import { successExamples } from './examples/success.js';
import { contract } from './index.js';
import { SCREENSHOT_EXAMPLE_URL, sampleOf } from './openapi-samples.js';
import { type ContractRoute, listRoutes } from './routes.js';
import { NUL_FREE } from './patterns.js';
import type { z } from './zod.js';

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

type ExampleObject = Omit<NamedExample, 'component'>;

/**
 * Named examples, keyed by their summary in kebab case (unique within one answer). An example with a
 * `component` name is registered once under `components.examples` and referenced.
 */
function examplesObject(registry: OpenAPIRegistry, shared: Map<string, string>, list: NamedExample[], where: string) {
  const out: Record<string, ExampleObject | { $ref: string }> = {};
  for (const { component, ...example } of list) {
    const name = example.summary
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '');
    if (out[name]) throw new Error(`${where}: two examples named ${name}`);
    if (!component) {
      out[name] = example;
      continue;
    }
    const json = JSON.stringify(example);
    const registered = shared.get(component);
    if (registered === undefined) {
      registry.registerComponent('examples', component, example);
      shared.set(component, json);
    } else if (registered !== json) {
      throw new Error(`${where}: example ${component} differs from the one registered under that name`);
    }
    out[name] = { $ref: `#/components/examples/${component}` };
  }
  return out;
}

/** Every input the server reads is validated: a route with path parameters, a query or a body can answer 400. */
const takesInput = (route: AppRoute) => Boolean(route.pathParams || route.query || ('body' in route && isZodType(route.body)));

function responsesOf(registry: OpenAPIRegistry, shared: Map<string, string>, entry: ContractRoute): RouteConfig['responses'] {
  const { route } = entry;
  const out: RouteConfig['responses'] = {};
  const responses = takesInput(route) && !(400 in route.responses) ? { ...route.responses, 400: ErrorObject } : route.responses;
  for (const [code, schema] of Object.entries(responses)) {
    const status = Number(code);
    const description = status < 300 ? (route.summary ?? 'Success') : errorDescription(status);
    if (isZodType(schema)) {
      // An error: what the server answers for this route and status. A success: its schema's examples, unless another status shares the schema.
      const examples = schema === ErrorObject ? errorExamples(entry, status) : successExamples(entry, status);
      out[code] = {
        description,
        content: {
          'application/json': {
            schema: schema as z.ZodTypeAny,
            ...(examples.length ? { examples: examplesObject(registry, shared, examples, `${entry.key} ${status}`) } : {}),
          },
        },
      };
    } else if (schema && typeof schema === 'object' && 'contentType' in schema) {
      const contentType = (schema as { contentType: string }).contentType;
      const examples =
        contentType === 'image/png' ? { examples: { screen: { summary: 'A screen', externalValue: SCREENSHOT_EXAMPLE_URL } } } : {};
      out[code] = { description, content: { [contentType]: { schema: { type: 'string', format: 'binary' }, ...examples } } };
    } else {
      out[code] = { description };
    }
  }
  return out;
}

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
        'Errors always have the shape `{statusCode, error, message, docs?}`. Guides: [/docs](/docs).',
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [{ url: '/', description: 'This server' }],
    tags: [...new Set(routes.map((r) => r.metadata.tag))].map((name) => ({ name, description: TAGS[name] })),
  });
  liftParameterDescriptions(document);
  commandQueryForm(document);
  unfilledOptionalQuery(document);
  wholeExamples(document, routes);
  forbidNul(document);
  return document;
}

interface ParameterObject {
  name: string;
  in: string;
  schema?: Record<string, unknown>;
  [key: string]: unknown;
}

/** A payload schema's field names and the required ones (through a refinement), and its own `anyOf` rule if any. */
function payloadFields(schema: z.ZodTypeAny) {
  let inner = schema;
  while (inner._def.typeName === 'ZodEffects') inner = inner._def.schema;
  const shape = (inner as z.AnyZodObject).shape as Record<string, z.ZodTypeAny>;
  const names = Object.keys(shape);
  const anyOf = (schema._def as { openapi?: { metadata?: { anyOf?: unknown } } }).openapi?.metadata?.anyOf;
  return { names, required: names.filter((name) => !shape[name]!.isOptional()), anyOf };
}

/**
 * `GET /computers/{id}/command` takes each type's own payload fields as query parameters, and no field of
 * another type. OpenAPI says which query parameters go together with one form-exploded object parameter
 * whose schema has a variant per type; the field rules stay those of the contract's query schema.
 */
function commandQueryForm(document: Document) {
  const operation = (document.paths?.['/computers/{id}/command'] as { get?: { parameters?: ParameterObject[] } } | undefined)?.get;
  if (!operation?.parameters) return;
  const query = operation.parameters.filter((p) => p.in === 'query');
  const fields = Object.fromEntries(query.map((p) => [p.name, { ...p.schema, description: p.description ?? p.schema?.description }]));
  const payloadNames = Object.keys(fields).filter((name) => name !== 'type');
  const variants = COMMAND_TYPES.map((type) => {
    const { names, required, anyOf } = payloadFields(COMMAND_PAYLOADS[type]);
    return {
      type: 'object',
      title: type,
      properties: {
        type: { type: 'string', const: type },
        ...Object.fromEntries(names.map((name) => [name, fields[name]])),
        // Another type's fields are refused (400).
        ...Object.fromEntries(payloadNames.filter((name) => !names.includes(name)).map((name) => [name, false])),
      },
      required: ['type', ...required],
      ...(anyOf ? { anyOf } : {}),
    };
  });
  operation.parameters = [
    ...operation.parameters.filter((p) => p.in !== 'query'),
    {
      name: 'command',
      in: 'query',
      required: true,
      style: 'form',
      explode: true,
      description:
        "The command as query parameters: `type` and that type's payload fields by their own names (`keys` comma-separated), e.g. `?type=click&x=10&y=20`. A field of another type is a 400.",
      schema: { oneOf: variants },
      example: sampleOf({ oneOf: variants }, {}, 'GET /computers/{id}/command ?command'),
    },
  ];
}

/** No string the server reads may hold U+0000 (PostgreSQL cannot store one): a 400 naming the field. */
const isStringSchema = (schema: Record<string, unknown>) =>
  schema.type === 'string' || (Array.isArray(schema.type) && schema.type.includes('string'));

/**
 * States the NUL rule on every string schema of the document: `pattern` NUL_FREE where the schema has
 * none (a schema's own pattern refuses U+0000 itself: see patterns.ts). Answers never hold one either
 * (nothing stored does), so the shared components may say it too.
 */
function forbidNul(node: unknown): void {
  if (Array.isArray(node)) {
    for (const item of node) forbidNul(item);
    return;
  }
  if (!node || typeof node !== 'object') return;
  const schema = node as Record<string, unknown>;
  if (isStringSchema(schema) && schema.enum === undefined && schema.const === undefined && schema.format !== 'binary') {
    schema.pattern ??= NUL_FREE;
  }
  for (const [key, value] of Object.entries(schema)) {
    if (key !== 'example' && key !== 'examples' && key !== 'enum' && key !== 'const' && key !== 'default') forbidNul(value);
  }
}

type Document = ReturnType<OpenApiGeneratorV31['generateDocument']>;
interface SchemaLike {
  description?: string;
  $ref?: string;
  allOf?: SchemaLike[];
}
interface ParameterLike {
  description?: string;
  schema?: SchemaLike;
}

function describe(schema: SchemaLike | undefined, components: Record<string, SchemaLike>): string | undefined {
  if (!schema) return undefined;
  if (schema.description) return schema.description;
  if (schema.$ref) return components[schema.$ref.split('/').pop() ?? '']?.description;
  // A described reference (`allOf: [$ref, {description}]`): the route's own words before the component's.
  for (const part of [...(schema.allOf ?? [])].sort((a, b) => Number(Boolean(a.$ref)) - Number(Boolean(b.$ref)))) {
    const found = describe(part, components);
    if (found) return found;
  }
  return undefined;
}

/** Swagger UI shows a parameter's own description; copy it up from its schema (or the referenced component). */
function liftParameterDescriptions(document: Document) {
  const components = (document.components?.schemas ?? {}) as Record<string, SchemaLike>;
  for (const pathItem of Object.values(document.paths ?? {})) {
    for (const operation of Object.values(pathItem as Record<string, { parameters?: ParameterLike[] }>)) {
      for (const parameter of operation.parameters ?? []) {
        parameter.description ??= describe(parameter.schema, components);
      }
    }
  }
}

type Schema = Record<string, unknown>;
interface MediaLike {
  schema?: Schema;
  example?: unknown;
  examples?: unknown;
}
interface OperationLike {
  parameters?: ParameterObject[];
  requestBody?: { content: Record<string, MediaLike> };
  responses: Record<string, { content?: Record<string, MediaLike> }>;
}

function operationOf(document: Document, route: AppRoute): OperationLike {
  const pathItem = document.paths?.[route.path.replace(/:(\w+)/g, '{$1}')] as Record<string, OperationLike> | undefined;
  const operation = pathItem?.[route.method.toLowerCase()];
  if (!operation) throw new Error(`${route.method} ${route.path}: not in the document`);
  return operation;
}

/**
 * Every JSON request body and success answer shows one whole example (LLM tool builders and client
 * generators read no property examples): made of its schema's property examples, and parsed by the
 * route's own zod schema, so it is a request the server takes and an answer it gives.
 */
function wholeExamples(document: Document, routes: ContractRoute[]) {
  const components = (document.components?.schemas ?? {}) as Record<string, Schema>;
  for (const { key, route } of routes) {
    const operation = operationOf(document, route);
    const add = (media: MediaLike | undefined, schema: unknown, where: string) => {
      if (!media?.schema || media.example !== undefined || media.examples !== undefined) return;
      const value = sampleOf(media.schema, components, where);
      const parsed = (schema as z.ZodTypeAny).safeParse(value);
      if (!parsed.success) throw new Error(`${where}: the example made of the property examples is refused: ${parsed.error.message}`);
      media.example = value;
    };
    add(operation.requestBody?.content['application/json'], 'body' in route ? route.body : undefined, `${key} body`);
    for (const [code, response] of Object.entries(operation.responses)) {
      if (Number(code) < 300) add(response.content?.['application/json'], route.responses[Number(code)], `${key} ${code}`);
    }
  }
}

const PREFILLS = ['example', 'examples', 'default'] as const;
/** A value in a sentence: in backticks, then a full stop unless the value ends with one. */
const words = (value: unknown) => {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return `\`${text}\`${/[.!?]$/.test(text) ? '' : '.'}`;
};

/** Whether Swagger UI would take a value from this schema: its own, a referenced one's, an `allOf`/`anyOf`/`oneOf` part's. */
function prefills(schema: unknown, components: Record<string, Schema>): boolean {
  if (!schema || typeof schema !== 'object') return false;
  const s = schema as Schema;
  if (PREFILLS.some((key) => s[key] !== undefined)) return true;
  if (typeof s.$ref === 'string' && prefills(components[s.$ref.split('/').pop() ?? ''], components)) return true;
  return (['allOf', 'anyOf', 'oneOf'] as const).some(
    (key) => Array.isArray(s[key]) && (s[key] as unknown[]).some((p) => prefills(p, components)),
  );
}

/** A copy of a parameter's schema without the values Swagger UI would fill in, each said in `said`; a reference carrying one is inlined. */
function withoutPrefills(schema: Schema, components: Record<string, Schema>, said: string[]): Schema {
  let out: Schema = { ...schema };
  if (typeof out.$ref === 'string') {
    const target = components[out.$ref.split('/').pop() ?? ''];
    if (target && prefills(target, components)) {
      const { $ref: _, ...rest } = out;
      out = { ...structuredClone(target), ...rest };
    }
  }
  for (const key of PREFILLS) {
    if (out[key] === undefined) continue;
    const value = key === 'examples' && Array.isArray(out[key]) ? (out[key] as unknown[])[0] : out[key];
    said.push(`${key === 'default' ? 'Default' : 'Example'}: ${words(value)}`);
    delete out[key];
  }
  for (const key of ['allOf', 'anyOf', 'oneOf'] as const) {
    if (Array.isArray(out[key])) out[key] = (out[key] as Schema[]).map((part) => withoutPrefills(part, components, said));
  }
  return out;
}

/**
 * Swagger UI's "Try it out" fills a parameter in with its `example` or `examples`, or its schema's
 * `example` or `default` (through references, `allOf`, the first `oneOf`/`anyOf`), and sends it: an
 * optional query parameter would filter unasked (the recall form sent `category=preference` and found
 * nothing else). An optional query parameter says its example or default in words instead.
 */
function unfilledOptionalQuery(document: Document) {
  const components = (document.components?.schemas ?? {}) as Record<string, Schema>;
  for (const pathItem of Object.values(document.paths ?? {})) {
    for (const operation of Object.values(pathItem as Record<string, OperationLike>)) {
      for (const parameter of operation.parameters ?? []) {
        if (parameter.in !== 'query' || parameter.required) continue;
        const said: string[] = [];
        if (parameter.example !== undefined) said.push(`Example: ${words(parameter.example)}`);
        const named = Object.values((parameter.examples ?? {}) as Record<string, { value?: unknown }>);
        if (named[0]?.value !== undefined) said.push(`Example: ${words(named[0].value)}`);
        delete parameter.example;
        delete parameter.examples;
        if (parameter.schema) parameter.schema = withoutPrefills(parameter.schema, components, said);
        const description = typeof parameter.description === 'string' ? parameter.description : '';
        const news = [...new Set(said)].filter((sentence) => !description.includes(sentence.replace(/^\w+: (`.*`)\.?$/, '$1')));
        if (news.length) parameter.description = [description, ...news].filter(Boolean).join(' ');
      }
    }
  }
}

export { badRequestOf } from './examples/errors.js';
export { type BadRequest, ERROR_MESSAGES } from './examples/shared.js';
