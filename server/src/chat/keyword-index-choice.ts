import { type Conn, type DialectName, dialectOf } from '../db/database.js';
import type { ChatKeywordIndex, IndexedMessage } from './keyword-index.js';
import { postgresChatIndex } from './keyword-index-postgres.js';
import { sqliteChatIndex } from './keyword-index-sqlite.js';

const INDEXES: Record<DialectName, ChatKeywordIndex> = { sqlite: sqliteChatIndex, postgres: postgresChatIndex };

/** The chat keyword index of the database `conn` talks to (keyword-index.ts), as memories choose theirs. */
export const chatKeywordIndexOf = (conn: Conn): ChatKeywordIndex => INDEXES[dialectOf(conn).name];

/** Index entries for messages just inserted (with their seq), in the caller's transaction. */
export const indexChatMessages = async (conn: Conn, messages: IndexedMessage[]): Promise<void> => {
  if (messages.length > 0) await chatKeywordIndexOf(conn).added(conn, messages);
};
