// Every `pattern` of docs/openapi.json and of the MCP tools' schemas means the same to every reader:
// ECMA-262 without flags (Swagger UI, ajv), Go's RE2 (here re2js, its port) and Python's `re` (when
// python3 is on the machine). Each pattern is written in the portable subset (contract/src/patterns.ts),
// compiles in each engine, and each engine accepts and refuses the same probes (the document's examples,
// their variants, and text that trips the engines' differences: `$` before a final line feed, white
// space beyond ASCII, characters outside the BMP, U+0000).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { RE2JS } from 're2js';
import { buildTools } from '../src/mcp/tools.js';

const document = JSON.parse(readFileSync(new URL('../../docs/openapi.json', import.meta.url), 'utf8')) as unknown;

/** Each pattern with the examples of the schemas that state it. */
function patternsOf(root: unknown, into = new Map<string, Set<string>>()) {
  const walk = (node: unknown) => {
    if (Array.isArray(node)) return node.forEach(walk);
    if (!node || typeof node !== 'object') return;
    const schema = node as Record<string, unknown>;
    if (typeof schema.pattern === 'string') {
      const examples = into.get(schema.pattern) ?? new Set<string>();
      for (const example of [schema.example, ...(Array.isArray(schema.examples) ? schema.examples : [])]) {
        if (typeof example === 'string') examples.add(example);
      }
      into.set(schema.pattern, examples);
    }
    for (const [key, value] of Object.entries(schema)) if (key !== 'example' && key !== 'examples') walk(value);
  };
  walk(root);
  return into;
}

const PUNCTUATION = new Set('.*+?()[]{}|^$\\/-'.split(''));
const CONTROL_ESCAPES = new Set('tnvfr'.split(''));

/** Why `pattern` is outside the portable subset, or undefined. */
function notPortable(pattern: string): string | undefined {
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i]!;
    if (ch === '\\') {
      const next = pattern[i + 1] ?? '';
      if (next === 'x') {
        if (!/^[0-9a-fA-F]{2}$/.test(pattern.slice(i + 2, i + 4))) return `\\x needs two hex digits at ${i}`;
        i += 3;
        continue;
      }
      if (!CONTROL_ESCAPES.has(next) && !PUNCTUATION.has(next)) return `escape \\${next} at ${i} means other things in other engines`;
      i += 1;
      continue;
    }
    if (inClass) {
      if (ch === ']') inClass = false;
      continue;
    }
    if (ch === '[') {
      inClass = true;
      if (pattern[i + 1] === '^') i += 1;
      if (pattern[i + 1] === ']') i += 1; // a leading `]` is literal
      continue;
    }
    if (ch === '.') return `\`.\` at ${i} excludes other line ends in other engines`;
    if (ch === '(' && pattern[i + 1] === '?' && pattern[i + 2] !== ':') return `group (?${pattern[i + 2]} at ${i}: only (?: is portable`;
    if (ch === '^' && i !== 0 && pattern[i - 1] !== '|' && pattern[i - 1] !== '(' && pattern.slice(i - 3, i) !== '(?:') {
      return `^ at ${i} not at a start`;
    }
  }
  return undefined;
}

/** How the three engines answer `re.search(pattern, text)`, for each pattern and probe. */
function ecmaAnswers(cases: Array<[string, string[]]>) {
  return cases.map(([pattern, probes]) => {
    const regex = new RegExp(pattern);
    return probes.map((probe) => regex.test(probe));
  });
}
function re2Answers(cases: Array<[string, string[]]>) {
  return cases.map(([pattern, probes]) => {
    const regex = RE2JS.compile(pattern);
    return probes.map((probe) => regex.matcher(probe).find());
  });
}
function pythonAnswers(cases: Array<[string, string[]]>): boolean[][] | undefined {
  const script = 'import json,re,sys\nc=json.load(sys.stdin)\nprint(json.dumps([[re.search(p,s) is not None for s in ps] for p,ps in c]))';
  const run = spawnSync('python3', ['-c', script], { input: JSON.stringify(cases), encoding: 'utf8' });
  if (run.error) return undefined; // no python3 here: ECMA-262 and RE2 still decide
  assert.equal(run.status, 0, `python3 could not compile a pattern: ${run.stderr}`);
  return JSON.parse(run.stdout) as boolean[][];
}

