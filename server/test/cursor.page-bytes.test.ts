// A page is cut at MIND_PAGE_MAX_BYTES without serializing it when a cheap upper bound fits: the bound
// must never be below the real JSON, and the cut must be the one exact counting gives.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { itemsWithinBytes, jsonBytesAtMost } from '../src/http/cursor.js';

const bytes = (value: unknown) => Buffer.byteLength(JSON.stringify(value));

/** The cut as counting each item's exact JSON gives it. */
function exactCut(items: unknown[], maxBytes: number): number {
  let total = 0;
  for (let i = 0; i < items.length; i++) {
    total += bytes(items[i]) + 1;
    if (total > maxBytes) return Math.max(1, i);
  }
  return items.length;
}

const AWKWARD = [
  '',
  'plain',
  '\u0000\u0001\u001f', // escaped as \u00XX
  '"\\\n\t', // two-byte escapes
  'é中', // two and three UTF-8 bytes
  '😀', // a surrogate pair: four bytes
  '\ud800', // a lone surrogate: escaped as \ud800
  '\u2028\u2029',
];

describe('page bytes: the upper bound and the cut', () => {
  test('the bound is never below JSON.stringify for awkward strings, numbers, nesting, dates and left-out fields', () => {
    const values: unknown[] = [
      ...AWKWARD,
      ...AWKWARD.map((s) => ({ [s]: s, list: [s, s] })),
      0,
      -1.2345678901234567e-308,
      Number.MAX_VALUE,
      NaN,
      true,
      false,
      null,
      [undefined, () => 1, null],
      { gone: undefined, fn: () => 1, kept: 1 },
      { at: new Date(0), nested: { deeper: [{ a: ['b', { c: 'é😀\u0000' }] }] } },
      [],
      {},
    ];
    for (const value of values) {
      assert.ok(jsonBytesAtMost(value) >= bytes(value), `${JSON.stringify(value)}: ${jsonBytesAtMost(value)} < ${bytes(value)}`);
    }
  });

  test('every cut equals the exact one, on pages far below, near and above the bound', () => {
    let seed = 7;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    const text = (n: number) => Array.from({ length: n }, () => AWKWARD[Math.floor(random() * AWKWARD.length)]).join('x');
    for (let round = 0; round < 300; round++) {
      const items = Array.from({ length: 1 + Math.floor(random() * 30) }, (_, i) => ({
        id: `item-${i}`,
        title: text(Math.floor(random() * 40)),
        tags: [text(3), text(2)],
        priority: random() > 0.5 ? 'high' : null,
        position: random() * 1e6,
      }));
      const whole = items.reduce((sum, item) => sum + bytes(item) + 1, 0);
      for (const maxBytes of [1, Math.floor(whole / 3), whole - 1, whole, whole + 1, whole * 10]) {
        assert.equal(itemsWithinBytes(items, maxBytes), exactCut(items, maxBytes), `round ${round}, bound ${maxBytes}`);
      }
    }
  });
});
