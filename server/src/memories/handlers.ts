import type { contract } from '@mindservice/contract';
import type { Area } from '../core/area.js';
import type { AppContext } from '../core/context.js';
import type { Meaning } from '../meaning/service.js';
import { ExpiredMemoryPurger } from './expiry.js';
import { MemoriesService } from './service.js';
import type { MemoriesStore } from './store.js';
import { memoryEtag } from './version.js';

/**
 * The memory routes but recall (recall/), which asks this area's store and meaning/ together (the
 * contract's `memories` holds chat, scripts and the transfer too: app.ts joins the handlers there).
 */
export type MemoriesRoutes = Pick<
  typeof contract.memories,
  'storeMemory' | 'memoryStats' | 'getMemory' | 'memoryHistory' | 'updateMemory' | 'deleteMemory' | 'verifyMemory' | 'unverifyMemory'
>;

/** A mind's memories, stored and kept in their keyword index; `meaning` embeds them. */
export function memoriesArea(ctx: AppContext, store: MemoriesStore, meaning: Meaning): Area<MemoriesRoutes> {
  const memories = new MemoriesService(ctx, store, meaning);
  const expiry = new ExpiredMemoryPurger(ctx);
  return {
    start: () => expiry.start(),
    stop: () => expiry.stop(),
    handlers: {
      storeMemory: async ({ body, caller, headers, res }) => {
        const { created, memory } = await memories.save(caller.mindId, body, headers['if-none-match'] === '*');
        res.setHeader('ETag', memoryEtag(memory));
        return created ? { status: 201, body: memory } : { status: 200, body: memory };
      },
      memoryStats: async ({ caller }) => ({ status: 200, body: await memories.stats(caller.mindId) }),
      getMemory: async ({ params, caller, res }) => {
        const memory = await memories.get(caller.mindId, params.id);
        res.setHeader('ETag', memoryEtag(memory));
        return { status: 200, body: memory };
      },
      memoryHistory: async ({ params, query, caller }) => ({ status: 200, body: await memories.history(caller.mindId, params.id, query) }),
      updateMemory: async ({ params, body, caller, headers, res }) => {
        const memory = await memories.update(caller.mindId, params.id, body, headers['if-match']);
        res.setHeader('ETag', memoryEtag(memory));
        return { status: 200, body: memory };
      },
      deleteMemory: async ({ params, caller }) => {
        await memories.delete(caller.mindId, params.id);
        return { status: 204, body: undefined };
      },
      verifyMemory: async ({ params, caller }) => ({ status: 200, body: await memories.setVerified(caller, params.id, true) }),
      unverifyMemory: async ({ params, caller }) => ({ status: 200, body: await memories.setVerified(caller, params.id, false) }),
    },
  };
}
