import { NUL_FREE } from '../patterns.js';

/** No string the server reads may hold U+0000 (PostgreSQL cannot store one): a 400 naming the field. */
const isStringSchema = (schema: Record<string, unknown>) =>
  schema.type === 'string' || (Array.isArray(schema.type) && schema.type.includes('string'));

/**
 * States the NUL rule on every string schema of the document: `pattern` NUL_FREE where the schema has
 * none (a schema's own pattern refuses U+0000 itself: see patterns.ts). Answers never hold one either
 * (nothing stored does), so the shared components may say it too.
 */
export function forbidNul(node: unknown): void {
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
