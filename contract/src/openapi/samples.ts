// Whole examples of request bodies and answers, built from the examples the schemas' properties carry
// (written once, in the contract): what Swagger UI would show, written into the document so that
// every consumer (code generators, LLM tool builders, the MCP tools) sees the same one.

type Schema = Record<string, unknown>;

const isSchema = (value: unknown): value is Schema => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The keywords of a schema that only annotate it (a described reference is `allOf: [$ref, {description}]`). */
const ANNOTATIONS = new Set(['description', 'title', 'deprecated', 'readOnly', 'writeOnly']);
const annotationOnly = (schema: Schema) => Object.keys(schema).every((key) => ANNOTATIONS.has(key));

/**
 * A value for `schema` made of its examples as Swagger UI builds one: an `example` wins, a reference
 * is followed, `allOf` parts are merged, the first `oneOf`/`anyOf` variant is taken, an object has
 * every property, an array one item. Throws where it would have to invent a value (a string, number
 * or map with no example, const, default or enum): the contract must give one.
 */
export function sampleOf(schema: unknown, components: Record<string, Schema>, where: string, seen: string[] = []): unknown {
  if (!isSchema(schema)) throw new Error(`${where}: not a schema`);
  if (schema.example !== undefined) return schema.example;
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0];
  if (typeof schema.$ref === 'string') {
    const name = schema.$ref.split('/').pop() ?? '';
    if (seen.includes(name)) throw new Error(`${where}: recursive schema ${name} without an example`);
    return sampleOf(components[name], components, `${where}<${name}>`, [...seen, name]);
  }
  if (schema.const !== undefined) return schema.const;
  if (schema.default !== undefined) return schema.default;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  if (Array.isArray(schema.allOf)) {
    const parts = (schema.allOf as Schema[]).filter((part) => !annotationOnly(part));
    const values = parts.map((part, i) => sampleOf(part, components, `${where}.allOf[${i}]`, seen));
    if (values.length === 1) return values[0];
    if (values.every(isSchema)) return Object.assign({}, ...values);
    throw new Error(`${where}: allOf parts that are not all objects, without an example`);
  }
  const variants = (schema.oneOf ?? schema.anyOf) as Schema[] | undefined;
  if (Array.isArray(variants) && !schema.properties) {
    const first = variants.find((variant) => variant.type !== 'null') ?? variants[0];
    return sampleOf(first, components, `${where}.${schema.oneOf ? 'oneOf' : 'anyOf'}[0]`, seen);
  }
  const types = (Array.isArray(schema.type) ? schema.type : [schema.type]).filter((type) => type !== undefined);
  const type = types.find((t) => t !== 'null') ?? types[0];
  if (type === 'object' || schema.properties) {
    const properties = Object.entries((schema.properties ?? {}) as Record<string, unknown>).filter(([, property]) => property !== false);
    if (properties.length === 0 && schema.additionalProperties !== undefined && schema.additionalProperties !== false) {
      throw new Error(`${where}: a map without an example`);
    }
    return Object.fromEntries(properties.map(([name, property]) => [name, sampleOf(property, components, `${where}.${name}`, seen)]));
  }
  if (type === 'array') return [sampleOf(schema.items, components, `${where}[]`, seen)];
  if (type === 'null') return null;
  throw new Error(`${where}: no example to show (${String(type)}); give the schema an example in the contract`);
}

/**
 * A screen as GET /computers/{id}/screenshot answers it (a 16x10 PNG: a desktop, one window, a task
 * bar), for the PNG answers' example. Shown as a picture in the example's description: an
 * `externalValue` is loaded as a reference by Redocly and openapi-typescript (a `data:` URL is then
 * "Can't resolve $ref"), and JSON has no value for bytes.
 */
export const SCREENSHOT_EXAMPLE_URL =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAABAAAAAKCAIAAAAy3EnLAAAAKElEQVR42mOQVTEgCTGQr8G66RsehEXDl6/f8aBhqoHYYPUKzSAJAQBWwNZD3yhxJAAAAABJRU5ErkJggg==';
