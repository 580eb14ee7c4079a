import { createHash } from 'node:crypto';
import { z } from 'zod';
import { ApiError } from '../http/api-error.js';
import { cursorInteger, cursorNumber, cursorText, decodePageCursor, encodePageCursor } from '../http/cursor.js';
import type { ChatFilter, ChatPosition } from './keyword-index.js';

export const SEARCH_ROUTE = 'GET /mind/chat/search';

/**
 * Where a page of chat search starts. Keyword order: after a keyset position (score, created_at,
 * id). By meaning: an offset in the ranked window, or past it the keyset position of the last
 * keyword hit shown; `asOf` is the id of the mind's last stored message when the first page was
 * asked, so later pages rank the same messages (an id, not the seq, which counts every mind's messages).
 */
export type SearchPosition = { after?: ChatPosition; offset?: number; asOf?: string };

const KEYSET = { s: cursorNumber, u: cursorText(40), i: cursorText(64) };
const Cursor = z.union([
  z.object({ v: z.literal(1), f: cursorText(32), ...KEYSET }).strict(),
  z.object({ v: z.literal(2), f: cursorText(32), t: cursorText(64), o: cursorInteger(0, 10_000) }).strict(),
  z.object({ v: z.literal(2), f: cursorText(32), t: cursorText(64), ...KEYSET }).strict(),
]);

/** The search a cursor belongs to: the words, the filters and the mode. */
export function searchFingerprint(filter: ChatFilter, mode: string): string {
  const canonical = JSON.stringify([filter.words, filter.thread ?? null, filter.role ?? null, filter.since ?? null, mode]);
  return createHash('sha256').update(canonical).digest('base64url').slice(0, 16);
}

export function encodeSearchCursor(fingerprint: string, at: SearchPosition): string {
  const keyset = at.after && { s: at.after.score, u: at.after.createdAt, i: at.after.id };
  if (at.asOf === undefined) return encodePageCursor({ v: 1, f: fingerprint, ...keyset });
  return encodePageCursor(
    at.offset !== undefined ? { v: 2, f: fingerprint, t: at.asOf, o: at.offset } : { v: 2, f: fingerprint, t: at.asOf, ...keyset },
  );
}

/** The position a cursor holds; `byMeaning`: the search ranks by meaning (a cursor of the other kind is refused). */
export function decodeSearchCursor(cursor: string, fingerprint: string, byMeaning: boolean): SearchPosition {
  const body = decodePageCursor(cursor, Cursor, SEARCH_ROUTE);
  if (body.f !== fingerprint || (body.v === 2) !== byMeaning) {
    throw ApiError.invalidField(
      'query.cursor',
      'belongs to a different search: repeat q, mode and the filters of the first page unchanged',
    );
  }
  const after = 's' in body ? { score: body.s, createdAt: body.u, id: body.i } : undefined;
  return { after, offset: 'o' in body ? body.o : undefined, asOf: 't' in body ? body.t : undefined };
}
