import { API_VERSION } from '@mindservice/contract/openapi';
import { contract, listRoutes } from '@mindservice/contract';
import type { Area } from '../core/area.js';
import type { AppContext } from '../core/context.js';
import type { Meaning } from '../meaning/service.js';

const ENDPOINTS = listRoutes(contract).map(({ route, metadata }) => ({
  method: route.method,
  path: route.path,
  auth: metadata.auth,
  summary: route.summary ?? '',
}));

export function systemArea(ctx: AppContext, meaning: Meaning): Area<typeof contract.system> {
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
        const uptime = Math.floor((Date.now() - ctx.startedAt) / 1000);
        const body = { status, version: API_VERSION, uptime_s: uptime, database, embeddings: meaning.status() } as const;
        return status === 'ok' ? { status: 200, body } : { status: 503, body };
      },
      listEndpoints: async () => ({ status: 200, body: { endpoints: ENDPOINTS } }),
    },
  };
}
