import type { contract } from '@mindservice/contract';
import type { RouterImpl } from '../http/router.js';
import type { AppContext } from '../context.js';
import { userCaller } from '../http/caller.js';
import { MindsService } from './service.js';

export function mindsHandlers(ctx: AppContext): RouterImpl<typeof contract.minds> {
  const minds = new MindsService(ctx);
  return {
    createMind: async ({ body, req }) => ({ status: 201, body: await minds.create(userCaller(req).userId, body) }),
    listMinds: async ({ req }) => ({ status: 200, body: { minds: await minds.list(userCaller(req).userId) } }),
    deleteMind: async ({ params, req }) => {
      await minds.delete(userCaller(req).userId, params.id);
      return { status: 204, body: undefined };
    },
  };
}
