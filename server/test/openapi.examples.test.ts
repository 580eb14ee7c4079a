// What Swagger UI shows of docs/openapi.json: every answer of every operation has its own example (an
// error: the server's own answer for that route and status; a success: examples for every field),
// every example is valid for its schema, no example is a placeholder ("string"), and no schema leaves
// Swagger UI to invent a value. Tags are described and the guides are a link.
// (That each error example is what the server really answers: openapi.error-examples.test.ts.)
import assert from 'node:assert/strict';
import { STATUS_CODES } from 'node:http';
import { describe, test } from 'node:test';
import { type Document, document, examplesOf, type Json, operationsOf, type Schema, validatorFor } from './openapi-document.js';

const operations = operationsOf(document);

/**
 * The places where Swagger UI, building a sample from this schema as it does (an `example` wins, else
 * objects by property, arrays by their items, the first `oneOf`/`anyOf`, `allOf` merged), would have
 * to invent a value: a string, number, integer or boolean with no example, default, enum or const, or a
 * map with no example. Returns their paths.
 */
function inventedValues(doc: Document, schema: Json, path: string, seen = new Set<string>()): string[] {
  if (!schema || typeof schema !== 'object') return [];
  const s = schema as Schema;
  if (s.example !== undefined || s.examples !== undefined || s.default !== undefined || s.const !== undefined || s.enum) return [];
  if (typeof s.$ref === 'string') {
    const name = s.$ref.replace('#/components/schemas/', '');
    if (seen.has(name)) return [];
    return inventedValues(doc, doc.components.schemas[name], `${path}<${name}>`, new Set([...seen, name]));
  }
  const out: string[] = [];
  for (const part of (s.allOf as Schema[] | undefined) ?? []) out.push(...inventedValues(doc, part, path, seen));
  const variants = (s.oneOf ?? s.anyOf) as Schema[] | undefined;
  if (variants && !s.properties && !s.type) return [...out, ...inventedValues(doc, variants[0], path, seen)];
  const types = (Array.isArray(s.type) ? s.type : [s.type]).filter((t) => t !== undefined && t !== 'null');
  const type = types[0];
  if (type === 'object' || s.properties) {
    for (const [name, property] of Object.entries((s.properties as Record<string, Schema>) ?? {})) {
      out.push(...inventedValues(doc, property, `${path}.${name}`, seen));
    }
    if (!s.properties && s.additionalProperties !== undefined && s.additionalProperties !== false) out.push(`${path}{*}`);
    return out;
  }
  if (type === 'array') return [...out, ...inventedValues(doc, s.items, `${path}[]`, seen)];
  if (s.format === 'binary') return out;
  if (type !== undefined) out.push(`${path} (${String(type)})`);
  return out;
}

/** Every `example`/`examples` value in the document, with where it is. */
function allExampleValues(node: Json, path: string, out: Array<{ path: string; value: Json }> = []) {
  if (Array.isArray(node)) {
    node.forEach((item, i) => {
      allExampleValues(item, `${path}[${i}]`, out);
    });
    return out;
  }
  if (!node || typeof node !== 'object') return out;
  for (const [key, value] of Object.entries(node)) {
    if (key === 'example') out.push({ path: `${path}.example`, value });
    else if (key === 'examples' && Array.isArray(value)) {
      for (const [i, v] of value.entries()) out.push({ path: `${path}.examples[${i}]`, value: v });
    } else if (key === 'examples' && value && typeof value === 'object' && path !== '$.components') {
      for (const [name, entry] of Object.entries(value as Record<string, { value?: Json }>)) {
        if (entry && typeof entry === 'object' && 'value' in entry) out.push({ path: `${path}.examples.${name}`, value: entry.value });
      }
    } else allExampleValues(value, `${path}.${key}`, out);
  }
  if (path === '$.components') {
    for (const [name, entry] of Object.entries((node as Document['components']).examples ?? {})) {
      out.push({ path: `${path}.examples.${name}`, value: entry.value });
    }
  }
  return out;
}

/** Strings equal to Swagger UI's placeholder anywhere inside a value. */
function placeholders(value: Json, path: string): string[] {
  if (value === 'string') return [path];
  if (Array.isArray(value)) return value.flatMap((v, i) => placeholders(v, `${path}[${i}]`));
  if (value && typeof value === 'object') return Object.entries(value).flatMap(([k, v]) => placeholders(v, `${path}.${k}`));
  return [];
}

/** Every schema that carries an `example` of its own (properties, components, parameters), with where it is. */
function schemasWithExamples(node: Json, path: string, out: Array<{ path: string; schema: Schema }> = []) {
  if (Array.isArray(node)) {
    node.forEach((item, i) => {
      schemasWithExamples(item, `${path}[${i}]`, out);
    });
    return out;
  }
  if (!node || typeof node !== 'object') return out;
  const s = node as Schema;
  if (s.example !== undefined && (s.type !== undefined || s.$ref !== undefined || s.properties || s.allOf || s.anyOf || s.oneOf)) {
    out.push({ path, schema: s });
  }
  for (const [key, value] of Object.entries(s)) {
    if (key !== 'example' && key !== 'examples') schemasWithExamples(value, `${path}.${key}`, out);
  }
  return out;
}

