import type { ChatMessage } from '@mindservice/contract';
import type { Knex } from 'knex';
import type { Conn } from '../db/database.js';
import { type ChatFilter, filterConditions, type IndexedMessage } from './keyword-index.js';
import { indexChatMessages } from './keyword-index-choice.js';

interface ChatRow {
  seq: number;
  id: string;
  mind_id: string;
  thread: string;
  role: ChatMessage['role'];
  content: string;
  created_at: string;
}

const COLUMNS = ['seq', 'id', 'role', 'content', 'thread', 'created_at'] as const;
type ReadRow = Pick<ChatRow, (typeof COLUMNS)[number]>;

const toMessage = (row: ReadRow): ChatMessage => ({
  id: row.id,
  role: row.role,
  content: row.content,
  thread: row.thread,
  created_at: row.created_at,
});

/** A message's place in its thread: creation time, then insertion order within a millisecond. */
export interface ChatPosition {
  createdAt: string;
  seq: number;
}

/** Inserts the messages and their keyword index entries (keyword-index.ts), in the caller's transaction. */
export async function insertMessages(conn: Conn, mindId: string, messages: ChatMessage[]): Promise<void> {
  for (let i = 0; i < messages.length; i += 300) {
    const chunk = messages.slice(i, i + 300);
    await conn('chat_messages').insert(chunk.map((m) => ({ ...m, mind_id: mindId })));
    const seqs = (await conn('chat_messages')
      .whereIn(
        'id',
        chunk.map((m) => m.id),
      )
      .select('id', 'seq')) as Array<{ id: string; seq: number }>;
    const seqOf = new Map(seqs.map((r) => [r.id, Number(r.seq)]));
    await indexChatMessages(
      conn,
      chunk.map((m): IndexedMessage => ({ ...m, seq: seqOf.get(m.id)!, mind_id: mindId })),
    );
  }
}

/** The mind's last stored message (insertion order): where a search's first page fixes what it ranks. */
export async function lastStored(conn: Conn, mindId: string): Promise<{ id: string; seq: number } | undefined> {
  const row = await conn<ChatRow>('chat_messages').where({ mind_id: mindId }).orderBy('seq', 'desc').first('id', 'seq');
  return row && { id: row.id, seq: Number(row.seq) };
}

/** A message's seq, by its id in the mind. */
export async function seqOf(conn: Conn, mindId: string, id: string): Promise<number | undefined> {
  const row = await conn<ChatRow>('chat_messages').where({ mind_id: mindId, id }).first('seq');
  return row && Number(row.seq);
}

/** The last stored `limit` messages of the mind passing the filters (not the words), last first. */
export async function newestMessages(conn: Conn, mindId: string, filter: ChatFilter, limit: number): Promise<ChatMessage[]> {
  const params: Knex.RawBinding[] = [];
  const conditions = filterConditions(filter, 'c', params);
  const query = conn<ChatRow>('chat_messages as c').where('c.mind_id', mindId);
  if (conditions.length > 0) query.whereRaw(conditions.join(' AND '), params);
  const rows = await query
    .orderBy('c.seq', 'desc')
    .limit(limit)
    .select(...COLUMNS.map((c) => `c.${c}`));
  return rows.map(toMessage);
}

export async function findMessagePosition(conn: Conn, mindId: string, id: string): Promise<ChatPosition | undefined> {
  const row = await conn<ChatRow>('chat_messages').where({ mind_id: mindId, id }).first('created_at', 'seq');
  return row && { createdAt: row.created_at, seq: row.seq };
}

/** The newest `limit` messages of a thread (older than `before` when given), returned oldest first. */
/** The newest `limit` messages of a thread before `before`, oldest first; `limit + 1` are read to learn whether older ones exist. */
export async function listThread(
  conn: Conn,
  mindId: string,
  thread: string,
  limit: number,
  before?: ChatPosition,
): Promise<{ messages: ChatMessage[]; older: boolean }> {
  const query = conn<ChatRow>('chat_messages').where({ mind_id: mindId, thread });
  if (before) {
    query.where((w: Knex.QueryBuilder) =>
      w
        .where('created_at', '<', before.createdAt)
        .orWhere((x) => x.where('created_at', '=', before.createdAt).andWhere('seq', '<', before.seq)),
    );
  }
  const rows = await query
    .orderBy([
      { column: 'created_at', order: 'desc' },
      { column: 'seq', order: 'desc' },
    ])
    .limit(limit + 1)
    .select(...COLUMNS);
  return { messages: rows.slice(0, limit).reverse().map(toMessage), older: rows.length > limit };
}

/** Every message of the mind, all threads, in order (export). */
export async function listAllMessages(conn: Conn, mindId: string): Promise<ChatMessage[]> {
  const rows = await conn<ChatRow>('chat_messages')
    .where({ mind_id: mindId })
    .orderBy([{ column: 'created_at' }, { column: 'seq' }])
    .select(...COLUMNS);
  return rows.map(toMessage);
}

/** Deletes one message of the mind (triggers take it out of the keyword index); false when the mind has none with this id. */
export async function deleteMessage(conn: Conn, mindId: string, id: string): Promise<boolean> {
  return (await conn('chat_messages').where({ mind_id: mindId, id }).delete()) > 0;
}

/** Deletes every message of a thread of the mind; answers how many. */
export async function deleteThread(conn: Conn, mindId: string, thread: string): Promise<number> {
  return conn('chat_messages').where({ mind_id: mindId, thread }).delete();
}
