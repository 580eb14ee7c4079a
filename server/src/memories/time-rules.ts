import { ERROR_MESSAGES, type Memory } from '@mindservice/contract';
import type { Conn } from '../db/database.js';
import { ApiError } from '../http/api-error.js';

/** The time fields a body may set: a date-time (the contract checked its form), null to clear, undefined to keep. */
export interface TimeFields {
  expires_at?: string | null;
  valid_from?: string | null;
  valid_to?: string | null;
}

/** In UTC with milliseconds, as every time is stored: then text order is time order in SQL. */
const utc = (value: string | null | undefined) => (value === undefined || value === null ? value : new Date(value).toISOString());

/** The fields in stored form. */
export function normalisedTimes(body: TimeFields): TimeFields {
  return { expires_at: utc(body.expires_at), valid_from: utc(body.valid_from), valid_to: utc(body.valid_to) };
}

/** The memory's time bounds after `changes` (undefined keeps a bound); a fact must end after it begins. */
export function withTimes<M extends Pick<Memory, 'expires_at' | 'valid_from' | 'valid_to'>>(memory: M, changes: TimeFields): M {
  const next = {
    ...memory,
    expires_at: changes.expires_at === undefined ? memory.expires_at : changes.expires_at,
    valid_from: changes.valid_from === undefined ? memory.valid_from : changes.valid_from,
    valid_to: changes.valid_to === undefined ? memory.valid_to : changes.valid_to,
  };
  if (next.valid_from !== null && next.valid_to !== null && next.valid_to <= next.valid_from) {
    throw ApiError.invalidField(
      'body.valid_to',
      `must be after valid_from (${next.valid_from}): the fact holds from valid_from until valid_to, so give a later valid_to or leave it out`,
    );
  }
  return next;
}

/** Whether `memory` has expired by `now`. */
export const expired = (memory: Pick<Memory, 'expires_at'>, now: string) => memory.expires_at !== null && memory.expires_at <= now;

/** Why `supersedes` could not be applied to `oldId` (the update found nothing): 404 or 409. Called only to refuse. */
export async function supersedeRefusal(conn: Conn, mindId: string, oldId: string, now: string): Promise<ApiError> {
  const row = (await conn('memories').where({ id: oldId, mind_id: mindId }).first('superseded_by', 'expires_at')) as
    | { superseded_by: string | null; expires_at: string | null }
    | undefined;
  if (!row || expired(row, now)) return ApiError.notFound('Memory');
  return ApiError.conflict('memory_superseded', ERROR_MESSAGES.memorySuperseded(oldId, row.superseded_by ?? ''));
}
