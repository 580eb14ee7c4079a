import type { Memory } from '@mindservice/contract';
import type { Conn } from '../db/database.js';
import type { ChangeParts } from '../events/recorder.js';
import type { PagePosition, RecallFilter, RecallRow } from './recall-filter.js';
import type { MemoryRows, ReadRow } from './rows.js';

/**
 * The keyword index of memories on one database (credentials are never indexed): the store keeps it
 * in step with every write, recall ranks by it. One per dialect, chosen by the connection
 * (keyword-index-choice.ts): keyword-index-sqlite.ts (search/fts5-engine.ts) and
 * keyword-index-postgres.ts (search/tsvector-engine.ts); both rank by BM25 over the mind's own
 * memories, with the common-word rule (search/common-words.ts). Here only what is memories' own:
 * the rows, the filters and the verified boost.
 */
export interface KeywordIndex {
  /** The memory's row as written: with the index's columns where the row carries them. */
  rowFor(conn: Conn, row: ReadRow, memory: Memory): ReadRow;
  /** Writes one new memory, its tags and its index entry (POST /memory's hot path). */
  insertOne(conn: Conn, rows: MemoryRows, mindId: string, memory: Memory): Promise<void>;
  /** The same as WITH parts the event's statement carries (events/recorder.ts ChangeParts), where the database can. */
  insertParts?(rows: MemoryRows, mindId: string, memory: Memory): ChangeParts;
  /** The index entries of memories whose rows (and tags) were just inserted. */
  added(conn: Conn, mindId: string, memories: Memory[]): Promise<void>;
  /** The index entry of a memory whose row was just rewritten. */
  rewritten(conn: Conn, mindId: string, memory: Memory): Promise<void>;
  /** `limit` of the mind's memories holding any of the filter's words, after `after`, in page order (score first). */
  rankedPage(conn: Conn, rows: MemoryRows, mindId: string, filter: RecallFilter, limit: number, after?: PagePosition): Promise<RecallRow[]>;
}
