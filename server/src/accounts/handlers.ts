import type { contract } from '@mindservice/contract';
import type { Area } from '../core/area.js';
import type { AppContext } from '../core/context.js';
import { AccountsService } from './service.js';

export function accountsArea(ctx: AppContext): Area<typeof contract.accounts> {
  const accounts = new AccountsService(ctx);
  return {
    handlers: {
      register: async ({ body }) => ({ status: 201, body: await accounts.register(body) }),
      login: async ({ body, req }) => ({ status: 200, body: await accounts.login(body, req.ip) }),
    },
  };
}
