import { ok, param } from '../core/api.js';
import type { RequestOptions } from '../core/options.js';
import { type PagePromise, paginate, singlePage } from '../core/pagination.js';
import type { CreatedMind, CreateMindParams, MindSummary } from '../types.js';
import { Resource } from './resource.js';

/** Minds of the account (JWT). */
export class Minds extends Resource {
  /** Creates a mind; its `mind_key` is in this answer only. */
  async create(params: CreateMindParams, options?: RequestOptions): Promise<CreatedMind> {
    return ok(this.api.minds.createMind({ body: params, requestOptions: options }));
  }

  /** Every mind of the account, as a single page (the service does not page them). */
  list(options?: RequestOptions): PagePromise<MindSummary> {
    return paginate(async () => singlePage((await ok(this.api.minds.listMinds({ requestOptions: options }))).minds));
  }

  /** Deletes the mind and everything it holds. Irreversible. The service answers 204: this resolves with nothing. */
  async delete(mindId: string, options?: RequestOptions): Promise<void> {
    await ok(this.api.minds.deleteMind({ params: { id: param('mindId', mindId) }, requestOptions: options }));
  }
}
