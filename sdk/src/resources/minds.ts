import { ok, param } from '../core/api.js';
import type { RequestOptions } from '../core/options.js';
import { cursorFor, cursorPage, type PagePromise, paginate } from '../core/pagination.js';
import type { CreatedMind, CreateMindParams, MindSummary } from '../types.js';
import { Resource } from './resource.js';

/** Minds of the account (JWT). */
export class Minds extends Resource {
  /** Creates a mind; its `mind_key` is in this answer only. */
  async create(params: CreateMindParams, options?: RequestOptions): Promise<CreatedMind> {
    return ok(this.api.minds.createMind({ body: params, requestOptions: options }));
  }

  /** The minds of the account, oldest first, a page at a time (pages are bounded in bytes); `for await` walks them all. */
  list(options?: RequestOptions): PagePromise<MindSummary> {
    return paginate(async (next) => {
      const body = await ok(this.api.minds.listMinds({ query: { cursor: cursorFor(next, undefined) }, requestOptions: options }));
      return cursorPage(body.minds, body.next_cursor);
    });
  }

  /** Deletes the mind and everything it holds. Irreversible. The service answers 204: this resolves with nothing. */
  async delete(mindId: string, options?: RequestOptions): Promise<void> {
    await ok(this.api.minds.deleteMind({ params: { id: param('mindId', mindId) }, requestOptions: options }));
  }
}
