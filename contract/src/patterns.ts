// Patterns the document states, written so that every reader means the same by them: ECMA-262 without
// flags (Swagger UI, ajv), Python's `re` and Go's RE2 (generated clients, LLM tool APIs). Hence no
// look-around, no `\p{...}`, no `\u` escapes, no `\d \s \w \b` and no `.` (each engine means other
// characters by them): classes are spelled out. Python's `$` also matches before a final line feed, so
// a pattern ending in `$` accepts a trailing line feed wherever it accepts the text without one.
// What these cannot say (letters of every script, lengths counted in characters) the server checks
// and the field's description says in words. server/test/openapi.patterns.test.ts holds them to it.

/** ECMA-262's white space (what `\s` and `String.prototype.trim` mean), spelled out for a character class. */
const SPACE_CHARS = '\\t\\n\\v\\f\\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff';

/** One white-space character. */
export const SPACE = `[${SPACE_CHARS}]`;
/** One character that is neither white space nor U+0000. */
export const NOT_SPACE = `[^\\x00${SPACE_CHARS}]`;
/** One character that is white space or in `extra` (class syntax, e.g. `,`). */
export const SPACE_OR = (extra: string) => `[${SPACE_CHARS}${extra}]`;
/** One character other than U+0000 (PostgreSQL cannot store it; no string the server reads may hold one). */
export const NOT_NUL = '[^\\x00]';
/** One character that is neither U+0000 nor `exclude` (class syntax, e.g. `,`). */
export const NOT_NUL_OR = (exclude: string) => `[^\\x00${exclude}]`;
/** One character that is neither white space, U+0000 nor `exclude`. */
export const NOT_SPACE_OR = (exclude: string) => `[^\\x00${SPACE_CHARS}${exclude}]`;

/** Any text without U+0000: every string schema of the document that has no pattern of its own. */
export const NUL_FREE = `^${NOT_NUL}*$`;
/** Text with at least one character that is not white space (and no U+0000). */
export const NON_BLANK = `^${NOT_NUL}*${NOT_SPACE}${NOT_NUL}*$`;

/** `pattern` surrounded by any white space, as the server reads a field it trims first. */
export const trimmed = (pattern: string) => `^${SPACE}*(?:${pattern})${SPACE}*$`;
