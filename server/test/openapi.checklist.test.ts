// The LLM tool builders' checklist over docs/openapi.json (issue 29): every operation has an
// operationId usable as a tool name, a summary, a description, every parameter described, a request
// example (its JSON body's and its required parameters') and an example of each success answer, all
// valid for their schemas; a 204 carries no content; and no optional query parameter carries a value
// Swagger UI's "Try it out" would fill in and send unasked.
import assert from 'node:assert/strict';
import { inflateSync } from 'node:zlib';
import { describe, test } from 'node:test';
import {
  type Document,
  document,
  examplesOf,
  type Json,
  type Operation,
  operationsOf,
  type Parameter,
  type Schema,
  validatorFor,
} from './openapi-document.js';

/** What the major LLM APIs accept as a tool name. */
const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

const PREFILLS = ['example', 'examples', 'default'] as const;

/**
 * The values Swagger UI's "Try it out" would put into a parameter (swagger-ui 5 `parameter-row.jsx`
 * `setDefaultValue`): the parameter's `example`, its first `examples` entry, its content's example,
 * its schema's `example` or `default` (through references, `allOf`, `oneOf`/`anyOf`), its `default`.
 */
function prefilledValues(doc: Document, parameter: Parameter): string[] {
  const found: string[] = [];
  if (parameter.example !== undefined) found.push(`example ${JSON.stringify(parameter.example)}`);
  if (parameter.examples !== undefined) found.push('examples');
  if ((parameter as { default?: unknown }).default !== undefined) found.push('default');
  for (const media of Object.values(parameter.content ?? {}))
    if (media.example !== undefined || media.examples) found.push('content example');
  const walk = (schema: Json, path: string, seen: string[]) => {
    if (!schema || typeof schema !== 'object') return;
    const s = schema as Schema;
    for (const key of PREFILLS) if (s[key] !== undefined) found.push(`${path}.${key} ${JSON.stringify(s[key])}`);
    if (typeof s.$ref === 'string') {
      const name = s.$ref.split('/').pop() ?? '';
      if (!seen.includes(name)) walk(doc.components.schemas[name], `${path}<${name}>`, [...seen, name]);
    }
    for (const key of ['allOf', 'anyOf', 'oneOf']) {
      for (const [i, part] of ((s[key] as Json[] | undefined) ?? []).entries()) walk(part, `${path}.${key}[${i}]`, seen);
    }
  };
  walk(parameter.schema, 'schema', []);
  return found;
}

/** A parameter's example: its own, else its schema's (through a reference or an `allOf` part). */
function parameterExample(doc: Document, parameter: Parameter): { found: boolean; value?: Json } {
  if (parameter.example !== undefined) return { found: true, value: parameter.example };
  const named = Object.values(parameter.examples ?? {})[0];
  if (named) return { found: true, value: named.value };
  const fromSchema = (schema: Json, seen: string[]): { found: boolean; value?: Json } => {
    if (!schema || typeof schema !== 'object') return { found: false };
    const s = schema as Schema;
    if (s.example !== undefined) return { found: true, value: s.example };
    if (typeof s.$ref === 'string') {
      const name = s.$ref.split('/').pop() ?? '';
      return seen.includes(name) ? { found: false } : fromSchema(doc.components.schemas[name], [...seen, name]);
    }
    for (const part of (s.allOf as Json[] | undefined) ?? []) {
      const found = fromSchema(part, seen);
      if (found.found) return found;
    }
    return { found: false };
  };
  return fromSchema(parameter.schema, []);
}

