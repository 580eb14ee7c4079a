import { ok, param } from '../core/api.js';
import type { RequestOptions } from '../core/options.js';
import { type PagePromise, pagesByCursor } from '../core/pagination.js';
import type { CreateScriptParams, ListScriptsParams, Script, UpdateScriptParams } from '../types.js';
import { Resource } from './resource.js';

/** Scripts kept in the client's mind (Mind Key); names are unique within the mind. */
export class Scripts extends Resource {
  /**
   * Scripts of the mind by name, `limit` (default 100) a page. `await` it for the first page;
   * `for await (const script of client.scripts.list())` walks every script.
   */
  list(params: ListScriptsParams = {}, options?: RequestOptions): PagePromise<Script> {
    return pagesByCursor(params.cursor, async (cursor) => {
      const body = await ok(this.api.scripts.listScripts({ query: { ...params, cursor }, requestOptions: options }));
      return [body.scripts, body.next_cursor];
    });
  }

  async create(params: CreateScriptParams, options?: RequestOptions): Promise<Script> {
    return ok(this.api.scripts.createScript({ body: params, requestOptions: options }));
  }

  async get(scriptId: string, options?: RequestOptions): Promise<Script> {
    return ok(this.api.scripts.getScript({ params: { id: param('scriptId', scriptId) }, requestOptions: options }));
  }

  async update(scriptId: string, params: UpdateScriptParams, options?: RequestOptions): Promise<Script> {
    return ok(this.api.scripts.updateScript({ params: { id: param('scriptId', scriptId) }, body: params, requestOptions: options }));
  }

  /** Deletes the script; the service answers 204, so this resolves with nothing. */
  async delete(scriptId: string, options?: RequestOptions): Promise<void> {
    await ok(this.api.scripts.deleteScript({ params: { id: param('scriptId', scriptId) }, requestOptions: options }));
  }
}
