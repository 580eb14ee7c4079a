import type { contract } from '@mindservice/contract';
import type { Area } from '../core/area.js';
import type { AppContext } from '../core/context.js';
import { requestGone } from '../http/request-gone.js';
import type { MemoriesStore } from '../memories/store.js';
import type { Meaning } from '../meaning/service.js';
import { RecallService } from './service.js';

/** GET /memory/recall (the contract keeps it under `memories`: app.ts joins the handlers there). */
export type RecallRoutes = Pick<typeof contract.memories, 'recallMemories'>;

/** Recall: memories by their words (memories' keyword index) and by their meaning (meaning/), fused here. */
export function recallArea(ctx: AppContext, memories: MemoriesStore, meaning: Meaning): Area<RecallRoutes> {
  const recall = new RecallService(ctx, memories, meaning);
  return {
    handlers: {
      recallMemories: async ({ query, caller, res }) => ({ status: 200, body: await recall.recall(caller, query, requestGone(res)) }),
    },
  };
}
