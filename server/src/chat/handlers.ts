import type { contract } from '@mindservice/contract';
import type { Area } from '../core/area.js';
import type { AppContext } from '../core/context.js';
import { requestGone } from '../http/request-gone.js';
import type { Meaning } from '../meaning/service.js';
import { chatKeywordIndexOf } from './keyword-index-choice.js';
import { ChatRanking } from './ranking-by-meaning.js';
import { ChatSearch } from './search.js';
import { ChatService } from './service.js';

export type ChatRoutes = typeof contract.chat;

/** A mind's chat: posted, read back by thread, and searched by words and by meaning (with meaning/'s embedder). */
export function chatArea(ctx: AppContext, meaning: Meaning): Area<ChatRoutes> {
  const chat = new ChatService(ctx);
  const search = new ChatSearch(ctx.db, chatKeywordIndexOf(ctx.db), new ChatRanking(meaning), ctx.config.pageMaxBytes);
  return {
    handlers: {
      postChatMessage: async ({ body, caller }) => ({ status: 201, body: await chat.post(caller.mindId, body) }),
      listChatMessages: async ({ query, caller }) => ({ status: 200, body: await chat.list(caller.mindId, query) }),
      deleteChatMessage: async ({ params, caller }) => {
        await chat.delete(caller.mindId, params.id);
        return { status: 204, body: undefined };
      },
      clearChatThread: async ({ query, caller }) => ({ status: 200, body: await chat.clear(caller.mindId, query.thread) }),
      searchChat: async ({ query, caller, res }) => ({ status: 200, body: await search.search(caller, query, requestGone(res)) }),
    },
  };
}
