import type { ChatMessage } from '@mindservice/contract';
import type { Knex } from 'knex';
import type { Conn } from '../db/database.js';
import type { RankedQuery } from '../search/bm25.js';

/** What chat search asks for: the query's words and the filters. */
export interface ChatFilter {
  /** Lower-case words (searchWords), at least one. */
  words: string[];
  thread?: string;
  role?: ChatMessage['role'];
  /** ISO timestamp: only messages posted at or after it. */
  since?: string;
  /** Only messages stored up to this seq (a search's first page fixes it, so later pages rank the same messages). */
  upTo?: number;
}

/** Where the previous page ended, in page order (score, then created_at, then id, all descending). */
export interface ChatPosition {
  score: number;
  createdAt: string;
  id: string;
}

export interface ChatHit {
  message: ChatMessage;
  score: number;
}

/** A stored message as the index reads it. */
export interface IndexedMessage extends ChatMessage {
  seq: number;
  mind_id: string;
}

/**
 * The keyword index of chat messages on one database, one per dialect, chosen by the connection
 * (keyword-index-choice.ts, as memories choose theirs): keyword-index-sqlite.ts
 * (search/fts5-engine.ts) and keyword-index-postgres.ts (search/tsvector-engine.ts), both BM25 with
 * the mind's own statistics. Written beside the rows in the transaction that stores them (store.ts
 * insertMessages: POST /mind/chat and imports); deletes take the entries with them (triggers on
 * SQLite, the row itself on PostgreSQL). Here only what is chat's own: the rows and the filters.
 */
export interface ChatKeywordIndex {
  /** The index entries of messages just inserted. */
  added(conn: Conn, messages: IndexedMessage[]): Promise<void>;
  /** `limit` of the mind's messages holding any of the words, after `after`, best first. */
  rankedPage(conn: Conn, mindId: string, filter: ChatFilter, limit: number, after?: ChatPosition): Promise<ChatHit[]>;
}

export const MESSAGE_COLUMNS = ['id', 'role', 'content', 'thread', 'created_at'] as const;

export const toMessage = (row: ChatMessage): ChatMessage => ({
  id: row.id,
  role: row.role,
  content: row.content,
  thread: row.thread,
  created_at: row.created_at,
});

/** The filters (not the words) as SQL conditions on `alias` (chat_messages or chat_rank); their bindings appended to `params`. */
export function filterConditions(filter: ChatFilter, alias: string, params: Knex.RawBinding[]): string[] {
  const conditions: string[] = [];
  const add = (sql: string, value: Knex.RawBinding | undefined) => {
    if (value === undefined) return;
    conditions.push(`${alias}.${sql}`);
    params.push(value);
  };
  add('thread = ?', filter.thread);
  add('role = ?', filter.role);
  add('created_at >= ?', filter.since);
  add('seq <= ?', filter.upTo);
  return conditions;
}

/** The filters and the page position as search/ asks for them: conditions on the ranking row `r`. */
export function rankedQuery(mindId: string, groups: string[][], filter: ChatFilter, limit: number, after?: ChatPosition): RankedQuery {
  const conditionBindings: Knex.RawBinding[] = [];
  const conditions = filterConditions(filter, 'r', conditionBindings);
  const position = after && { score: after.score, at: after.createdAt, id: after.id };
  return { mindId, groups, conditions, conditionBindings, boost: '1', orderColumn: 'created_at', after: position, limit };
}
