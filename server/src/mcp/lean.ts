// A tool schema as a model reads it: what an argument holds and may be, without what only a validator
// needs. A model pays for every character of tools/list in every conversation, and the route checks
// each request anyway (its 400 says what to fix), so examples, regular expressions and cross-field
// rules stay in the OpenAPI document.
type Schema = Record<string, unknown>;

const isSchema = (value: unknown): value is Schema => typeof value === 'object' && value !== null && !Array.isArray(value);
/** Words a query string uses for a boolean (`verified=true`, `=1`): to a model, a boolean. */
const QUERY_BOOLEAN_WORDS = new Set(['true', 'false', '1', '0']);
/** Keys of a schema that only tie fields together (one of x/y needs the other): left to the route. */
const RULE_KEYS = ['allOf', 'oneOf', 'anyOf', 'not'] as const;
/** The example some descriptions say in words (Swagger UI would send an `example` of a query parameter). */
const EXAMPLE_IN_WORDS = /\s*Example: `[^`]*`\.?/g;

/** `schema` without examples, patterns and cross-field rules; query-string booleans as booleans. */
export function leanSchema(schema: Schema): Schema {
  const out: Schema = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'examples' || key === 'example' || key === 'pattern') continue;
    if (key === 'description' && typeof value === 'string') out.description = value.replace(EXAMPLE_IN_WORDS, '');
    else if (key === 'properties' && isSchema(value)) {
      out.properties = Object.fromEntries(Object.entries(value).map(([name, property]) => [name, leanNode(property)]));
    } else if (key === 'items' || key === 'additionalProperties') out[key] = leanNode(value);
    else if ((RULE_KEYS as readonly string[]).includes(key)) {
      // A union of forms (`anyOf` of typed schemas) is what the value may be; a rule has no type of its own.
      if (Array.isArray(value) && value.every((part) => isSchema(part) && ('type' in part || 'properties' in part))) {
        out[key] = value.map(leanNode);
      }
    } else out[key] = value;
  }
  return mergedForms(oneOrMany(queryBoolean(out)));
}

const leanNode = (node: unknown) => (isSchema(node) ? leanSchema(node) : node);

/** A query parameter of the words `true`/`false` (`1`/`0`) is a boolean to a model; the call sends its word. */
function queryBoolean(schema: Schema): Schema {
  const words = schema.enum;
  if (schema.type !== 'string' || !Array.isArray(words) || !words.every((w) => QUERY_BOOLEAN_WORDS.has(String(w)))) return schema;
  const { enum: _, type: __, ...rest } = schema;
  return { type: 'boolean', ...rest };
}

/** A query parameter given once or repeated (`X` or an array of `X`) is an array to a model. */
function oneOrMany(schema: Schema): Schema {
  const forms = schema.anyOf;
  if (!Array.isArray(forms) || forms.length !== 2) return schema;
  const list = forms.find((f: Schema) => f.type === 'array');
  const single = forms.find((f: Schema) => f !== list);
  if (!list || JSON.stringify(list.items) !== JSON.stringify(single)) return schema;
  const { anyOf: _, ...rest } = schema;
  return { ...list, ...rest };
}

/**
 * A choice of object forms, each titled by when it applies (the command payload: `For type "click"`),
 * as one object: every field once, and a description naming each form's fields (`*` when required).
 * The forms repeat most fields (x, y, modifiers) with the same schema, so this is a third of the size,
 * and a model reads which fields a type takes in one line.
 */
function mergedForms(schema: Schema): Schema {
  const forms = schema.anyOf;
  if (!Array.isArray(forms) || !forms.every((f: Schema) => f.type === 'object' && typeof f.title === 'string')) return schema;
  const properties: Record<string, Schema> = {};
  const lines: string[] = [];
  const tag = /^For (\w+) /.exec(String((forms[0] as Schema).title))?.[1] ?? 'form';
  for (const form of forms as Schema[]) {
    const own = (form.properties ?? {}) as Record<string, Schema>;
    const required = (form.required ?? []) as string[];
    const names = Object.keys(own).map((name) => (required.includes(name) ? `${name}*` : name));
    lines.push(`${/"(.+)"/.exec(String(form.title))?.[1] ?? form.title}: ${names.join(', ') || 'nothing'}`);
    for (const [name, property] of Object.entries(own)) properties[name] = widened(properties[name], property);
  }
  const { anyOf: _, description, ...rest } = schema;
  const guide = `The fields each ${tag} takes (* required): ${lines.join('; ')}.`;
  return { ...rest, type: 'object', description: guide, properties };
}

/** One schema for a field several forms take: the first's, its bounds widened to all of theirs. */
function widened(seen: Schema | undefined, next: Schema): Schema {
  if (!seen) return next;
  const out = { ...seen };
  if (typeof next.minimum === 'number' && typeof out.minimum === 'number') out.minimum = Math.min(out.minimum, next.minimum);
  if (typeof next.maximum === 'number' && typeof out.maximum === 'number') out.maximum = Math.max(out.maximum, next.maximum);
  return out;
}
