import type { contract } from '@mindservice/contract';
import type { Area } from '../core/area.js';
import type { AppContext } from '../core/context.js';
import type { MemoriesStore } from '../memories/store.js';
import { TransferService } from './service.js';

/** The mind export and import (the contract keeps them under `memories`: app.ts joins the handlers there). */
export type TransferRoutes = Pick<typeof contract.memories, 'exportMind' | 'importMind'>;

/** `memories`: the memories area's store (it holds the cipher of credentials). */
export function transferArea(ctx: AppContext, memories: MemoriesStore): Area<TransferRoutes> {
  const transfer = new TransferService(ctx, memories);
  return {
    handlers: {
      exportMind: async ({ query, caller }) => ({ status: 200, body: await transfer.export(caller, query) }),
      importMind: async ({ query, body, caller }) => ({
        status: 200,
        // The body is as sent: the import checks it in pieces (bodyCheckedByHandler).
        body: await transfer.import(caller, body as unknown, query.mode ?? 'merge', query.dry_run ?? false),
      }),
    },
  };
}
