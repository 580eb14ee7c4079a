import { createHash } from 'node:crypto';
import { z } from 'zod';
import { ApiError } from '../http/api-error.js';
import { cursorNumber, cursorText, decodePageCursor, encodePageCursor } from '../http/cursor.js';
import type { PagePosition, RecallFilter } from './recall-filter.js';

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
  ]);
  return createHash('sha256').update(canonical).digest('base64url').slice(0, 16);
}

/**
 * A keyset position's fields in a recall cursor (recall by meaning's cursors carry them too). Ids are
 * UUIDs and times ISO text (30 characters at most in the database); a little room either side.
 */
export const KEYSET_FIELDS = { s: cursorNumber, u: cursorText(40), i: cursorText(64) };
const KeywordCursor = z.object({ v: z.literal(1), f: cursorText(32), ...KEYSET_FIELDS });
export const RECALL_ROUTE = 'GET /memory/recall';

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
