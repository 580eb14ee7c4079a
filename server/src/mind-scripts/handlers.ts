import type { contract } from '@mindservice/contract';
import type { Area } from '../core/area.js';
import type { AppContext } from '../core/context.js';
import { ScriptsService } from './service.js';

export type ScriptsRoutes = typeof contract.scripts;

export function scriptsArea(ctx: AppContext): Area<ScriptsRoutes> {
  const scripts = new ScriptsService(ctx);
  return {
    handlers: {
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
