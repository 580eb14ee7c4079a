import type { Memory } from '@mindservice/contract';
import { type Conn, runSql } from '../db/database.js';
import { indexEntry } from './search-text.js';
import type { ChangeSink } from './write-batch.js';

/**
 * SQLite's full-text index of memories (credentials are never indexed; keyword-index-sqlite.ts): the
 * FTS5 table memories_fts, rowid = memories.seq, written by the changes below in the transaction of
 * the write, and the memory's ranking row in memories_rank (the delete triggers of the migrations
 * remove both for deleted memories).
 */

/** A change of the SQLite search index: a memory's index row to add, or a memory (by id) to take out. */
export type IndexChange = { add: [rowid: number, key: string, content: string, tags: string] } | { remove: string };

/**
 * Where a write's index changes go: made at once (indexAtOnce), or in a batched write kept for the
 * end of its batch (the sink WriteBatcher.run hands the write).
 */
export type IndexChangeSink = ChangeSink<IndexChange>;

/** Adds (if the memory still exists) up to this many index rows in one statement. */
const ADDS_PER_STATEMENT = 100;
const insertIndexRows = (count: number) =>
  `INSERT INTO memories_fts (rowid, key, content, tags) SELECT column1, column2, column3, column4 FROM (VALUES ${Array(count).fill('(?, ?, ?, ?)').join(', ')}) WHERE EXISTS (SELECT 1 FROM memories WHERE seq = column1)`;

/**
 * SQLite: makes the changes in order. Consecutive adds go in one statement: FTS5 writes what it
 * holds in memory out as a new index segment at every savepoint, and each statement that writes a
 * virtual table in a transaction opens one, so an INSERT per memory gave a segment per memory (and
 * more merging later). An add is skipped if its memory is gone: in a batched write (write-batch.ts)
 * the changes are made at the end of the batch, after a later write may have deleted the memory.
 */
export async function applyIndexChanges(conn: Conn, changes: IndexChange[]): Promise<void> {
  for (let i = 0; i < changes.length; ) {
    const change = changes[i]!;
    if ('remove' in change) {
      await runSql(conn, 'DELETE FROM memories_fts WHERE rowid = (SELECT seq FROM memories WHERE id = ?)', [change.remove]);
      i++;
      continue;
    }
    const adds: unknown[][] = [];
    for (let next = changes[i]; next && 'add' in next && adds.length < ADDS_PER_STATEMENT; next = changes[++i]) adds.push(next.add);
    await runSql(conn, insertIndexRows(adds.length), adds.flat());
  }
}

/** Changes the index in the caller's transaction, at once. */
export const indexAtOnce: IndexChangeSink = { change: applyIndexChanges };

/** Ranking rows (migration 0530) added in one statement, up to ADDS_PER_STATEMENT. */
const insertRankRows = (count: number) =>
  `INSERT INTO memories_rank (seq, id, mind_id, category, verified, updated_at, words) VALUES ${Array(count).fill('(?, ?, ?, ?, ?, ?, ?)').join(', ')}`;

/**
 * SQLite: the index entries of memories already inserted (credentials are never indexed): their
 * ranking rows in memories_rank at once, their index rows sent to `index`. `knownSeqs` saves
 * looking up the rowids when the caller has them from its insert.
 */
export async function addToSearchIndex(
  conn: Conn,
  index: IndexChangeSink,
  mindId: string,
  memories: Memory[],
  knownSeqs?: Map<string, number>,
) {
  const indexed = memories.filter((m) => m.category !== 'credentials');
  if (indexed.length === 0) return;
  let seqs = knownSeqs;
  if (!seqs) {
    const rows = (await conn('memories')
      .whereIn(
        'id',
        indexed.map((m) => m.id),
      )
      .select('id', 'seq')) as Array<{ id: string; seq: number }>;
    seqs = new Map(rows.map((r) => [r.id, r.seq]));
  }
  const entries = indexed.map((m) => ({ memory: m, seq: seqs.get(m.id)!, ...indexEntry(mindId, m.key, m.content, m.tags) }));
  for (let i = 0; i < entries.length; i += ADDS_PER_STATEMENT) {
    const chunk = entries.slice(i, i + ADDS_PER_STATEMENT);
    await runSql(
      conn,
      insertRankRows(chunk.length),
      chunk.flatMap(({ memory: m, seq, words }) => [seq, m.id, mindId, m.category, Number(m.verified), m.updated_at, words]),
    );
  }
  await index.change(
    conn,
    entries.map(({ seq, texts }) => ({ add: [seq, ...texts] })),
  );
}

/** Takes a memory's row out of the index. */
export const removeFromSearchIndex = (conn: Conn, index: IndexChangeSink, memoryId: string) => index.change(conn, [{ remove: memoryId }]);
