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
 * alone is bounded by its schema's maxima). Each item is serialized once, to count its UTF-8 bytes.
 */
export function itemsWithinBytes(items: readonly unknown[], maxBytes: number): number {
  let total = 0;
  for (let i = 0; i < items.length; i++) {
    total += Buffer.byteLength(JSON.stringify(items[i])) + 1; // the comma between items
    if (total > maxBytes) return Math.max(1, i);
  }
  return items.length;
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