describe('docs/openapi.json: examples Swagger UI shows', () => {
  const valid = validatorFor(document);

  test('every error answer of every operation has its own examples, valid for the error schema, with its status', () => {
    let checked = 0;
    for (const { where, op } of operations) {
      for (const [code, response] of Object.entries(op.responses)) {
        const status = Number(code);
        const media = response.content?.['application/json'];
        if (status < 400) continue;
        assert.ok(media?.schema, `${where} ${code}: JSON content`);
        const examples = examplesOf(document, media);
        assert.ok(examples.length > 0, `${where} ${code}: no example`);
        for (const { name, summary, value } of examples) {
          const at = `${where} ${code} ${name}`;
          assert.ok(summary, `${at}: a summary saying the cause`);
          assert.equal(valid(media.schema, value), null, `${at}: not valid for its schema`);
          const body = value as { statusCode?: number; error?: string };
          if (media.schema.$ref === '#/components/schemas/Error') {
            assert.equal(body.statusCode, status, `${at}: statusCode`);
            assert.equal(body.error, STATUS_CODES[status], `${at}: error`);
          }
          checked++;
        }
      }
    }
    assert.ok(checked > 300, `${checked} error examples checked`);
  });

  test('4xx examples differ per status: no message of one status is the example of another of the same operation', () => {
    for (const { where, op } of operations) {
      const byStatus = new Map<string, Set<string>>();
      for (const [code, response] of Object.entries(op.responses)) {
        const media = response.content?.['application/json'];
        if (!code.startsWith('4') || !media) continue;
        byStatus.set(code, new Set(examplesOf(document, media).map(({ value }) => (value as { message: string }).message)));
      }
      for (const [a, messagesA] of byStatus) {
        for (const [b, messagesB] of byStatus) {
          if (a >= b) continue;
          const shared = [...messagesA].filter((m) => messagesB.has(m));
          assert.deepEqual(shared, [], `${where}: ${a} and ${b} show the same message`);
        }
      }
    }
  });

  test('a 400 example names a field of its own route: never body.title on a route without a title', () => {
    for (const { where, op } of operations) {
      const media = op.responses['400']?.content?.['application/json'];
      if (!media) continue;
      for (const { value } of examplesOf(document, media)) {
        const message = (value as { message: string }).message;
        if (!message.includes('body.title')) continue;
        const body = op.requestBody?.content['application/json']?.schema?.$ref as string | undefined;
        const properties = body ? (document.components.schemas[body.split('/').pop()!]!.properties as Record<string, unknown>) : {};
        assert.ok('title' in properties, `${where}: 400 example about body.title`);
      }
    }
  });

  test('every success answer shows an example for every field, and answers sharing a schema each have their own', () => {
    const invented: string[] = [];
    for (const { where, op } of operations) {
      const successes = Object.entries(op.responses).filter(([code]) => Number(code) < 400);
      const schemas = successes.map(([, r]) => JSON.stringify(r.content?.['application/json']?.schema ?? null));
      for (const [code, response] of successes) {
        const media = response.content?.['application/json'];
        if (!media) continue; // 204, or a PNG
        const own = examplesOf(document, media);
        for (const { name, value } of own) assert.equal(valid(media.schema, value), null, `${where} ${code} ${name}`);
        const shared = schemas.filter((s) => s === JSON.stringify(media.schema)).length > 1;
        if (shared) assert.ok(own.length > 0, `${where} ${code}: shares its schema with another status but has no example of its own`);
        invented.push(...inventedValues(document, media.schema, `${where} ${code}`));
      }
      const body = op.requestBody?.content['application/json'];
      if (body) invented.push(...inventedValues(document, body.schema, `${where} body`));
    }
    assert.deepEqual(invented, [], 'fields Swagger UI would invent a value for');
  });

  test('every example in the document is valid for the schema it belongs to', () => {
    const found = schemasWithExamples(document.components, '$.components');
    for (const [path, item] of Object.entries(document.paths)) schemasWithExamples(item, `$.paths.${path}`, found);
    assert.ok(found.length > 100, `${found.length} schemas with examples`);
    for (const { path, schema } of found) {
      const { example, ...rest } = schema;
      assert.equal(valid(rest, example), null, `${path}: example ${JSON.stringify(example)}`);
    }
  });

  test('no example anywhere is the placeholder "string"', () => {
    const values = allExampleValues(document, '$');
    assert.ok(values.length > 100, `${values.length} examples`);
    assert.deepEqual(
      values.flatMap(({ path, value }) => placeholders(value, path)),
      [],
    );
  });

  test('the checks find what they look for', () => {
    const planted: Document = {
      info: { description: '' },
      paths: {},
      components: {
        schemas: {
          Thing: {
            type: 'object',
            properties: {
              name: { type: 'string' },
              kind: { type: 'string', enum: ['a', 'b'] },
              note: { type: ['string', 'null'], example: null },
              count: { type: 'integer' },
              tags: { type: 'array', items: { type: 'string' } },
              extra: { type: 'object', additionalProperties: {} },
              self: { $ref: '#/components/schemas/Thing' },
            },
          },
          Covered: { type: 'object', properties: { name: { type: 'string' } }, example: { name: 'x' } },
        },
      },
    };
    assert.deepEqual(inventedValues(planted, { $ref: '#/components/schemas/Thing' }, 'T'), [
      'T<Thing>.name (string)',
      'T<Thing>.count (integer)',
      'T<Thing>.tags[] (string)',
      'T<Thing>.extra{*}',
    ]);
    assert.deepEqual(inventedValues(planted, { $ref: '#/components/schemas/Covered' }, 'C'), []);
    assert.deepEqual(placeholders({ a: ['ok', 'string'] }, '$'), ['$.a[1]']);
    assert.match(String(valid({ $ref: '#/components/schemas/Error' }, { statusCode: 400, error: 'Bad Request' })), /message/);
  });

  test('every tag has a description, and the guides line is a link', () => {
    const described = new Map((document.tags ?? []).map((t) => [t.name, t.description]));
    for (const { where, op } of operations) {
      for (const tag of op.tags ?? []) assert.ok(described.get(tag), `${where}: tag ${tag} has no description`);
    }
    assert.match(document.info.description, /\[\/docs\]\(\/docs\)/);
  });
});