const SPACES = ['\t', '\n', '\v', '\f', '\r', ' ', '\u00a0', '\u1680', '\u2003', '\u2028', '\u2029', '\u202f', '\u3000', '\ufeff'];
const FIXED_PROBES = [
  '',
  'a',
  'cello',
  '\n',
  ...SPACES,
  ...SPACES.map((s) => `${s}x${s}`),
  '\u200b', // not white space in ECMA-262, though some engines differ
  '\u0085', // NEL: white space to Python, not to ECMA-262
  '\u001c', // a separator Python's \s includes
  'é',
  '١٢٣', // digits Python's \d matches
  '😀',
  '😀'.repeat(30),
  `${'a'.repeat(49)}😀`,
  'a\u0000',
  '2026-12-01',
  '2026-12-01T09:00:00Z',
  'https://example.com',
  'http://localhost:3000/hooks',
  'task.*,memory.created',
  'ctrl,c',
  'name@example.com',
];

/** The probes for one pattern: the fixed ones, its examples and variants of them. */
function probesFor(examples: Set<string>) {
  const out = new Set(FIXED_PROBES);
  for (const example of examples) {
    for (const variant of [
      example,
      `${example}\n`,
      `${example}\n\n`,
      ` ${example} `,
      `${example}\u00a0`,
      `${example}\u0085`,
      `${example}\u0000`,
      example.slice(1),
      example.slice(0, -1),
      `${example}😀`,
    ]) {
      out.add(variant);
    }
  }
  return [...out];
}

describe('patterns in the document and the tool schemas', () => {
  const patterns = patternsOf(document);
  patternsOf(
    buildTools().map((tool) => tool.definition),
    patterns,
  );

  test('the checker refuses what is not portable (so the tests below can fail)', () => {
    assert.ok(notPortable(String.raw`^(?![\s\S]*\u0000)(?:^\s*$|[\p{L}\p{N}])`));
    assert.ok(notPortable(String.raw`^\d+$`));
    assert.ok(notPortable(String.raw`^[^\u0000]*$`));
    assert.ok(notPortable('^a.b$'));
    assert.equal(notPortable(String.raw`^[^\x00]*$`), undefined);
    // And the engines disagree on those: what the comparison below would catch.
    assert.notDeepEqual(ecmaAnswers([['^[0-9]+$', ['12\n']]]), pythonAnswers([['^[0-9]+$', ['12\n']]]) ?? [[true]]);
    assert.throws(() => RE2JS.compile(String.raw`^(?![\s\S]*\u0000)x`));
  });

  test('there are patterns to check, and each is in the portable subset', () => {
    assert.ok(patterns.size >= 6, `found ${patterns.size}`);
    for (const pattern of patterns.keys()) assert.equal(notPortable(pattern), undefined, pattern);
  });

  test('each compiles without flags in ECMA-262, RE2 and Python, and all three agree on every probe', () => {
    const cases = [...patterns].map(([pattern, examples]) => [pattern, probesFor(examples)] as [string, string[]]);
    const ecma = ecmaAnswers(cases);
    const re2 = re2Answers(cases);
    const python = pythonAnswers(cases);
    if (!python) console.log('# python3 not found: compared ECMA-262 and RE2 only');
    cases.forEach(([pattern, probes], i) => {
      probes.forEach((probe, j) => {
        const where = `${JSON.stringify(pattern).slice(0, 80)}… on ${JSON.stringify(probe)}`;
        assert.equal(re2[i]![j], ecma[i]![j], `RE2 and ECMA-262 differ: ${where}`);
        if (python) assert.equal(python[i]![j], ecma[i]![j], `Python and ECMA-262 differ: ${where}`);
        if (probe.includes('\u0000')) assert.equal(ecma[i]![j], false, `U+0000 accepted: ${where}`);
      });
    });
  });

  test("every example meets its schema's pattern", () => {
    for (const [pattern, examples] of patterns) {
      for (const example of examples) assert.ok(new RegExp(pattern).test(example), `${example} against ${pattern.slice(0, 80)}`);
    }
  });
});
