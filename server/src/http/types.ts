import type { ServerResponse } from 'node:http';
import type { AuthKind } from '@mindservice/contract';
import type { AppRoute, AppRouter, ServerInferRequest, ServerInferResponses } from '@ts-rest/core';
import type { CallerFor } from './caller.js';
import type { ApiRequest } from './request.js';

type AuthOf<R extends AppRoute> = R['metadata'] extends { auth: infer A extends AuthKind } ? A : never;

/** One route's handler: the validated request and the caller its metadata promises in, `{status, body}` out. */
export type RouteHandler<R extends AppRoute> = (
  args: ServerInferRequest<R> & { caller: CallerFor<AuthOf<R>>; req: ApiRequest; res: ServerResponse },
) => Promise<ServerInferResponses<R>>;

/** The handlers of one area of the contract, typed by it. */
export type RouterImpl<T extends AppRouter> = {
  [K in keyof T]: T[K] extends AppRoute ? RouteHandler<T[K]> : T[K] extends AppRouter ? RouterImpl<T[K]> : never;
};
