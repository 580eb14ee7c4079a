import type { Computer } from '@mindservice/contract';
import type { AppContext } from '../core/context.js';
import { decodeCreatedCursor, encodeCreatedCursor, pageWithinBytes } from '../http/cursor.js';
import { type ComputerScope, listComputers, type StoredComputer } from './store.js';

/** GET /computers/list's default page (the most `limit` takes). */
const COMPUTER_LIST_DEFAULT = 100;

/**
 * One page of the computers a caller sees, in creation order, ending early at the page's byte bound
 * (MIND_MAX_COMPUTERS_PER_USER may be raised far past what one answer should hold).
 */
export async function computerListPage(
  ctx: AppContext,
  scope: ComputerScope,
  present: (computer: StoredComputer) => Computer,
  query: { limit?: number; cursor?: string },
): Promise<{ computers: Computer[]; next_cursor: string | null }> {
  const after = query.cursor === undefined ? undefined : decodeCreatedCursor(query.cursor, 'GET /computers/list');
  const read = await listComputers(ctx.db, scope, { limit: query.limit ?? COMPUTER_LIST_DEFAULT, after });
  const page = pageWithinBytes(read.computers.map(present), read.more, ctx.config.pageMaxBytes);
  const last = page.items.at(-1);
  return {
    computers: page.items,
    next_cursor: page.more && last ? encodeCreatedCursor({ createdAt: last.created_at, id: last.id }) : null,
  };
}
