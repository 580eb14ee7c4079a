import type { AppRouter } from '@ts-rest/core';
import type { RouterImpl } from '../http/types.js';

/** One area of the service as app.ts composes it: its handlers and the life of its background work. */
export interface Area<T extends AppRouter> {
  handlers: RouterImpl<T>;
  /** Starts background work once the database is migrated; awaited before the service reports ready. */
  start?(): Promise<void> | void;
  /** A graceful shutdown began: end what waits (long-polls) so clients go elsewhere. */
  drain?(): Promise<void> | void;
  /** Stops background work; areas stop in reverse order, all before the database closes. */
  stop?(): Promise<void> | void;
}
