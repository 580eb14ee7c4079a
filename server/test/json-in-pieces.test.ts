import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseJsonInPieces } from '../src/http/json-in-pieces.js';

// A whole-mind import's body is parsed in pieces (issue 28's load test failed on the one JSON.parse
// of 24 MB): what the pieces give must be what JSON.parse gives, and every text JSON.parse refuses
// must be left to it (undefined), so that the error is body-parser's as on every other route.

const inPieces = async (text: string) => (await parseJsonInPieces(Buffer.from(text, 'utf8')))?.value;

/** Equal values, the same key order, the same prototypes (JSON.parse makes "__proto__" an own key). */
function assertSameAsJsonParse(text: string, got: unknown) {
  const expected = JSON.parse(text) as unknown;
  assert.deepStrictEqual(got, expected, text.slice(0, 200));
  assert.equal(JSON.stringify(got), JSON.stringify(expected));
  if (got !== null && typeof got === 'object') assert.equal(Object.getPrototypeOf(got), Object.getPrototypeOf(expected));
}

const big = (n: number) =>
  Array.from({ length: n }, (_, i) => ({
    id: `id-${i}`,
    content: `memory ${i} with "quotes", a backslash \\ and brackets ]}[{, a tab\t and ünïcödé ✓ 😀`,
    tags: i % 3 === 0 ? [] : ['a', 'b'],
    n: i * 1.5,
    nested: { deep: [[i], { k: null }], t: true, f: false },
  }));

describe('json-in-pieces: the pieces are JSON.parse', () => {
  test('objects and arrays as JSON.parse reads them, whatever the spacing, escapes and characters', async () => {
    const texts = [
      '{}',
      '[]',
      ' \n\t{ } \r\n',
      '{"a":1}',
      '{ "a" : [ ] , "b" : { } , "c" : "x" , "d" : null , "e" : -1.5e3 , "f" : true }',
      '{"memories":[1,"two",{"three":[3]},[4],null,false,-0.25e-2]}',
      '[1, 2 ,3 , "a\\"b", "c\\\\", "\\\\\\"", "\\u00e9\\ud83d\\ude00", "]", "}", "{[", ""]',
      '{"a\\"b":1,"c\\\\":2,"\\u0041":3,"😀":"✓"}',
      '{"a":1,"b":2,"a":3}',
      '{"__proto__":{"polluted":true},"x":[{"__proto__":1}]}',
      '[[[[1]]],{"a":{"b":{"c":[]}}}]',
      JSON.stringify({ format: 'mind-export/1', memories: big(3000), tasks: [], chat: big(10), scripts: [] }),
      JSON.stringify(big(2000)),
      JSON.stringify({ one: 'x'.repeat(300_000), many: Array.from({ length: 40_000 }, (_, i) => i) }),
    ];
    for (const text of texts) assertSameAsJsonParse(text, await inPieces(text));
    const polluted = (await inPieces('{"__proto__":{"polluted":true}}')) as Record<string, unknown>;
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
    assert.deepEqual(Object.keys(polluted), ['__proto__']);
  });

  test('every text JSON.parse refuses, and any that is not an object or array, is left to the whole parse', async () => {
    // Not objects or arrays: body-parser refuses these (strict), or reads '' as {}; that is its to say.
    for (const text of ['', '"a string"', '42', 'null', '\ufeff{"a":1}']) {
      assert.equal(await parseJsonInPieces(Buffer.from(text, 'utf8')), undefined, text);
    }
    const texts = [
      '   ',
      '{',
      '[',
      '{"a":1',
      '[1,2',
      '{"a":1}}',
      '[1]]',
      '{"a":1} x',
      '[1] [2]',
      '{"a":1,}',
      '[1,]',
      '[,1]',
      '[1,,2]',
      '[1 2]',
      '{"a" 1}',
      '{"a":}',
      '{a:1}',
      "{'a':1}",
      '{"a":1 "b":2}',
      '{"a":[1,2}',
      '{"a":"unterminated}',
      '["a\\"]',
      '[01]',
      '[1.]',
      '[tru]',
      '[undefined]',
      '[NaN]',
      '["tab\there"]',
      '["\\x41"]',
      '{"a":{"b":1}',
      `{"memories":[${JSON.stringify(big(2000)).slice(1, -1)},]}`,
      `[${JSON.stringify(big(2000)).slice(1, -1)} {"late":1}]`,
    ];
    for (const text of texts) {
      assert.throws(() => JSON.parse(text), SyntaxError, `JSON.parse takes ${text.slice(0, 60)}`);
      assert.equal(await parseJsonInPieces(Buffer.from(text, 'utf8')), undefined, text.slice(0, 60));
    }
  });

  test('a large text is parsed with other work served in between', async () => {
    const text = JSON.stringify({ memories: big(20_000) });
    assert.ok(text.length > 4_000_000);
    let turns = 0;
    const ticking = setInterval(() => turns++, 0);
    const value = await inPieces(text);
    clearInterval(ticking);
    assertSameAsJsonParse(text, value);
    assert.ok(turns >= 5, `${turns} timer turns while parsing ${text.length} bytes`);
  });
});
