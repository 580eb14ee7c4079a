import type { OpenAPIRegistry, RouteConfig } from '@asteasolutions/zod-to-openapi';
import { isZodType, type AppRoute } from '@ts-rest/core';
import { ErrorObject, errorCodeSchema, errorDescription } from '../common.js';
import { ERROR_CODES } from '../errors/codes.js';
import { errorCodes, errorExamples } from '../examples/errors.js';
import type { NamedExample } from '../examples/shared.js';
import { successExamples } from '../examples/success.js';
import type { ContractRoute } from '../routes.js';
import type { z } from '../zod.js';
import { SCREENSHOT_EXAMPLE_URL } from './samples.js';

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

/**
 * An error status of a route: when it happens, each code the route can answer there with its
 * meaning, and the error object with `code` narrowed to those codes.
 */
function errorResponse(entry: ContractRoute, status: number) {
  const codes = errorCodes(entry, status);
  if (codes.length === 0) throw new Error(`${entry.key}: no error code for its ${status}`);
  const list = codes.map((code) => `- \`${code}\`: ${ERROR_CODES[code].meaning}`).join('\n');
  return {
    description: `${errorDescription(status)}\n\n${list}`,
    schema: ErrorObject.extend({ code: errorCodeSchema(codes) }),
  };
}

/** Every input the server reads is validated: a route with path parameters, a query or a body can answer 400. */
const takesInput = (route: AppRoute) => Boolean(route.pathParams || route.query || ('body' in route && isZodType(route.body)));

export function responsesOf(registry: OpenAPIRegistry, shared: Map<string, string>, entry: ContractRoute): RouteConfig['responses'] {
  const { route } = entry;
  const out: RouteConfig['responses'] = {};
  const responses = takesInput(route) && !(400 in route.responses) ? { ...route.responses, 400: ErrorObject } : route.responses;
  for (const [code, schema] of Object.entries(responses)) {
    const status = Number(code);
    const description = status < 300 ? (route.summary ?? 'Success') : errorDescription(status);
    if (schema === ErrorObject) {
      // An error: when it happens, its codes, and what the server answers for this route and status.
      const error = errorResponse(entry, status);
      const examples = examplesObject(registry, shared, errorExamples(entry, status), `${entry.key} ${status}`);
      out[code] = { description: error.description, content: { 'application/json': { schema: error.schema, examples } } };
    } else if (isZodType(schema)) {
      // A success: its schema's examples, unless another status shares the schema.
      const examples = successExamples(entry, status);
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
        contentType === 'image/png'
          ? { examples: { screen: { summary: 'A screen', description: `![A screen](${SCREENSHOT_EXAMPLE_URL})` } } }
          : {};
      out[code] = { description, content: { [contentType]: { schema: { type: 'string', format: 'binary' }, ...examples } } };
    } else {
      out[code] = { description };
    }
  }
  return out;
}
