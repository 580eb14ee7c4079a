import { API_VERSION } from '@mindservice/contract/openapi';
import { contract, listRoutes } from '@mindservice/contract';
import type { Area } from '../area.js';
import type { AppContext } from '../context.js';

const ENDPOINTS = listRoutes(contract).map(({ route, metadata }) => ({
  method: route.method,
  path: route.path,
  auth: metadata.auth,
  summary: route.summary ?? '',
}));

export function systemArea(ctx: AppContext): Area<typeof contract.system> {
  return {
    handlers: {
      health: async () => {
        let database: 'ok' | 'unreachable' = 'ok';
        try {
          await ctx.db.raw('select 1');
        } catch {
          database = 'unreachable';
        }
        const status = ctx.state !== 'ready' ? ctx.state : database === 'ok' ? 'ok' : 'unavailable';
        const body = { status, version: API_VERSION, uptime_s: Math.floor((Date.now() - ctx.startedAt) / 1000), database } as const;
        return status === 'ok' ? { status: 200, body } : { status: 503, body };
      },
      listEndpoints: async () => ({ status: 200, body: { endpoints: ENDPOINTS } }),
    },
  };
}
