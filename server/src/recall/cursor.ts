import { createHash } from 'node:crypto';
import { z } from 'zod';
import { ApiError } from '../http/api-error.js';
import { cursorInteger, cursorNumber, cursorText, decodePageCursor, encodePageCursor } from '../http/cursor.js';
import type { PagePosition, RecallFilter } from '../memories/recall-filter.js';
import type { HybridPosition } from './hybrid.js';

/**
 * Recall cursors are keyset positions: the (score, updated_at, id) of the last hit shown, plus a
 * fingerprint of the search, so a cursor cannot be replayed against a different search.
 * Keyset paging never repeats or skips a memory while the mind's memories stay as they are.
 * When they change between pages: a memory written meanwhile has a newer updated_at and (for a
 * search without words) sorts before the cursor, so it is not shown again on later pages; with
 * words, BM25 depends on the whole index, so a write can shift scores and move a memory across the
 * cursor. A fresh recall (no cursor) always reflects the current state.
 */
interface CursorBody {
  v: 1;
  f: string;
  s: number;
  u: string;
  i: string;
}

export function searchFingerprint(filter: RecallFilter): string {
  const canonical = JSON.stringify([
    filter.words,
    filter.category ?? null,
    filter.key ?? null,
    [...filter.tags].sort(),
    filter.verified ?? null,
    filter.since ?? null,
    // Only when asked, so a cursor of a search without them reads as it always did.
    ...(filter.asOf !== undefined || filter.includePast ? [filter.asOf ?? null, filter.includePast ?? false] : []),
    ...(filter.keyPrefix === undefined ? [] : [filter.keyPrefix]),
  ]);
  return createHash('sha256').update(canonical).digest('base64url').slice(0, 16);
}

/**
 * A keyset position's fields in a recall cursor (recall by meaning's cursors carry them too). Ids are
 * UUIDs and times ISO text (30 characters at most in the database); a little room either side.
 */
const KEYSET_FIELDS = { s: cursorNumber, u: cursorText(40), i: cursorText(64) };
const KeywordCursor = z.object({ v: z.literal(1), f: cursorText(32), ...KEYSET_FIELDS });
const RECALL_ROUTE = 'GET /memory/recall';

export function encodeCursor(fingerprint: string, at: PagePosition): string {
  const body: CursorBody = { v: 1, f: fingerprint, s: at.score, u: at.updatedAt, i: at.id };
  return encodePageCursor(body);
}

export function decodeCursor(cursor: string, fingerprint: string): PagePosition {
  const body = decodePageCursor(cursor, KeywordCursor, RECALL_ROUTE);
  if (body.f !== fingerprint) {
    throw ApiError.invalidField('query.cursor', 'belongs to a different search: repeat q and the filters of the first page unchanged');
  }
  return { score: body.s, updatedAt: body.u, id: body.i };
}

// A keyword recall's cursor is version 1 (above); recall by meaning's is version 2.
const MeaningCursor = z.union([
  z.object({ v: z.literal(2), f: cursorText(32), t: cursorText(40), o: cursorInteger(0, 10_000) }).strict(),
  z.object({ v: z.literal(2), f: cursorText(32), t: cursorText(40), ...KEYSET_FIELDS }).strict(),
]);

/**
 * Recall by meaning (modes hybrid and semantic): a cursor is the offset of the next hit in the fused
 * window (the same on every page), or, past it, the keyset position of the last keyword hit shown.
 */
export function encodeMeaningCursor(fingerprint: string, position: HybridPosition): string {
  const body =
    'offset' in position
      ? { v: 2, f: fingerprint, t: position.asOf, o: position.offset }
      : { v: 2, f: fingerprint, t: position.asOf, s: position.after.score, u: position.after.updatedAt, i: position.after.id };
  return encodePageCursor(body);
}

export function decodeMeaningCursor(cursor: string, fingerprint: string): HybridPosition {
  const body = decodePageCursor(cursor, MeaningCursor, RECALL_ROUTE);
  if (body.f !== fingerprint) {
    throw ApiError.invalidField(
      'query.cursor',
      'belongs to a different search: repeat q, mode and the filters of the first page unchanged',
    );
  }
  const asOf = body.t;
  return 'o' in body ? { offset: body.o, asOf } : { after: { score: body.s, updatedAt: body.u, id: body.i }, asOf };
}
