// The ts-rest client of the contract, with the SDK's transport as its fetcher: paths, parameters, bodies and
// response types all come from the contract.
import { contract, isIdempotent, type RouteMetadata } from '../contract.js';
import { type ApiFetcherArgs, initClient } from '@ts-rest/core';
import type { RequestOptions } from './options.js';
import type { Transport } from './transport.js';

/** Extra arguments every call of the ts-rest client accepts. */
export interface CallArgs {
  requestOptions?: RequestOptions | undefined;
  /** A floor for the timeout (long polls). */
  minTimeoutMs?: number | undefined;
}

export function createApi(transport: Transport) {
  return initClient(contract, {
    baseUrl: transport.baseUrl,
    validateResponse: false,
    throwOnUnknownStatus: false,
    api: async (args: ApiFetcherArgs & CallArgs) => {
      const route = args.route;
      const metadata = route.metadata as RouteMetadata;
      // ts-rest has filled the path parameters in; the query is rebuilt from rawQuery in the service's form.
      const path = args.path.slice(transport.baseUrl.length).split('?')[0];
      return transport.request({
        method: route.method,
        path,
        query: args.rawQuery,
        body: args.rawBody ?? undefined,
        auth: metadata.auth,
        preferJwt: metadata.preferJwt ?? false,
        idempotent: isIdempotent(route),
        responseType: metadata.produces ? 'bytes' : 'json',
        minTimeoutMs: args.minTimeoutMs,
        options: args.requestOptions,
      });
    },
  });
}
export type Api = ReturnType<typeof createApi>;

type SuccessStatus = 200 | 201 | 202 | 204;
export type Success<R> = R extends { status: SuccessStatus; body: infer B } ? B : never;

/** The body of a call's answer. The fetcher throws for anything but a 2xx, so only success bodies arrive. */
export async function ok<R extends { status: number; body: unknown }>(call: Promise<R>): Promise<Success<R>> {
  return (await call).body as Success<R>;
}

/** A path parameter, encoded; an empty one would silently address another route. */
export function param(name: string, value: string): string {
  if (typeof value !== 'string' || value.length === 0) throw new TypeError(`${name} must be a non-empty string`);
  return encodeURIComponent(value);
}
