// Parameters as Swagger UI shows them and fills them in.
import type { Document, OperationLike, Schema } from './types.js';

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
export function liftParameterDescriptions(document: Document) {
  const components = (document.components?.schemas ?? {}) as Record<string, SchemaLike>;
  for (const pathItem of Object.values(document.paths ?? {})) {
    for (const operation of Object.values(pathItem as Record<string, { parameters?: ParameterLike[] }>)) {
      for (const parameter of operation.parameters ?? []) {
        parameter.description ??= describe(parameter.schema, components);
      }
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
export function unfilledOptionalQuery(document: Document) {
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
