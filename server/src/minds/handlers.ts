import type { contract } from '@mindservice/contract';
import type { Area } from '../area.js';
import type { AppContext } from '../context.js';
import { MindsService } from './service.js';

export function mindsArea(ctx: AppContext): Area<typeof contract.minds> {
  const minds = new MindsService(ctx);
  return {
    handlers: {
      createMind: async ({ body, caller }) => ({ status: 201, body: await minds.create(caller.userId, body) }),
      listMinds: async ({ caller }) => ({ status: 200, body: { minds: await minds.list(caller.userId) } }),
      deleteMind: async ({ params, caller }) => {
        await minds.delete(caller.userId, params.id);
        return { status: 204, body: undefined };
      },
    },
  };
}
