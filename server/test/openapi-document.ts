// docs/openapi.json as the OpenAPI tests read it: its types, its operations, a media type's examples,
// and an ajv (JSON Schema 2020-12) validator over its components.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import Ajv2020Module from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

export type Json = unknown;
export type Schema = Record<string, unknown>;
export interface ExampleObject {
  $ref?: string;
  summary?: string;
  description?: string;
  value?: Json;
  externalValue?: string;
}
export interface Media {
  schema?: Schema;
  example?: Json;
  examples?: Record<string, ExampleObject>;
}
export interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  description?: string;
  schema?: Schema;
  example?: Json;
  examples?: Record<string, ExampleObject>;
  content?: Record<string, Media>;
}
export interface Operation {
  operationId: string;
  summary?: string;
  description?: string;
  tags?: string[];
  parameters?: Parameter[];
  requestBody?: { content: Record<string, Media> };
  responses: Record<string, { content?: Record<string, Media> }>;
}
export interface Document {
  info: { description: string };
  tags?: Array<{ name: string; description?: string }>;
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Schema>; examples?: Record<string, ExampleObject> };
}

export const document = JSON.parse(readFileSync(new URL('../../docs/openapi.json', import.meta.url), 'utf8')) as Document;

/** Every operation of a document, as `METHOD /path`. */
export const operationsOf = (doc: Document) =>
  Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, op]) => ({ where: `${method.toUpperCase()} ${path}`, op })),
  );

/** A media type's examples, each `$ref` resolved: [name, summary, value, externalValue]. */
type ExampleOf = { name: string; summary?: string; description?: string; value: Json; externalValue?: string };
export function examplesOf(doc: Document, media: Media): ExampleOf[] {
  const out: ExampleOf[] = [];
  if (media.example !== undefined) out.push({ name: 'example', value: media.example });
  for (const [name, entry] of Object.entries(media.examples ?? {})) {
    const resolved = entry.$ref ? doc.components.examples?.[entry.$ref.replace('#/components/examples/', '')] : entry;
    assert.ok(resolved, `unresolved example ${entry.$ref}`);
    const { summary, description, value, externalValue } = resolved;
    out.push({ name, summary, description, value, externalValue });
  }
  return out;
}

// ajv over the document's components: a schema's `$ref`s point into them.
const Ajv2020 = ((Ajv2020Module as unknown as { default?: unknown }).default ?? Ajv2020Module) as typeof Ajv2020Module;
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as typeof addFormatsModule;

/** Validates a value against a schema of the document: null when valid, else ajv's errors as text. */
export function validatorFor(doc: Document) {
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
  addFormats(ajv);
  ajv.addFormat('binary', true);
  ajv.addSchema({ $id: 'https://mind.service/openapi', components: doc.components });
  const rebase = (schema: Json): Schema =>
    JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"https://mind.service/openapi#/components/')) as Schema;
  return (schema: Json, value: Json): string | null => {
    const validate = ajv.compile(rebase(schema));
    return validate(value) ? null : ajv.errorsText(validate.errors);
  };
}
