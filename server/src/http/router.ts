import type { AppRoute, AppRouter } from '@ts-rest/core';
import type { AppRouteImplementation } from '@ts-rest/express';

/** The handlers of one area of the contract, typed by it. */
export type RouterImpl<T extends AppRouter> = {
  [K in keyof T]: T[K] extends AppRoute ? AppRouteImplementation<T[K]> : T[K] extends AppRouter ? RouterImpl<T[K]> : never;
};
