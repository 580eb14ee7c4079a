import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AuthKind } from '@mindservice/contract';
import type { AppRoute, AppRouter, ServerInferRequest, ServerInferResponses } from '@ts-rest/core';
import type { CallerFor } from './caller.js';

/** A request as the pipeline hands it to a handler. */
export type ApiRequest = IncomingMessage & {
  requestId?: string;
  /** The client's address under the trust-proxy setting. */
  ip: string;
  query: Record<string, string | string[] | undefined>;
};

type AuthOf<R extends AppRoute> = R['metadata'] extends { auth: infer A extends AuthKind } ? A : never;

/** One route's handler: the validated request and the caller its metadata promises in, `{status, body}` out. */
export type RouteHandler<R extends AppRoute> = (
  args: ServerInferRequest<R> & { caller: CallerFor<AuthOf<R>>; req: ApiRequest; res: ServerResponse },
) => Promise<ServerInferResponses<R>>;

/** The handlers of one area of the contract, typed by it. */
export type RouterImpl<T extends AppRouter> = {
  [K in keyof T]: T[K] extends AppRoute ? RouteHandler<T[K]> : T[K] extends AppRouter ? RouterImpl<T[K]> : never;
};
