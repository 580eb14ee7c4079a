import { EXAMPLE_AUTH_DOCS_URL, MB } from '../common.js';
import { ERROR_CODES, type ErrorCode } from '../errors/codes.js';
import { issueDetails } from '../errors/issues.js';
import { ERROR_MESSAGES } from '../errors/messages.js';
import { bodyLimitOf, type ContractRoute, isWrite } from '../routes.js';
import type { z } from '../zod.js';
import { ACCOUNTS_ERRORS } from './accounts.js';
import { COMPUTERS_ERRORS } from './computers.js';
import { MEMORIES_ERRORS } from './memories.js';
import { MINDS_ERRORS } from './minds.js';
import { type BadRequest, codeOf, example, fieldExample, type NamedExample, type RouteErrors } from './shared.js';
import { TASKS_ERRORS } from './tasks.js';
import { WEBHOOKS_ERRORS } from './webhooks.js';

/** Per route (`area.name`): its own causes of each error status (each area's in its file here). Statuses every route shares are made below. */
const ROUTE_ERRORS: Record<string, RouteErrors> = {
  ...ACCOUNTS_ERRORS,
  ...MINDS_ERRORS,
  ...TASKS_ERRORS,
  ...MEMORIES_ERRORS,
  ...WEBHOOKS_ERRORS,
  ...COMPUTERS_ERRORS,
};

const CREDENTIAL_NAMES = { mindKey: 'a Mind Key', jwt: 'a JWT', computerToken: 'a Computer Token' } as const;
const ACCEPTS = {
  none: [],
  jwt: ['jwt'],
  mindKey: ['mindKey'],
  mindKeyOrJwt: ['mindKey', 'jwt'],
  computerToken: ['computerToken'],
} as const;

/** The server's 401 for a request without a credential: the spec's message, the guide, and what the route takes. */
function missingCredential({ metadata }: ContractRoute): NamedExample {
  const accepts: readonly (keyof typeof CREDENTIAL_NAMES)[] = ACCEPTS[metadata.auth];
  const wanted = accepts.map((kind) => CREDENTIAL_NAMES[kind]).join(' or ');
  const hint = `this route needs ${wanted}${accepts.includes('mindKey') ? ' (header or `?key=`)' : ''}`;
  const component = `No${accepts.map((kind) => kind[0]!.toUpperCase() + kind.slice(1)).join('Or')}`;
  return example(
    'No credential',
    'credential_missing',
    ERROR_MESSAGES.unauthorized,
    { docs: EXAMPLE_AUTH_DOCS_URL, details: [{ path: 'headers.authorization', message: hint }] },
    component,
  );
}

/** The server's 400 for one part of a request its schema refuses: each issue as `location.path: message`. */
export function validationExample(summary: string, location: 'body' | 'query', schema: z.ZodTypeAny, input: unknown): NamedExample {
  const result = schema.safeParse(input);
  if (result.success) throw new Error(`the 400 example's ${location} is valid: ${JSON.stringify(input)}`);
  const details = issueDetails(location, result.error.issues);
  return example(summary, 'validation_failed', details.map((d) => `${d.path}: ${d.message}`).join('; '), { details });
}

/** What makes a route answer 400 (see BadRequest); routes reading only path parameters: one that is not valid percent-encoding. */
export function badRequestOf(entry: ContractRoute): BadRequest {
  const declared = ROUTE_ERRORS[entry.key]?.[400];
  if (declared) return declared;
  const { route } = entry;
  const name = /:(\w+)/.exec(route.path)?.[1];
  if (!name || route.query || ('body' in route && bodyLimitOf(route) > 0)) {
    throw new Error(`${entry.key}: its 400 example needs a request its schema refuses (ROUTE_ERRORS)`);
  }
  return {
    summary: 'A path parameter that is not valid percent-encoding',
    example: fieldExample(
      'A path parameter that is not valid percent-encoding',
      `params.${name}`,
      'is not valid percent-encoding',
      `BadPercentEncoding-${name}`,
    ),
  };
}

function badRequestExample(entry: ContractRoute): NamedExample {
  const bad = badRequestOf(entry);
  if (bad.example) return bad.example;
  const { route } = entry;
  if (bad.body !== undefined) return validationExample(bad.summary, 'body', (route as { body: z.ZodTypeAny }).body, bad.body);
  if (!route.query) throw new Error(`${entry.key}: a 400 query example on a route without a query`);
  return validationExample(bad.summary, 'query', route.query as z.ZodTypeAny, bad.query);
}

const own = (entry: ContractRoute, status: keyof RouteErrors) => (ROUTE_ERRORS[entry.key]?.[status] ?? []) as NamedExample[];
const takesMindKey = (entry: ContractRoute) => entry.metadata.auth === 'mindKey' || entry.metadata.auth === 'mindKeyOrJwt';

