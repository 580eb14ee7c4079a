// JSON Schemas for the MCP tools, taken from the OpenAPI document (the same generator, the same
// schemas): references inlined (LLM clients read self-contained schemas), path, query and body merged
// into one object with every property described, then made lean for a model (lean.ts).
import { leanSchema } from './lean.js';

type Schema = Record<string, unknown>;

export interface OpenApiParameter {
  name: string;
  in: string;
  required?: boolean;
  description?: string;
  schema?: Schema;
}

export interface OpenApiOperation {
  operationId: string;
  summary?: string;
  description?: string;
  parameters?: OpenApiParameter[];
  requestBody?: { content?: Record<string, { schema?: Schema }> };
  responses: Record<string, { content?: Record<string, { schema?: Schema }> }>;
}

/** Where each argument of a tool goes in the route's request. */
export interface ArgumentPlaces {
  /** Arguments that are path parameters, by the tool's name for them (`task_id`) to the route's (`id`). */
  path: Record<string, string>;
  query: string[];
  /** Whether the route reads a body: then every other argument is a body field. */
  body: boolean;
}

const ANNOTATION_KEYS = new Set(['description', 'examples', 'title', 'default', 'deprecated']);
const isSchema = (value: unknown): value is Schema => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A copy of `schema` with every `$ref` replaced by its component; throws on a cycle (none in the contract). */
export function inlineSchema(schema: Schema, components: Record<string, Schema>, seen: string[] = []): Schema {
  const walk = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(walk);
    if (!isSchema(node)) return node;
    let out: Schema = {};
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref') continue;
      if (key === 'example') out.examples = [value];
      else if (key === 'examples' || key === 'enum' || key === 'const' || key === 'default') out[key] = value;
      else out[key] = walk(value);
    }
    if (typeof node.$ref === 'string') {
      const name = node.$ref.split('/').pop() ?? '';
      const target = components[name];
      if (!target) throw new Error(`unknown schema reference ${node.$ref}`);
      if (seen.includes(name)) throw new Error(`recursive schema ${name}: tools need self-contained schemas`);
      out = { ...inlineSchema(target, components, [...seen, name]), ...out };
    }
    return flattenAllOf(out);
  };
  return walk(schema) as Schema;
}

/** `allOf: [X, {description}]` (how a described reference is written) becomes X with that description. */
function flattenAllOf(schema: Schema): Schema {
  const parts = schema.allOf;
  if (!Array.isArray(parts)) return schema;
  const [core, ...rest] = [...parts].sort((a, b) => annotationOnly(a) - annotationOnly(b)) as Schema[];
  if (!core || !rest.every((part) => annotationOnly(part))) return schema;
  const { allOf: _, ...own } = schema;
  return Object.assign({}, core, ...rest, own);
}
const annotationOnly = (part: unknown) => Number(isSchema(part) && Object.keys(part).every((k) => ANNOTATION_KEYS.has(k)));

/** A property without a description gets one from what its schema says. */
function described(name: string, schema: Schema, where: string): Schema {
  if (typeof schema.description === 'string' && schema.description) return schema;
  const facts: string[] = [];
  if (Array.isArray(schema.enum)) facts.push(`one of ${schema.enum.map((v) => JSON.stringify(v)).join(', ')}`);
  else if (schema.type) facts.push(String(Array.isArray(schema.type) ? schema.type.join(' or ') : schema.type));
  if (typeof schema.maxLength === 'number') facts.push(`at most ${schema.maxLength} characters`);
  if (typeof schema.maxItems === 'number') facts.push(`at most ${schema.maxItems} items`);
  return { ...schema, description: `The ${where} \`${name}\`${facts.length ? ` (${facts.join(', ')})` : ''}.` };
}

/**
 * A body's object form: an object's properties and required names, or for a `oneOf`/`anyOf` of
 * objects (the command body) the union of the variants' properties, required where all require it.
 * The rule that ties them together stays server-side (a 400 saying what to fix) and in the description.
 */
