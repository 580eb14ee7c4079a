import { isAppRoute, type AppRouter } from '@ts-rest/core';
import type { RouterImpl } from './router.js';
import { ApiError } from './errors.js';

/** Handlers for an area whose server side is not built yet: every route answers 501 with the error object. */
export function notImplemented<T extends AppRouter>(router: T): RouterImpl<T> {
  const out: Record<string, unknown> = {};
  for (const [name, route] of Object.entries(router)) {
    out[name] = isAppRoute(route)
      ? async () => {
          throw new ApiError(501, `${route.method} ${route.path} is not implemented yet in this version of the server`);
        }
      : notImplemented(route);
  }
  return out as RouterImpl<T>;
}
