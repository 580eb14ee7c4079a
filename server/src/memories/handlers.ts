import type { contract } from '@mindservice/contract';
import type { AppContext } from '../context.js';
import { mindCaller, userOrMindCaller } from '../http/caller.js';
import type { RouterImpl } from '../http/router.js';
import { TasksService } from '../tasks/service.js';
import { TransferService } from '../transfer/service.js';
import { ChatService } from './chat-service.js';
import { ContentCipher } from './crypto.js';
import { MemoriesService } from './service.js';
import { ScriptsService } from './scripts-service.js';
import { MemoriesStore } from './store.js';

/** Memories, chat, scripts and the mind export/import: everything a mind holds for its agent. */
export function memoriesHandlers(ctx: AppContext): RouterImpl<typeof contract.memories> {
  const store = new MemoriesStore(ContentCipher.fromConfig(ctx.config));
  const memories = new MemoriesService(ctx, store);
  const chat = new ChatService(ctx);
  const scripts = new ScriptsService(ctx);
  const transfer = new TransferService(ctx, { memories, tasks: new TasksService(ctx), chat, scripts });

  const mindOf = (req: Parameters<typeof mindCaller>[0]) => mindCaller(req).mindId;
  const actor = (req: Parameters<typeof userOrMindCaller>[0]) => {
    const caller = userOrMindCaller(req);
    return caller.kind === 'mind' ? { kind: 'mind' as const, mindId: caller.mindId } : { kind: 'user' as const, userId: caller.userId };
  };

  return {
    storeMemory: async ({ body, req }) => {
      const { created, memory } = await memories.save(mindOf(req), body);
      return created ? { status: 201, body: memory } : { status: 200, body: memory };
    },
    recallMemories: async ({ query, req }) => ({ status: 200, body: await memories.recall(mindOf(req), query) }),
    memoryStats: async ({ req }) => ({ status: 200, body: await memories.stats(mindOf(req)) }),
    exportMind: async ({ query, req }) => ({ status: 200, body: await transfer.export(actor(req), query) }),
    importMind: async ({ query, body, req }) => ({
      status: 200,
      body: await transfer.import(mindOf(req), body, query.mode ?? 'merge', query.dry_run ?? false),
    }),
    getMemory: async ({ params, req }) => ({ status: 200, body: await memories.get(mindOf(req), params.id) }),
    updateMemory: async ({ params, body, req }) => ({ status: 200, body: await memories.update(mindOf(req), params.id, body) }),
    deleteMemory: async ({ params, req }) => {
      await memories.delete(mindOf(req), params.id);
      return { status: 204, body: undefined };
    },
    verifyMemory: async ({ params, req }) => ({ status: 200, body: await memories.setVerified(actor(req), params.id, true) }),
    unverifyMemory: async ({ params, req }) => ({ status: 200, body: await memories.setVerified(actor(req), params.id, false) }),

    postChatMessage: async ({ body, req }) => ({ status: 201, body: await chat.post(mindOf(req), body) }),
    listChatMessages: async ({ query, req }) => ({ status: 200, body: { messages: await chat.list(mindOf(req), query) } }),

    listScripts: async ({ req }) => ({ status: 200, body: { scripts: await scripts.list(mindOf(req)) } }),
    createScript: async ({ body, req }) => ({ status: 201, body: await scripts.create(mindOf(req), body) }),
    getScript: async ({ params, req }) => ({ status: 200, body: await scripts.get(mindOf(req), params.id) }),
    updateScript: async ({ params, body, req }) => ({ status: 200, body: await scripts.update(mindOf(req), params.id, body) }),
    deleteScript: async ({ params, req }) => {
      await scripts.delete(mindOf(req), params.id);
      return { status: 204, body: undefined };
    },
  };
}
