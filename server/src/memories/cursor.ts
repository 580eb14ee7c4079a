import { createHash } from 'node:crypto';
import { ApiError } from '../http/errors.js';
import type { PagePosition, RecallFilter } from './recall-filter.js';
import type { HybridPosition } from './recall-hybrid.js';

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

const toText = (body: object) => Buffer.from(JSON.stringify(body)).toString('base64url');

/** The cursor's fields, or undefined when it is not base64url JSON. */
function fieldsOf<T>(cursor: string): Partial<T> | undefined {
  try {
    return JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as Partial<T>;
  } catch {
    return undefined;
  }
}

export function encodeCursor(fingerprint: string, at: PagePosition): string {
  const body: CursorBody = { v: 1, f: fingerprint, s: at.score, u: at.updatedAt, i: at.id };
  return toText(body);
}

export function decodeCursor(cursor: string, fingerprint: string): PagePosition {
  const body = fieldsOf<CursorBody>(cursor);
  if (body?.v !== 1 || typeof body.s !== 'number' || !Number.isFinite(body.s) || typeof body.u !== 'string' || typeof body.i !== 'string') {
    throw ApiError.invalidField('query.cursor', 'is not a next_cursor returned by GET /memory/recall');
  }
  if (body.f !== fingerprint) {
    throw ApiError.invalidField('query.cursor', 'belongs to a different search: repeat q and the filters of the first page unchanged');
  }
  return { score: body.s, updatedAt: body.u, id: body.i };
}

/**
 * Recall by meaning (modes hybrid and semantic): a cursor is the offset of the next hit in the fused
 * window (the same on every page), or, past it, the keyset position of the last keyword hit shown.
 */
export function encodeMeaningCursor(fingerprint: string, position: HybridPosition): string {
  const body =
    'offset' in position
      ? { v: 2, f: fingerprint, t: position.asOf, o: position.offset }
      : { v: 2, f: fingerprint, t: position.asOf, s: position.after.score, u: position.after.updatedAt, i: position.after.id };
  return toText(body);
}

export function decodeMeaningCursor(cursor: string, fingerprint: string): HybridPosition {
  const body = fieldsOf<{ v: unknown; f: unknown; t: unknown; o: unknown; s: unknown; u: unknown; i: unknown }>(cursor);
  const offset = typeof body?.o === 'number' && Number.isInteger(body.o) && body.o >= 0 && body.o <= 10_000;
  const after = typeof body?.s === 'number' && Number.isFinite(body.s) && typeof body.u === 'string' && typeof body.i === 'string';
  if (body?.v !== 2 || offset === after || typeof body.t !== 'string' || body.t.length > 40) {
    throw ApiError.invalidField('query.cursor', 'is not a next_cursor returned by GET /memory/recall');
  }
  if (body.f !== fingerprint) {
    throw ApiError.invalidField(
      'query.cursor',
      'belongs to a different search: repeat q, mode and the filters of the first page unchanged',
    );
  }
  const asOf = body.t;
  return offset
    ? { offset: body.o as number, asOf }
    : { after: { score: body.s as number, updatedAt: body.u as string, id: body.i as string }, asOf };
}
