import { z } from 'zod';
import { ApiError } from '../http/api-error.js';
import { cursorInteger, cursorText, decodePageCursor, encodePageCursor } from '../http/cursor.js';
import { KEYSET_FIELDS, RECALL_ROUTE } from '../memories/cursor.js';
import type { HybridPosition } from './recall.js';

// A keyword recall's cursor is version 1 (memories/cursor.ts); recall by meaning's is version 2.
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
