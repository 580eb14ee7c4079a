import type { Memory } from '@mindservice/contract';
import type { Conn } from '../db/database.js';
import type { ChangeParts } from '../events/recorder.js';
import type { PagePosition, RecallFilter, RecallRow } from './recall-filter.js';
import type { MemoryRows, ReadRow } from './rows.js';
import type { IndexChangeSink } from './search-index.js';

/** The ranking a keyword index scores with; fusion and re-ranking squash each scale their own way. */
export type KeywordScores = 'bm25';

/**
 * The full-text index of memories on one database (credentials are never indexed): the store keeps
 * it in step with every write, recall ranks by it. One per dialect (recall.ts `keywordIndexFor`):
 * keyword-index-sqlite.ts (FTS5, BM25 over each mind's own memories) and keyword-index-postgres.ts
 * (a tsvector in the row, BM25 with the mind's statistics of migration 0531). Writes that change a
 * separate index send the changes to the `sink` they are given (at once, or at the end of a batched write: write-batch.ts).
 */
export interface KeywordIndex {
  readonly scores: KeywordScores;
  /** The memory's row as written: with the index's columns where the row carries them. */
  rowFor(conn: Conn, row: ReadRow, memory: Memory): ReadRow;
  /** Writes one new memory, its tags and its index entry (POST /memory's hot path). */
  insertOne(conn: Conn, rows: MemoryRows, mindId: string, memory: Memory, sink: IndexChangeSink): Promise<void>;
  /** The same as WITH parts the event's statement carries (events/recorder.ts ChangeParts), where the database can. */
  insertParts?(rows: MemoryRows, mindId: string, memory: Memory): ChangeParts;
  /** The index entries of memories whose rows (and tags) were just inserted. */
  added(conn: Conn, sink: IndexChangeSink, mindId: string, memories: Memory[]): Promise<void>;
  /** The index entry of a memory whose row was just rewritten. */
  rewritten(conn: Conn, sink: IndexChangeSink, mindId: string, memory: Memory): Promise<void>;
  /** `limit` of the mind's memories holding any of the filter's words, after `after`, in page order (score first). */
  rankedPage(conn: Conn, rows: MemoryRows, mindId: string, filter: RecallFilter, limit: number, after?: PagePosition): Promise<RecallRow[]>;
}
