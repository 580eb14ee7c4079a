import type { contract } from '@mindservice/contract';
import type { Area } from '../core/area.js';
import type { AppContext } from '../core/context.js';
import { requestGone } from '../http/request-gone.js';
import type { ChatByMeaning } from './meaning.js';
import { ChatSearch } from './search.js';
import { chatIndexOf } from './search-index.js';
import { ChatService } from './service.js';

/** The chat routes (the contract keeps them under `memories`: app.ts joins the handlers there). */
export type ChatRoutes = Pick<typeof contract.memories, 'postChatMessage' | 'listChatMessages' | 'searchChat'>;

/** A mind's chat: posted, read back by thread, and searched by words here and by meaning through `meaning` (meaning/). */
export function chatArea(ctx: AppContext, meaning: ChatByMeaning): Area<ChatRoutes> {
  const chat = new ChatService(ctx);
  const search = new ChatSearch(ctx.db, chatIndexOf(ctx.db), meaning, ctx.config.pageMaxBytes);
  return {
    handlers: {
      postChatMessage: async ({ body, caller }) => ({ status: 201, body: await chat.post(caller.mindId, body) }),
      listChatMessages: async ({ query, caller }) => ({ status: 200, body: await chat.list(caller.mindId, query) }),
      searchChat: async ({ query, caller, res }) => ({ status: 200, body: await search.search(caller, query, requestGone(res)) }),
    },
  };
}
