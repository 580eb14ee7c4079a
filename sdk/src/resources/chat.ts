import { ok, param } from '../core/api.js';
import type { RequestOptions } from '../core/options.js';
import { type PagePromise, paginate, pagesByCursor } from '../core/pagination.js';
import type { ChatMessage, ChatSearchHit, ListChatParams, PostChatParams, SearchChatParams } from '../types.js';
import { Resource } from './resource.js';

/** The service's page size for chat history; the SDK sends it, to know a full page when it sees one. */
const DEFAULT_CHAT_PAGE = 50;

/** Chat of the client's mind (Mind Key): sent, read back by thread, searched. */
export class Chat extends Resource {
  /** Adds a message (`role`: `human` or `agent`) to a thread (`default` unless given). */
  async send(params: PostChatParams, options?: RequestOptions): Promise<ChatMessage> {
    return ok(this.api.chat.postChatMessage({ body: params, requestOptions: options }));
  }

  /**
   * Messages of a thread (`default` unless given), `limit` (default 50) a page. The first page holds the
   * newest messages (or those older than `before`), each page the ones before it; within a page the
   * oldest comes first. `for await (const m of client.chat.list())` walks back through the whole thread.
   */
  list(params: ListChatParams = {}, options?: RequestOptions): PagePromise<ChatMessage> {
    const limit = params.limit ?? DEFAULT_CHAT_PAGE;
    return paginate(async (next) => {
      const before = next && 'before' in next ? next.before : params.before;
      const query = { ...params, limit, before };
      const { messages } = await ok(this.api.chat.listChatMessages({ query, requestOptions: options }));
      // A full page may have older messages before it; a shorter one is the start of the thread.
      const oldest = messages[0];
      return { data: messages, next: oldest && messages.length >= limit ? { before: oldest.id } : null };
    });
  }

  /** Deletes one message (404 when the mind has none with this id). */
  async delete(messageId: string, options?: RequestOptions): Promise<void> {
    await ok(this.api.chat.deleteChatMessage({ params: { id: param('messageId', messageId) }, requestOptions: options }));
  }

  /** Deletes every message of the thread; resolves with how many. */
  async clearThread(thread: string, options?: RequestOptions): Promise<{ deleted: number }> {
    return ok(this.api.chat.clearChatThread({ query: { thread }, requestOptions: options }));
  }

  /**
   * Searches the mind's messages (every thread unless `thread` is given) by words and meaning, `limit`
   * (default 20) hits a page. `await` it for the first page; `for await (const hit of client.chat.search({ q }))`
   * walks every hit of every page.
   */
  search(params: SearchChatParams, options?: RequestOptions): PagePromise<ChatSearchHit> {
    return pagesByCursor(params.cursor, async (cursor) => {
      const body = await ok(this.api.chat.searchChat({ query: { ...params, cursor }, requestOptions: options }));
      return [body.messages, body.next_cursor];
    });
  }
}
