import type { ZodIssue } from 'zod';
import { z } from '../zod.js';

// One style for every invalid field, whatever found it: what is wrong and what is allowed
// (`must be one of: low, normal, high, critical`), never zod's own English (`Invalid enum value.
// Expected ...`). The server writes its 400s with it and the OpenAPI examples are made with it.

const TYPE_NAMES: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  integer: 'a whole number',
  float: 'a number with a fraction',
  nan: 'NaN',
  boolean: 'true or false',
  object: 'an object',
  array: 'an array',
  null: 'null',
  date: 'a date',
  bigint: 'a big integer',
};
const typeName = (type: string) => TYPE_NAMES[type] ?? type;
const listOf = (values: readonly unknown[]) => values.map(String).join(', ');
/** A value the request gave, as the message quotes it (briefly). */
const shown = (value: unknown) => {
  const text = JSON.stringify(value) ?? String(value);
  return text.length <= 40 ? text : `${text.slice(0, 39)}…`;
};
const plural = (n: number | bigint, one: string) => `${n} ${one}${n === 1 || n === 1n ? '' : 's'}`;

/** Whether the issue carries zod's default text (a schema's own message is kept as it is). */
function hasDefaultMessage(issue: ZodIssue): boolean {
  return issue.message === z.defaultErrorMap(issue, { defaultError: '\0', data: undefined }).message;
}

function sizeMessage(issue: Extract<ZodIssue, { code: 'too_small' | 'too_big' }>): string {
  const small = issue.code === 'too_small';
  const bound = small ? issue.minimum : issue.maximum;
  const atLeast = small ? 'at least' : 'at most';
  const exactly = issue.exact ? 'exactly' : atLeast;
  switch (issue.type) {
    case 'string':
      if (small && bound === 1 && !issue.exact) return 'must not be empty';
      return `must be ${exactly} ${plural(bound, 'character')}`;
    case 'array':
    case 'set':
      if (small && bound === 1 && !issue.exact) return 'must not be empty';
      return `must have ${exactly} ${plural(bound, 'item')}`;
    case 'date':
      return `must be ${small ? 'on or after' : 'on or before'} ${new Date(Number(bound)).toISOString()}`;
    default:
      if (issue.exact) return `must be exactly ${bound}`;
      if (issue.inclusive) return `must be ${atLeast} ${bound}`;
      return `must be ${small ? 'greater' : 'less'} than ${bound}`;
  }
}

function stringMessage(issue: Extract<ZodIssue, { code: 'invalid_string' }>): string {
  const { validation } = issue;
  if (typeof validation === 'object') {
    if ('includes' in validation) return `must contain "${validation.includes}"`;
    if ('startsWith' in validation) return `must start with "${validation.startsWith}"`;
    return `must end with "${validation.endsWith}"`;
  }
  const forms: Record<string, string> = {
    email: 'must be an email address',
    url: 'must be a URL',
    uuid: 'must be a UUID',
    datetime: 'must be an ISO 8601 date-time such as 2026-11-22T01:29:42.123Z',
    date: 'must be an ISO 8601 date such as 2026-11-22',
    time: 'must be a time such as 09:30:00',
    ip: 'must be an IP address',
    base64: 'must be base64',
  };
  return forms[validation] ?? `must be a valid ${validation}`;
}

/** What is wrong with the value at an issue's path and what is allowed, without the path. */
export function issueMessage(issue: ZodIssue): string {
  if (!hasDefaultMessage(issue)) return issue.message;
  switch (issue.code) {
    case 'invalid_type': {
      if (issue.received === 'undefined') return 'is required';
      // An enum given another type names its values as `'a' | 'b'`.
      const expected = issue.expected.includes(' | ')
        ? `one of: ${issue.expected.replace(/'/g, '').split(' | ').join(', ')}`
        : typeName(issue.expected);
      return `must be ${expected} (got ${typeName(issue.received)})`;
    }
    case 'invalid_enum_value':
      return `must be one of: ${listOf(issue.options)} (got ${shown(issue.received)})`;
    case 'invalid_union_discriminator':
      return `must be one of: ${listOf(issue.options)}`;
    case 'invalid_literal':
      return `must be ${JSON.stringify(issue.expected)}`;
    case 'too_small':
    case 'too_big':
      return sizeMessage(issue);
    case 'invalid_string':
      return stringMessage(issue);
    case 'not_multiple_of':
      return `must be a multiple of ${issue.multipleOf}`;
    case 'not_finite':
      return 'must be a finite number';
    case 'unrecognized_keys':
      return `has fields it does not take: ${listOf(issue.keys)}`;
    case 'invalid_union':
      return 'matches none of the forms it may take';
    case 'invalid_date':
      return 'must be a valid date';
    default:
      return issue.message;
  }
}

/** One `{path, message}` per issue, the path starting with the part of the request (`body`, `query`, `params`). */
export const issueDetails = (location: string, issues: readonly ZodIssue[]) =>
  issues.map((issue) => ({ path: [location, ...issue.path].join('.'), message: issueMessage(issue) }));
