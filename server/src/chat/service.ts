import type { ChatMessage } from '@mindservice/contract';
import type { AppContext } from '../core/context.js';
import { ApiError } from '../http/api-error.js';
import { cursorText, itemsWithinBytes } from '../http/cursor.js';
import { newId } from '../lib/secrets.js';
import { deleteMessage, deleteThread, findMessagePosition, insertMessages, listThread } from './store.js';

export const DEFAULT_THREAD = 'default';
const DEFAULT_LIMIT = 50;
/** Ids are UUIDs (36 characters; imported ones too): room to spare, no NUL. */
const MessageId = cursorText(64);

export class ChatService {
  constructor(private readonly ctx: AppContext) {}

  /** An agent's message is "sent" (to the human), a human's is "received" (by the agent). */
  async post(mindId: string, body: { role: ChatMessage['role']; content: string; thread?: string }): Promise<ChatMessage> {
    const message: ChatMessage = {
      id: newId(),
      role: body.role,
      content: body.content,
      thread: body.thread ?? DEFAULT_THREAD,
      created_at: this.ctx.clock.now().toISOString(),
    };
    await this.ctx.db.transaction(async (trx) => {
      await insertMessages(trx, mindId, [message]);
      await this.ctx.events.record(trx, mindId, message.role === 'agent' ? 'chat.message_sent' : 'chat.message_received', message);
    });
    return message;
  }

  /**
   * The newest messages before `before`, newest last, ending early at the page's byte bound: the
   * oldest are left out then (always one message kept), and `next_before` pages back to them.
   */
  async list(
    mindId: string,
    query: { thread?: string; limit?: number; before?: string },
  ): Promise<{ messages: ChatMessage[]; next_before: string | null }> {
    // A page's start, as the cursors of other lists are: checked before it reaches the database.
    if (query.before !== undefined && !MessageId.safeParse(query.before).success) {
      throw ApiError.invalidField('query.before', 'is not a message id (the id of a message of this thread)');
    }
    const before = query.before === undefined ? undefined : await findMessagePosition(this.ctx.db, mindId, query.before);
    if (query.before !== undefined && !before) throw ApiError.notFound('Message given as `before`');
    const page = await listThread(this.ctx.db, mindId, query.thread ?? DEFAULT_THREAD, query.limit ?? DEFAULT_LIMIT, before);
    const newestFirst = page.messages.toReversed();
    const fit = itemsWithinBytes(newestFirst, this.ctx.config.pageMaxBytes);
    const messages = fit < newestFirst.length ? page.messages.slice(page.messages.length - fit) : page.messages;
    const oldest = messages[0];
    return { messages, next_before: (page.older || fit < newestFirst.length) && oldest ? oldest.id : null };
  }

  /** Deletes one message; another mind's is as absent as a missing one. */
  async delete(mindId: string, id: string): Promise<void> {
    if (!MessageId.safeParse(id).success || !(await deleteMessage(this.ctx.db, mindId, id))) throw ApiError.notFound('Message');
  }

  /** Empties a thread in one transaction: a session cleared is cleared whole. */
  async clear(mindId: string, thread: string): Promise<{ deleted: number }> {
    return { deleted: await this.ctx.db.transaction((trx) => deleteThread(trx, mindId, thread)) };
  }
}
