import type { Knex } from 'knex';
import type { Conn } from '../db/database.js';
import type { PagePosition, RecallRow } from './recall-filter.js';
import type { MemoryRows, ReadRow } from './rows.js';

/**
 * One page of `query`'s memories (read columns and a `score`) in page order: by score when `ranked`,
 * then newest first; `limit` of them after `after`.
 */
export async function inPageOrder(
  conn: Conn,
  rows: MemoryRows,
  query: Knex.QueryBuilder,
  { ranked, limit, after }: { ranked: boolean; limit: number; after?: PagePosition },
): Promise<RecallRow[]> {
  const page = conn.from(query.as('hits')).select('*');
  if (after) {
    page.where((w) => {
      if (ranked) w.where('score', '<', after.score).orWhere((x) => x.where('score', '=', after.score).andWhere(olderThan(after)));
      else w.where(olderThan(after));
    });
  }
  // Without ranking every score is 0: ordering by it too would keep SQLite from walking the recency index.
  const order = [
    { column: 'updated_at', order: 'desc' },
    { column: 'id', order: 'desc' },
  ];
  const found = (await page.orderBy(ranked ? [{ column: 'score', order: 'desc' }, ...order] : order).limit(limit)) as Array<
    ReadRow & { score: number }
  >;
  return found.map((row) => ({ memory: rows.toMemory(row), score: Number(row.score) }));
}

function olderThan(after: PagePosition) {
  return (w: Knex.QueryBuilder) =>
    w.where('updated_at', '<', after.updatedAt).orWhere((x) => x.where('updated_at', '=', after.updatedAt).andWhere('id', '<', after.id));
}
