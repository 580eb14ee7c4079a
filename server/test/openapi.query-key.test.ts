// `key` in a query string is always the Mind Key (spec section 5, DESIGN section 5): no route may
// read a query parameter of that name for anything else. Checked on the contract's query schemas
// (through every zod wrapper) and on the parameters of docs/openapi.json.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { c, contract, listRoutes } from '@mindservice/contract';
import type { AppRouter } from '@ts-rest/core';
import { z } from 'zod';

const MIND_KEY_PARAMETER = 'key';

/**
 * Every field name a query schema reads, whatever wraps its object: refinements and transforms,
 * optional, nullable, default, catch, readonly, branded, pipelines, lazy, intersections and unions.
 * A zod type it does not know is an error, so a new wrapper cannot hide a field from the check.
 */
function queryFieldNames(schema: z.ZodTypeAny): string[] {
  const def = schema._def as Record<string, unknown> & { typeName: string };
  const inner = (name: string) => queryFieldNames(def[name] as z.ZodTypeAny);
  switch (def.typeName) {
    case 'ZodObject':
      return Object.keys((schema as z.AnyZodObject).shape);
    case 'ZodEffects':
      return inner('schema');
    case 'ZodOptional':
    case 'ZodNullable':
    case 'ZodDefault':
    case 'ZodCatch':
    case 'ZodReadonly':
      return inner('innerType');
    case 'ZodBranded':
      return inner('type');
    case 'ZodPipeline':
      return [...inner('in'), ...inner('out')];
    case 'ZodLazy':
      return queryFieldNames((def.getter as () => z.ZodTypeAny)());
    case 'ZodIntersection':
      return [...inner('left'), ...inner('right')];
    case 'ZodUnion':
    case 'ZodDiscriminatedUnion':
      return [...(def.options as z.ZodTypeAny[] | Map<unknown, z.ZodTypeAny>).values()].flatMap(queryFieldNames);
    case 'ZodRecord':
      // Any name at all, `key` included.
      return [MIND_KEY_PARAMETER];
    default:
      throw new Error(`queryFieldNames: cannot read the fields of a ${def.typeName} query schema`);
  }
}

/** `METHOD path` of every route whose query schema has a field named `key`. */
function routesReadingKey(router: AppRouter): string[] {
  return listRoutes(router)
    .filter(({ route }) => route.query && queryFieldNames(route.query as z.ZodTypeAny).includes(MIND_KEY_PARAMETER))
    .map(({ route }) => `${route.method} ${route.path}`);
}

interface Parameter {
  name: string;
  in: string;
  schema?: { properties?: Record<string, unknown>; oneOf?: Parameter['schema'][]; anyOf?: Parameter['schema'][] };
}

/** Query parameter names of every operation, the fields of form-exploded object parameters included. */
function documentQueryNames(document: { paths: Record<string, Record<string, { parameters?: Parameter[] }>> }) {
  const found: Array<{ where: string; name: string }> = [];
  const fieldsOf = (schema: Parameter['schema'], where: string) => {
    if (!schema) return;
    for (const name of Object.keys(schema.properties ?? {})) found.push({ where, name });
    for (const variant of [...(schema.oneOf ?? []), ...(schema.anyOf ?? [])]) fieldsOf(variant, where);
  };
  for (const [path, item] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      const where = `${method.toUpperCase()} ${path}`;
      for (const parameter of operation.parameters ?? []) {
        if (parameter.in !== 'query') continue;
        found.push({ where, name: parameter.name });
        fieldsOf(parameter.schema, where);
      }
    }
  }
  return found;
}

describe('`key` in a query string is only ever the Mind Key', () => {
  test('no route of the contract has a query field named `key`', () => {
    assert.ok(
      listRoutes(contract).some(({ route }) => route.query),
      'the contract has query schemas to check',
    );
    assert.deepEqual(routesReadingKey(contract), []);
  });

  test('recall filters on a memory key with `memory_key`', () => {
    const recall = listRoutes(contract).find(({ key }) => key === 'memories.recallMemories');
    assert.ok(recall?.route.query, 'GET /memory/recall has a query');
    assert.ok(queryFieldNames(recall.route.query as z.ZodTypeAny).includes('memory_key'), 'recall reads memory_key');
  });

  test('the check finds `key` behind every wrapper a query schema may have', () => {
    const q = z.object({ q: z.string().optional() });
    const withKey = z.object({ key: z.string().optional() });
    const cases: Record<string, z.ZodTypeAny> = {
      plain: withKey,
      refined: withKey.refine(() => true),
      transformed: withKey.transform((v) => v),
      'refined twice': withKey.refine(() => true).superRefine(() => undefined),
      optional: withKey.optional(),
      nullable: withKey.nullable(),
      default: withKey.default({}),
      catch: withKey.catch({}),
      readonly: withKey.readonly(),
      branded: withKey.brand<'Q'>(),
      pipeline: z.record(z.string()).pipe(withKey),
      lazy: z.lazy(() => withKey),
      'intersection, right': z.intersection(q, withKey),
      'intersection, left, refined': z.intersection(
        withKey.refine(() => true),
        q,
      ),
      union: z.union([q, withKey]),
      'discriminated union': z.discriminatedUnion('t', [z.object({ t: z.literal('a') }), z.object({ t: z.literal('b'), key: z.string() })]),
      'merged and extended': q.merge(withKey).extend({ more: z.string() }),
      record: z.record(z.string()),
    };
    for (const [label, query] of Object.entries(cases)) {
      const router = c.router({ r: { method: 'GET', path: '/x', query, responses: { 200: z.object({}) } } });
      assert.deepEqual(routesReadingKey(router), ['GET /x'], label);
    }
    const clean = c.router({
      r: {
        method: 'GET',
        path: '/x',
        query: z.intersection(q, z.object({ memory_key: z.string() })).optional(),
        responses: { 200: z.object({}) },
      },
    });
    assert.deepEqual(routesReadingKey(clean), []);
    assert.throws(() => queryFieldNames(z.string()), /ZodString/);
  });

  test('docs/openapi.json: no query parameter named `key`; only the MindKeyQuery scheme reads it', () => {
    const document = JSON.parse(readFileSync(new URL('../../docs/openapi.json', import.meta.url), 'utf8'));
    const names = documentQueryNames(document);
    assert.ok(
      names.some(({ name }) => name === 'memory_key'),
      'query parameters were found',
    );
    assert.deepEqual(
      names.filter(({ name }) => name === MIND_KEY_PARAMETER),
      [],
    );
    const queryKeySchemes = Object.entries(
      document.components.securitySchemes as Record<string, { type: string; in?: string; name?: string }>,
    )
      .filter(([, scheme]) => scheme.type === 'apiKey' && scheme.in === 'query')
      .map(([name, scheme]) => [name, scheme.name]);
    assert.deepEqual(queryKeySchemes, [['MindKeyQuery', MIND_KEY_PARAMETER]]);
    // The check itself sees a `key` parameter, also inside a form-exploded object parameter.
    const planted = {
      paths: {
        '/a': { get: { parameters: [{ name: 'key', in: 'query' }] } },
        '/b': { get: { parameters: [{ name: 'command', in: 'query', schema: { oneOf: [{ properties: { type: {}, key: {} } }] } }] } },
      },
    };
    assert.deepEqual(
      documentQueryNames(planted).filter(({ name }) => name === MIND_KEY_PARAMETER),
      [
        { where: 'GET /a', name: 'key' },
        { where: 'GET /b', name: 'key' },
      ],
    );
  });
});