function objectForm(schema: Schema): { properties: Record<string, Schema>; required: string[] } {
  const variants = (schema.oneOf ?? schema.anyOf) as Schema[] | undefined;
  if (schema.type !== 'object' && Array.isArray(variants) && variants.every((v) => v.type === 'object')) {
    const forms = variants.map(objectForm).map(titledByTag);
    const names = [...new Set(forms.flatMap((f) => Object.keys(f.properties)))];
    const properties = Object.fromEntries(
      names.map((name) => [name, unite(forms.flatMap((f) => (f.properties[name] ? [f.properties[name]] : [])))]),
    );
    return { properties, required: names.filter((name) => forms.every((f) => f.required.includes(name))) };
  }
  if (schema.type !== 'object') throw new Error('a tool body must be a JSON object');
  return { properties: (schema.properties ?? {}) as Record<string, Schema>, required: (schema.required ?? []) as string[] };
}

/** In a variant with a tag (a property of one value, like the command's `type`), the other properties' schemas are titled by it. */
function titledByTag(form: { properties: Record<string, Schema>; required: string[] }) {
  const tag = Object.entries(form.properties).find(([, schema]) => Array.isArray(schema.enum) && schema.enum.length === 1);
  if (!tag) return form;
  const [tagName, tagSchema] = tag;
  const when = `For ${tagName} ${JSON.stringify((tagSchema.enum as unknown[])[0])}`;
  const properties = Object.fromEntries(
    Object.entries(form.properties).map(([name, schema]) => [name, name === tagName ? schema : { title: when, ...schema }]),
  );
  return { ...form, properties };
}

/** One schema for what several variants allow at one property: enums joined, else `anyOf` the distinct ones. */
function unite(schemas: Schema[]): Schema {
  const distinct = [...new Map(schemas.map((s) => [JSON.stringify(s), s])).values()];
  if (distinct.length === 1) return distinct[0]!;
  if (distinct.every((s) => Array.isArray(s.enum) && s.type === distinct[0]!.type)) {
    return { type: distinct[0]!.type, enum: distinct.flatMap((s) => s.enum as unknown[]) };
  }
  return {
    anyOf: distinct.map(({ description: _, ...rest }) => rest),
    description: distinct.every((s) => s.title) ? 'One of these forms: the title of each says when it applies.' : 'One of these forms.',
  };
}

/**
 * A path parameter's argument name: what it identifies, from the path segment before it
 * (`/computers/{id}/commands/{cid}`: `computer_id`, `command_id`), so no tool takes a bare `id`.
 */
export function pathArgumentName(path: string, parameter: string): string {
  const segments = path.split('/');
  const at = segments.indexOf(`{${parameter}}`);
  const noun = at > 0 ? segments[at - 1]?.replace(/s$/, '') : undefined;
  return noun && /^[a-z]+$/.test(noun) ? `${noun}_id` : parameter;
}

/** The tool's input schema (one object, every property described) and where each argument goes. */
export function inputOf(path: string, operation: OpenApiOperation, components: Record<string, Schema>) {
  const properties: Record<string, Schema> = {};
  const required: string[] = [];
  const places: ArgumentPlaces = { path: {}, query: [], body: false };
  const add = (name: string, schema: Schema, isRequired: boolean, where: string) => {
    if (properties[name]) throw new Error(`${operation.operationId}: two arguments named ${name}`);
    properties[name] = leanSchema(described(name, schema, where));
    if (isRequired) required.push(name);
  };
  for (const parameter of operation.parameters ?? []) {
    if (parameter.in !== 'path' && parameter.in !== 'query') continue;
    const schema = inlineSchema({ ...parameter.schema, description: parameter.description ?? parameter.schema?.description }, components);
    if (schema.description === undefined) delete schema.description;
    if (parameter.in === 'path') {
      const name = pathArgumentName(path, parameter.name);
      add(name, schema, true, 'path parameter');
      places.path[name] = parameter.name;
    } else {
      add(parameter.name, schema, parameter.required === true, 'filter');
      places.query.push(parameter.name);
    }
  }
  const bodySchema = operation.requestBody?.content?.['application/json']?.schema;
  let bodyDescription: string | undefined;
  if (bodySchema) {
    const body = inlineSchema(bodySchema, components);
    bodyDescription = typeof body.description === 'string' ? body.description : undefined;
    const form = objectForm(body);
    for (const [name, schema] of Object.entries(form.properties)) add(name, schema, form.required.includes(name), 'field');
    places.body = true;
  }
  const schema: Schema = { type: 'object', properties, ...(required.length ? { required } : {}) };
  return { schema, places, bodyDescription };
}
