import { ok, param } from '../core/api.js';
import type { RequestOptions } from '../core/options.js';
import type { CreatedMind, CreateMindParams, MindSummary } from '../types.js';
import { Resource } from './resource.js';

/** Minds of the account (JWT). */
export class Minds extends Resource {
  /** Creates a mind; its `mind_key` is in this answer only. */
  async create(params: CreateMindParams, options?: RequestOptions): Promise<CreatedMind> {
    return ok(this.api.minds.createMind({ body: params, requestOptions: options }));
  }

  async list(options?: RequestOptions): Promise<MindSummary[]> {
    return (await ok(this.api.minds.listMinds({ requestOptions: options }))).minds;
  }

  /** Deletes the mind and everything it holds. Irreversible. */
  async delete(mindId: string, options?: RequestOptions): Promise<void> {
    await ok(this.api.minds.deleteMind({ params: { id: param('mindId', mindId) }, requestOptions: options }));
  }
}
