import { isAppRoute, type AppRoute, type AppRouter } from '@ts-rest/core';
import type { RouteMetadata } from './common.js';

export interface ContractRoute {
  /** `area.name`, e.g. `tasks.createTask`; also the OpenAPI operationId's source. */
  key: string;
  name: string;
  route: AppRoute;
  metadata: RouteMetadata;
}

/** Every route of a contract in declaration order (the order the server registers them). */
export function listRoutes(router: AppRouter, prefix = ''): ContractRoute[] {
  const out: ContractRoute[] = [];
  for (const [name, value] of Object.entries(router)) {
    const key = prefix ? `${prefix}.${name}` : name;
    if (isAppRoute(value)) out.push({ key, name, route: value, metadata: value.metadata as RouteMetadata });
    else out.push(...listRoutes(value, key));
  }
  return out;
}
