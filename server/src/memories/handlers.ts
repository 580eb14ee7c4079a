import type { contract } from '@mindservice/contract';
import type { AppContext } from '../context.js';
import type { Area } from '../area.js';
import type { MindCaller, UserCaller } from '../http/caller.js';
import { requestGone } from '../http/request-gone.js';
import { TasksService } from '../tasks/service.js';
import { TransferService } from '../transfer/service.js';
import { ChatService } from '../chat/service.js';
import type { RecallByMeaning } from './recall-by-meaning.js';
import { MemoriesService } from './service.js';
import { ScriptsService } from '../scripts/service.js';
import type { MemoriesStore } from './store.js';

/** Memories, chat, scripts and the mind export/import: everything a mind holds for its agent. */
export function memoriesArea(ctx: AppContext, store: MemoriesStore, meaning: RecallByMeaning): Area<typeof contract.memories> {
  const memories = new MemoriesService(ctx, store, meaning);
  const chat = new ChatService(ctx);
  const scripts = new ScriptsService(ctx);
  const transfer = new TransferService(ctx, { memories, tasks: new TasksService(ctx), chat, scripts });

  const actor = (caller: MindCaller | UserCaller) =>
    caller.kind === 'mind' ? { kind: 'mind' as const, mindId: caller.mindId } : { kind: 'user' as const, userId: caller.userId };

  return {
    handlers: {
      storeMemory: async ({ body, caller }) => {
        const { created, memory } = await memories.save(caller.mindId, body);
        return created ? { status: 201, body: memory } : { status: 200, body: memory };
      },
      recallMemories: async ({ query, caller, res }) => ({
        status: 200,
        body: await memories.recall(caller.mindId, query, requestGone(res)),
      }),
      memoryStats: async ({ caller }) => ({ status: 200, body: await memories.stats(caller.mindId) }),
      exportMind: async ({ query, caller }) => ({ status: 200, body: await transfer.export(actor(caller), query) }),
      importMind: async ({ query, body, caller }) => ({
        status: 200,
        // The body is as sent: the import checks it in pieces (bodyCheckedByHandler).
        body: await transfer.import(caller, body as unknown, query.mode ?? 'merge', query.dry_run ?? false),
      }),
      getMemory: async ({ params, caller }) => ({ status: 200, body: await memories.get(caller.mindId, params.id) }),
      updateMemory: async ({ params, body, caller }) => ({ status: 200, body: await memories.update(caller.mindId, params.id, body) }),
      deleteMemory: async ({ params, caller }) => {
        await memories.delete(caller.mindId, params.id);
        return { status: 204, body: undefined };
      },
      verifyMemory: async ({ params, caller }) => ({ status: 200, body: await memories.setVerified(actor(caller), params.id, true) }),
      unverifyMemory: async ({ params, caller }) => ({ status: 200, body: await memories.setVerified(actor(caller), params.id, false) }),

      postChatMessage: async ({ body, caller }) => ({ status: 201, body: await chat.post(caller.mindId, body) }),
      listChatMessages: async ({ query, caller }) => ({ status: 200, body: { messages: await chat.list(caller.mindId, query) } }),

      listScripts: async ({ query, caller }) => ({ status: 200, body: await scripts.list(caller.mindId, query) }),
      createScript: async ({ body, caller }) => ({ status: 201, body: await scripts.create(caller.mindId, body) }),
      getScript: async ({ params, caller }) => ({ status: 200, body: await scripts.get(caller.mindId, params.id) }),
      updateScript: async ({ params, body, caller }) => ({ status: 200, body: await scripts.update(caller.mindId, params.id, body) }),
      deleteScript: async ({ params, caller }) => {
        await scripts.delete(caller.mindId, params.id);
        return { status: 204, body: undefined };
      },
    },
  };
}
