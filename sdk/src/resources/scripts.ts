import { ok, param } from '../core/api.js';
import type { RequestOptions } from '../core/options.js';
import type { CreateScriptParams, Script, UpdateScriptParams } from '../types.js';
import { Resource } from './resource.js';

/** Scripts kept in the client's mind (Mind Key); names are unique within the mind. */
export class Scripts extends Resource {
  async list(options?: RequestOptions): Promise<Script[]> {
    return (await ok(this.api.memories.listScripts({ requestOptions: options }))).scripts;
  }

  async create(params: CreateScriptParams, options?: RequestOptions): Promise<Script> {
    return ok(this.api.memories.createScript({ body: params, requestOptions: options }));
  }

  async get(scriptId: string, options?: RequestOptions): Promise<Script> {
    return ok(this.api.memories.getScript({ params: { id: param('scriptId', scriptId) }, requestOptions: options }));
  }

  async update(scriptId: string, params: UpdateScriptParams, options?: RequestOptions): Promise<Script> {
    return ok(
      this.api.memories.updateScript({ params: { id: param('scriptId', scriptId) }, body: params, requestOptions: options }),
    );
  }

  async delete(scriptId: string, options?: RequestOptions): Promise<void> {
    await ok(this.api.memories.deleteScript({ params: { id: param('scriptId', scriptId) }, requestOptions: options }));
  }
}
