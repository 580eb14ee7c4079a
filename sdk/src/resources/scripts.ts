import { ok, param } from '../core/api.js';
import type { RequestOptions } from '../core/options.js';
import type { CreateScriptParams, Script, UpdateScriptParams } from '../types.js';
import { Resource } from './resource.js';

/** Scripts kept in the client's mind (Mind Key); names are unique within the mind. */
export class Scripts extends Resource {
  /** Every script of the mind by name, following the pages (100 a page). */
  async list(options?: RequestOptions): Promise<Script[]> {
    const scripts: Script[] = [];
    let cursor: string | undefined;
    do {
      const page = await this.listPage({ cursor }, options);
      scripts.push(...page.scripts);
      cursor = page.next_cursor ?? undefined;
    } while (cursor);
    return scripts;
  }

  /** One page of scripts by name (`limit` 1..100, default 100); pass `next_cursor` as `cursor` for the next. */
  async listPage(
    params: { limit?: number; cursor?: string } = {},
    options?: RequestOptions,
  ): Promise<{ scripts: Script[]; next_cursor: string | null }> {
    return ok(this.api.memories.listScripts({ query: params, requestOptions: options }));
  }

  async create(params: CreateScriptParams, options?: RequestOptions): Promise<Script> {
    return ok(this.api.memories.createScript({ body: params, requestOptions: options }));
  }

  async get(scriptId: string, options?: RequestOptions): Promise<Script> {
    return ok(this.api.memories.getScript({ params: { id: param('scriptId', scriptId) }, requestOptions: options }));
  }

  async update(scriptId: string, params: UpdateScriptParams, options?: RequestOptions): Promise<Script> {
    return ok(this.api.memories.updateScript({ params: { id: param('scriptId', scriptId) }, body: params, requestOptions: options }));
  }

  async delete(scriptId: string, options?: RequestOptions): Promise<void> {
    await ok(this.api.memories.deleteScript({ params: { id: param('scriptId', scriptId) }, requestOptions: options }));
  }
}
