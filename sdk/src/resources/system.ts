import { ok } from '../core/api.js';
import type { RequestOptions } from '../core/options.js';
import { type PagePromise, paginate, singlePage } from '../core/pagination.js';
import type { EndpointInfo, Health } from '../types.js';
import { Resource } from './resource.js';

/** Health and the list of routes; no credential needed. */
export class System extends Resource {
  /** `{status: "ok", ...}`; a service that is starting or draining answers 503 (UnavailableError). */
  async health(options?: RequestOptions): Promise<Health> {
    return ok(this.api.system.health({ requestOptions: options }));
  }

  /** Every route of the service, as a single page. */
  endpoints(options?: RequestOptions): PagePromise<EndpointInfo> {
    return paginate(async () => singlePage((await ok(this.api.system.listEndpoints({ requestOptions: options }))).endpoints));
  }
}