/** A `data:image/png;base64,` URL's bytes, when they are a PNG whose chunks are intact and whose pixels inflate. */
function pngOf(url: string): { width: number; height: number } | string {
  const prefix = 'data:image/png;base64,';
  if (!url.startsWith(prefix)) return `not a data:image/png URL: ${url.slice(0, 40)}`;
  const png = Buffer.from(url.slice(prefix.length), 'base64');
  if (!png.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'no PNG signature';
  const idat: Buffer[] = [];
  for (let at = 8; at < png.length; ) {
    const length = png.readUInt32BE(at);
    const type = png.subarray(at + 4, at + 8).toString('latin1');
    if (type === 'IDAT') idat.push(png.subarray(at + 8, at + 8 + length));
    at += 12 + length;
  }
  try {
    inflateSync(Buffer.concat(idat));
  } catch {
    return 'pixels that do not inflate';
  }
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

/** What one operation lacks on the checklist; empty when it is complete. */
function checklistGaps(doc: Document, where: string, op: Operation, valid = validatorFor(doc)): string[] {
  const gaps: string[] = [];
  const gap = (text: string) => gaps.push(`${where}: ${text}`);
  if (!TOOL_NAME.test(op.operationId ?? '')) gap(`operationId ${JSON.stringify(op.operationId)} is not a valid tool name`);
  if (!op.summary?.trim()) gap('no summary');
  if (!op.description?.trim()) gap('no description');

  for (const parameter of op.parameters ?? []) {
    const name = `${parameter.in} parameter ${parameter.name}`;
    if (!parameter.description?.trim()) gap(`${name} is not described`);
    if (parameter.required) {
      const { found, value } = parameterExample(doc, parameter);
      if (!found) gap(`${name} (required) has no example`);
      else if (parameter.schema && valid(parameter.schema, value)) gap(`${name}: example not valid: ${valid(parameter.schema, value)}`);
    } else if (parameter.in === 'query') {
      for (const value of prefilledValues(doc, parameter)) gap(`${name} (optional) is pre-filled by ${value}`);
    }
  }

  for (const [type, media] of Object.entries(op.requestBody?.content ?? {})) {
    const examples = examplesOf(doc, media);
    if (examples.length === 0) gap(`request body ${type} has no example`);
    for (const { name, value } of examples) {
      const problem = media.schema ? valid(media.schema, value) : null;
      if (problem) gap(`request body example ${name}: ${problem}`);
    }
  }

  const successes = Object.entries(op.responses).filter(([code]) => code.startsWith('2'));
  if (successes.length === 0) gap('no success answer');
  for (const [code, response] of successes) {
    if (code === '204') {
      if (response.content) gap('204 with content');
      continue;
    }
    if (!response.content) gap(`${code} has no content`);
    for (const [type, media] of Object.entries(response.content ?? {})) {
      const examples = examplesOf(doc, media);
      if (examples.length === 0) gap(`${code} ${type} has no example`);
      for (const { name, value, externalValue, description } of examples) {
        if (type === 'application/json') {
          const problem = media.schema ? valid(media.schema, value) : 'no schema';
          if (problem) gap(`${code} example ${name}: ${problem}`);
        } else if (type === 'image/png') {
          // Bytes have no JSON value, and loaders fetch an externalValue: the picture is in the description.
          if (externalValue !== undefined) gap(`${code} image/png example ${name}: an externalValue, which loaders fetch`);
          const url = /^!\[[^\]]*\]\((data:[^)]+)\)$/.exec(description ?? '')?.[1];
          const png = url ? pngOf(url) : 'no picture in its description';
          if (typeof png === 'string') gap(`${code} image/png example ${name}: ${png}`);
        } else if (value === undefined && externalValue === undefined) gap(`${code} ${type} example ${name} has no value`);
      }
    }
  }
  return gaps;
}

describe('docs/openapi.json: the tool builders checklist', () => {
  const operations = operationsOf(document);

  test('every operation is complete: 100 %', () => {
    const valid = validatorFor(document);
    assert.ok(operations.length > 50, `${operations.length} operations`);
    const gaps = operations.flatMap(({ where, op }) => checklistGaps(document, where, op, valid));
    const complete = operations.filter(({ where }) => !gaps.some((g) => g.startsWith(`${where}:`))).length;
    assert.deepEqual(gaps, [], `${complete} of ${operations.length} operations complete`);
  });

  test('operationIds are unique', () => {
    const ids = operations.map(({ op }) => op.operationId);
    assert.deepEqual(
      ids.filter((id, i) => ids.indexOf(id) !== i),
      [],
    );
  });

  test("the recall form's filters start empty: category, mode and the rest carry no value Swagger UI would send", () => {
    const recall = document.paths['/memory/recall']?.get;
    assert.ok(recall?.parameters);
    const optional = recall.parameters.filter((p) => p.in === 'query' && !p.required);
    assert.ok(optional.some((p) => p.name === 'category'));
    for (const parameter of optional) assert.deepEqual(prefilledValues(document, parameter), [], parameter.name);
    // The example is still said, in words.
    assert.match(recall.parameters.find((p) => p.name === 'category')!.description ?? '', /Example: `preference`/);
  });

  test('the checks find what they look for', () => {
    const planted: Document = {
      info: { description: '' },
      paths: {},
      components: {
        schemas: {
          Category: { type: 'string', enum: ['a', 'b'], example: 'a' },
          Thing: { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] },
        },
      },
    };
    const op: Operation = {
      operationId: 'list things',
      summary: 'List things',
      parameters: [
        { name: 'id', in: 'path', required: true, description: 'The id.', schema: { type: 'string' } },
        { name: 'kind', in: 'query', description: 'Kind.', schema: { allOf: [{ $ref: '#/components/schemas/Category' }] } },
        { name: 'limit', in: 'query', schema: { type: 'integer', default: 20 } },
      ],
      requestBody: { content: { 'application/json': { schema: { $ref: '#/components/schemas/Thing' }, example: { n: 'one' } } } },
      responses: {
        '200': { content: { 'application/json': { schema: { $ref: '#/components/schemas/Thing' } } } },
        '201': {
          content: {
            'image/png': {
              schema: { type: 'string' },
              examples: { s: { description: '![A screen](data:image/png;base64,AAAA)' }, t: { externalValue: 'screen.png' } },
            },
          },
        },
        '204': { content: { 'application/json': {} } },
      },
    };
    assert.deepEqual(checklistGaps(planted, 'OP', op), [
      'OP: operationId "list things" is not a valid tool name',
      'OP: no description',
      'OP: path parameter id (required) has no example',
      'OP: query parameter kind (optional) is pre-filled by schema.allOf[0]<Category>.example "a"',
      'OP: query parameter limit is not described',
      'OP: query parameter limit (optional) is pre-filled by schema.default 20',
      'OP: request body example example: data/n must be integer',
      'OP: 200 application/json has no example',
      'OP: 201 image/png example s: no PNG signature',
      'OP: 201 image/png example t: an externalValue, which loaders fetch',
      'OP: 201 image/png example t: no picture in its description',
      'OP: 204 with content',
    ]);
  });
});
