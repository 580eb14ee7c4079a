import type { contract } from '@mindservice/contract';
import type { Area } from '../core/area.js';
import type { AppContext } from '../core/context.js';
import { ConsoleKeyPurger } from './keys-purge.js';
import { MindKeysService } from './keys-service.js';
import { MindPurger } from './purge.js';
import { MindsService } from './service.js';

export type MindsArea = Area<typeof contract.minds> & { purger: MindPurger };

export function mindsArea(ctx: AppContext): MindsArea {
  const purger = new MindPurger(ctx);
  const minds = new MindsService(ctx, () => purger.wake());
  const keys = new MindKeysService(ctx);
  const consoleKeys = new ConsoleKeyPurger(ctx);
  return {
    purger,
    start: () => {
      purger.wake(); // minds deleted before a restart
      consoleKeys.start();
    },
    stop: async () => {
      await Promise.all([purger.stop(), consoleKeys.stop()]);
    },
    handlers: {
      createMind: async ({ body, caller }) => ({ status: 201, body: await minds.create(caller.userId, body) }),
      listMinds: async ({ query, caller }) => ({ status: 200, body: await minds.list(caller.userId, query) }),
      deleteMind: async ({ params, caller }) => {
        await minds.delete(caller.userId, params.id);
        return { status: 204, body: undefined };
      },
      createMindKey: async ({ params, body, caller }) => ({ status: 201, body: await keys.create(caller.userId, params.id, body) }),
      listMindKeys: async ({ params, caller }) => ({ status: 200, body: { keys: await keys.list(caller.userId, params.id) } }),
      revokeMindKey: async ({ params, caller }) => {
        await keys.revoke(caller.userId, params.id, params.key_id);
        return { status: 204, body: undefined };
      },
    },
  };
}