/** The examples of one error status of a route: what the server answers there, each cause its own example. */
export function errorExamples(entry: ContractRoute, status: number): NamedExample[] {
  const required = (list: NamedExample[]) => {
    if (list.length === 0) throw new Error(`${entry.key}: no example for its ${status} (contract/src/examples/)`);
    return list;
  };
  switch (status) {
    case 400:
      return [badRequestExample(entry)];
    case 401:
      return ROUTE_ERRORS[entry.key]?.[401] ?? [missingCredential(entry)];
    case 403: {
      const disabled =
        takesMindKey(entry) || entry.metadata.auth === 'computerToken'
          ? [example("The credential's mind is disabled", 'mind_disabled', ERROR_MESSAGES.mindDisabled, undefined, 'MindDisabled')]
          : [];
      return required([...disabled, ...own(entry, 403)]);
    }
    case 413: {
      const limit = bodyLimitOf(entry.route);
      const mb = `${Math.round(limit / MB)} MB`;
      return [
        example(`A body over ${mb}`, 'body_too_large', ERROR_MESSAGES.bodyTooLarge(limit), undefined, `BodyOver${mb.replace(' ', '')}`),
        ...own(entry, 413),
      ];
    }
    case 415:
      return [
        example(
          'A body without Content-Type: application/json',
          'content_type_unsupported',
          ERROR_MESSAGES.contentTypeUnsupported('text/plain'),
          undefined,
          'BodyNotJson',
        ),
        example(
          'A charset other than UTF-8',
          'encoding_unsupported',
          ERROR_MESSAGES.encodingUnsupported('unsupported charset "LATIN1"'),
          undefined,
          'UnsupportedCharset',
        ),
        example(
          'A Content-Encoding other than gzip, deflate or br',
          'encoding_unsupported',
          ERROR_MESSAGES.encodingUnsupported('unsupported content encoding "compress"'),
          undefined,
          'UnsupportedContentEncoding',
        ),
      ];
    case 429:
      return required(
        ROUTE_ERRORS[entry.key]?.[429] ??
          (takesMindKey(entry)
            ? [example('Over 60 `?key=` requests a minute', 'rate_limited', ERROR_MESSAGES.rateLimited, undefined, 'KeyRateLimit')]
            : []),
      );
    case 500:
      return [example('An unexpected failure', 'internal_error', ERROR_MESSAGES.internal, undefined, 'InternalError')];
    case 503:
      return [
        example('The service is shutting down', 'shutting_down', ERROR_MESSAGES.shuttingDown, undefined, 'ShuttingDown'),
        example('The database is busy', 'database_busy', ERROR_MESSAGES.databaseBusy, undefined, 'DatabaseBusy'),
        ...own(entry, 503),
      ];
    case 404:
    case 409:
    case 412:
    case 502:
    case 504:
      return required(own(entry, status));
    default:
      throw new Error(`${entry.key}: no examples for status ${status}`);
  }
}

/** The 401 codes of each credential kind a route takes (a missing, malformed or wrong credential, or an unknown one of the kind). */
const CREDENTIAL_CODES: Record<keyof typeof CREDENTIAL_NAMES, ErrorCode[]> = {
  mindKey: ['mind_key_invalid', 'mind_key_expired', 'mind_key_revoked'],
  jwt: ['jwt_invalid', 'jwt_expired'],
  computerToken: ['computer_token_invalid'],
};

/** The codes besides its examples' that every route of its kind can answer with a status. */
function sharedCodes(entry: ContractRoute, status: number): ErrorCode[] {
  const { route, metadata } = entry;
  const readsBody = 'body' in route && bodyLimitOf(route) > 0;
  switch (status) {
    case 400:
      return ['validation_failed', ...(readsBody ? (['json_invalid', 'json_too_deep'] as const) : [])];
    case 401: {
      const accepts: readonly (keyof typeof CREDENTIAL_NAMES)[] = ACCEPTS[metadata.auth];
      if (accepts.length === 0) return [];
      return ['credential_missing', 'credential_malformed', 'credential_wrong_kind', ...accepts.flatMap((kind) => CREDENTIAL_CODES[kind])];
    }
    case 403:
      // A `read` Mind Key on a route that changes something.
      return takesMindKey(entry) && isWrite(route) ? ['key_read_only'] : [];
    default:
      return [];
  }
}

/**
 * Every code a route can answer with an error status: its examples' codes, the codes every route of
 * its kind has there, and the ones it names without an example. The document lists them.
 */
export function errorCodes(entry: ContractRoute, status: number): ErrorCode[] {
  const declared = (ROUTE_ERRORS[entry.key]?.codes ?? []).filter((code) => ERROR_CODES[code].status === status);
  const codes = [...errorExamples(entry, status).map(codeOf), ...sharedCodes(entry, status), ...declared];
  return [...new Set(codes)];
}

/** Route keys the table names: each must be a route of the contract. */
export const routesWithOwnErrors = () => Object.keys(ROUTE_ERRORS);
