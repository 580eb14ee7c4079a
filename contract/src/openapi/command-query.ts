import { COMMAND_PAYLOADS, COMMAND_TYPES } from '../commands.js';
import type { z } from '../zod.js';
import { sampleOf } from './samples.js';
import type { Document, ParameterObject } from './types.js';

/** A payload schema's field names and the required ones (through a refinement), and its own rules on fields that go together. */
function payloadFields(schema: z.ZodTypeAny) {
  let inner = schema;
  while (inner._def.typeName === 'ZodEffects') inner = inner._def.schema;
  const shape = (inner as z.AnyZodObject).shape as Record<string, z.ZodTypeAny>;
  const names = Object.keys(shape);
  const metadata = (schema._def as { openapi?: { metadata?: Record<string, unknown> } }).openapi?.metadata ?? {};
  // The rules on which fields go together (x with y, from/to or path) hold for the query form too.
  const together = Object.fromEntries(
    ['anyOf', 'oneOf', 'allOf'].filter((key) => metadata[key]).map((key) => [key, asQueryText(metadata[key])]),
  );
  return { names, required: names.filter((name) => !shape[name]!.isOptional()), together };
}

/** A rule on the body's values said of the query's: a boolean is the text `true`/`1` or `false`/`0` there. */
function asQueryText(rule: unknown): unknown {
  if (Array.isArray(rule)) return rule.map(asQueryText);
  if (!rule || typeof rule !== 'object') return rule;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(rule)) {
    if (key === 'const' && typeof value === 'boolean') out.enum = value ? ['true', '1'] : ['false', '0'];
    else out[key] = asQueryText(value);
  }
  return out;
}

/**
 * `GET /computers/{id}/command` takes each type's own payload fields as query parameters, and no field of
 * another type. OpenAPI says which query parameters go together with one form-exploded object parameter
 * whose schema has a variant per type; the field rules stay those of the contract's query schema.
 */
export function commandQueryForm(document: Document) {
  const operation = (document.paths?.['/computers/{id}/command'] as { get?: { parameters?: ParameterObject[] } } | undefined)?.get;
  if (!operation?.parameters) return;
  const query = operation.parameters.filter((p) => p.in === 'query');
  const fields = Object.fromEntries(query.map((p) => [p.name, { ...p.schema, description: p.description ?? p.schema?.description }]));
  const payloadNames = Object.keys(fields).filter((name) => name !== 'type');
  const variants = COMMAND_TYPES.map((type) => {
    const { names, required, together } = payloadFields(COMMAND_PAYLOADS[type]);
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
      ...together,
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
