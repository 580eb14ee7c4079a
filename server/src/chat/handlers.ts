import type { contract } from '@mindservice/contract';
import type { Area } from '../core/area.js';
import type { AppContext } from '../core/context.js';
import { ChatService } from './service.js';

/** The chat routes (the contract keeps them under `memories`: app.ts joins the handlers there). */
export type ChatRoutes = Pick<typeof contract.memories, 'postChatMessage' | 'listChatMessages'>;

export function chatArea(ctx: AppContext): Area<ChatRoutes> {
  const chat = new ChatService(ctx);
  return {
    handlers: {
      postChatMessage: async ({ body, caller }) => ({ status: 201, body: await chat.post(caller.mindId, body) }),
      listChatMessages: async ({ query, caller }) => ({ status: 200, body: { messages: await chat.list(caller.mindId, query) } }),
    },
  };
}
