import type { Knex } from 'knex';
import type { Conn } from '../db/database.js';
import type { PagePosition, RecallRow } from './recall-filter.js';
import type { MemoryRows, ReadRow } from './rows.js';

/** One page of `query`'s memories (read columns and a `score`), newest first: `limit` of them after `after`. */
export async function inPageOrder(
  conn: Conn,
  rows: MemoryRows,
  query: Knex.QueryBuilder,
  { limit, after }: { limit: number; after?: PagePosition },
): Promise<RecallRow[]> {
  const page = conn.from(query.as('hits')).select('*');
  if (after) page.where(olderThan(after));
  const found = (await page
    .orderBy([
      { column: 'updated_at', order: 'desc' },
      { column: 'id', order: 'desc' },
    ])
    .limit(limit)) as Array<ReadRow & { score: number }>;
  return found.map((row) => ({ memory: rows.toMemory(row), score: Number(row.score) }));
}

function olderThan(after: PagePosition) {
  return (w: Knex.QueryBuilder) =>
    w.where('updated_at', '<', after.updatedAt).orWhere((x) => x.where('updated_at', '=', after.updatedAt).andWhere('id', '<', after.id));
}
