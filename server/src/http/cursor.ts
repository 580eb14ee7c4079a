import { z } from 'zod';
import { ApiError } from './api-error.js';

/**
 * Page cursors (tasks, scripts, recall, computer commands): base64url text, opaque to clients, so
 * whatever a client sends back is checked here after decoding, the same way on every route and
 * database. A tampered cursor is a 400 that names the route it should come from, never a 500 (a
 * NUL inside the decoded text passed the query-string check and PostgreSQL refused the query).
 */

/** Longer than any cursor the service writes (the contract caps the query values at 200-1000). */
export const MAX_CURSOR_LENGTH = 1000;

/** A text field of a cursor: at most `max` characters, no NUL (PostgreSQL cannot take one). */
export const cursorText = (max: number) =>
  z
    .string()
    .max(max)
    .refine((s) => !s.includes('\0'));

/** A number field of a cursor (JSON's 1e999 is Infinity: refused). */
export const cursorNumber = z.number().finite();

/** An integer field of a cursor between min and max. */
export const cursorInteger = (min: number, max: number) => z.number().int().min(min).max(max);

const BASE64URL = /^[A-Za-z0-9_-]*$/;
const utf8 = new TextDecoder('utf-8', { fatal: true });

export function encodeCursorText(text: string): string {
  return Buffer.from(text).toString('base64url');
}

export function encodePageCursor(value: unknown): string {
  return encodeCursorText(JSON.stringify(value));
}

const refused = (from: string) =>
  ApiError.invalidField('query.cursor', `is not a next_cursor returned by ${from}; ask for the first page again, without cursor`);

/**
 * The text inside a cursor: base64url characters only (Buffer.from skips others silently), at most
 * MAX_CURSOR_LENGTH, valid UTF-8 without NUL. `from` is the route whose next_cursor it should be.
 */
export function decodeCursorText(cursor: string, from: string): string {
  if (cursor.length === 0 || cursor.length > MAX_CURSOR_LENGTH || !BASE64URL.test(cursor)) throw refused(from);
  let text: string;
  try {
    text = utf8.decode(Buffer.from(cursor, 'base64url'));
  } catch {
    throw refused(from);
  }
  if (text.includes('\0')) throw refused(from);
  return text;
}

/** A JSON cursor's value, held to `schema` (types, sizes, no NUL in any text field). */
export function decodePageCursor<T>(cursor: string, schema: z.ZodType<T, z.ZodTypeDef, unknown>, from: string): T {
  let value: unknown;
  try {
    value = JSON.parse(decodeCursorText(cursor, from));
  } catch (err) {
    if (err instanceof ApiError) throw err;
    throw refused(from);
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw refused(from);
  return parsed.data;
}

/**
 * How many of a page's items (in page order) to show so that their JSON stays within `maxBytes`:
 * the items before the one that reaches it, and always at least one so paging moves on (one item
 * alone is bounded by its schema's maxima). A page whose upper bound (from string lengths, without
 * serializing) fits is whole; only a page near the bound has each item serialized to count its bytes.
 */
export function itemsWithinBytes(items: readonly unknown[], maxBytes: number): number {
  let bound = 0;
  for (const item of items) bound += jsonBytesAtMost(item) + 1;
  if (bound <= maxBytes) return items.length;
  let total = 0;
  for (let i = 0; i < items.length; i++) {
    total += Buffer.byteLength(JSON.stringify(items[i])) + 1; // the comma between items
    if (total > maxBytes) return Math.max(1, i);
  }
  return items.length;
}

/** The most JSON.stringify's UTF-8 for a number can take ("-1.2345678901234567e-308"). */
const NUMBER_BYTES = 24;

/**
 * An upper bound of JSON.stringify(value)'s UTF-8 bytes: a UTF-16 unit of a string is at most 6 bytes
 * (a control character or lone surrogate escaped as \uXXXX; anything else at most 3 bytes).
 */
export function jsonBytesAtMost(value: unknown): number {
  switch (typeof value) {
    case 'string':
      return value.length * 6 + 2;
    case 'number':
    case 'bigint':
      return NUMBER_BYTES;
    case 'boolean':
      return 5;
    case 'object': {
      if (value === null) return 4;
      if (typeof (value as { toJSON?: unknown }).toJSON === 'function') {
        return jsonBytesAtMost((value as { toJSON(): unknown }).toJSON());
      }
      let bytes = 2;
      if (Array.isArray(value)) {
        for (const element of value) bytes += jsonBytesAtMost(element) + 1;
        return bytes;
      }
      for (const key in value) {
        bytes += key.length * 6 + 4 + jsonBytesAtMost((value as Record<string, unknown>)[key]);
      }
      return bytes;
    }
    default:
      return 4; // undefined and functions: left out, or null inside an array
  }
}

/** Where a list in creation order (minds, computers) stands: the last item shown. */
export interface CreatedPosition {
  createdAt: string;
  id: string;
}
const CreatedCursor = z.tuple([z.literal(2), cursorText(40), cursorText(64)]);

export const encodeCreatedCursor = (at: CreatedPosition) => encodePageCursor([2, at.createdAt, at.id]);

export function decodeCreatedCursor(cursor: string, from: string): CreatedPosition {
  const [, createdAt, id] = decodePageCursor(cursor, CreatedCursor, from);
  return { createdAt, id };
}

/** A page cut at the byte bound: the items shown, and whether more follow (rows read past it, or items cut). */
export function pageWithinBytes<T>(items: T[], more: boolean, maxBytes: number): { items: T[]; more: boolean } {
  const fit = itemsWithinBytes(items, maxBytes);
  return fit < items.length ? { items: items.slice(0, fit), more: true } : { items, more };
}
