import { type AppRoute, type AppRouter, isAppRoute, isZodType } from '@ts-rest/core';
import { DEFAULT_BODY_LIMIT, type RouteMetadata } from './common.js';

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

/** Whether repeating a request can't duplicate anything: the route's `idempotent`, else true for all but POST and PATCH. */
export function isIdempotent(route: AppRoute): boolean {
  const declared = (route.metadata as RouteMetadata | undefined)?.idempotent;
  return declared ?? !(route.method === 'POST' || route.method === 'PATCH');
}

/** Whether a route changes anything (a `read` Mind Key is refused there): its `writes`, else true for every method but GET. */
export function isWrite(route: AppRoute): boolean {
  const declared = (route.metadata as RouteMetadata | undefined)?.writes;
  return declared ?? route.method !== 'GET';
}

/** The largest JSON body a route reads (bytes, after any Content-Encoding is undone); 0 for routes without a body. */
export function bodyLimitOf(route: AppRoute): number {
  if (!('body' in route) || !isZodType(route.body)) return 0;
  return (route.metadata as RouteMetadata | undefined)?.bodyLimit ?? DEFAULT_BODY_LIMIT;
}
