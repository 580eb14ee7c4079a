import { ok, param } from '../core/api.js';
import type { RequestOptions } from '../core/options.js';
import type {
  ExportMindParams,
  ImportMindParams,
  ImportResult,
  Memory,
  MemoryStats,
  MindExport,
  RecallHit,
  RecallParams,
  RecallResult,
  StoreMemoryParams,
  UpdateMemoryParams,
} from '../types.js';
import { Resource } from './resource.js';

const flag = (value: boolean | undefined) => (value === undefined ? undefined : value ? ('true' as const) : ('false' as const));

/** Memories of the client's mind (Mind Key; verifying needs the owner's JWT). */
export class Memories extends Resource {
  /** Stores a memory; with a `key` that exists in the category, updates that memory instead. */
  async store(params: StoreMemoryParams, options?: RequestOptions): Promise<Memory> {
    return ok(this.api.memories.storeMemory({ body: params, requestOptions: options }));
  }

  /** One page of ranked search results; pass `next_cursor` as `cursor` for the next. */
  async recall(params: RecallParams = {}, options?: RequestOptions): Promise<RecallResult> {
    return ok(this.api.memories.recallMemories({ query: { ...params, verified: flag(params.verified) }, requestOptions: options }));
  }

  /** Every hit of a search, page after page: `for await (const m of client.memories.recallAll({ q }))`. */
  async *recallAll(params: RecallParams = {}, options?: RequestOptions): AsyncGenerator<RecallHit, void, undefined> {
    let cursor = params.cursor;
    do {
      const page = await this.recall({ ...params, cursor }, options);
      yield* page.memories;
      cursor = page.next_cursor ?? undefined;
    } while (cursor);
  }

  async get(memoryId: string, options?: RequestOptions): Promise<Memory> {
    return ok(this.api.memories.getMemory({ params: { id: param('memoryId', memoryId) }, requestOptions: options }));
  }

  async update(memoryId: string, params: UpdateMemoryParams, options?: RequestOptions): Promise<Memory> {
    return ok(this.api.memories.updateMemory({ params: { id: param('memoryId', memoryId) }, body: params, requestOptions: options }));
  }

  async delete(memoryId: string, options?: RequestOptions): Promise<void> {
    await ok(this.api.memories.deleteMemory({ params: { id: param('memoryId', memoryId) }, requestOptions: options }));
  }

  /** Marks the memory confirmed by its human: needs the owner's JWT (a Mind Key alone gets 403). */
  async verify(memoryId: string, options?: RequestOptions): Promise<Memory> {
    return ok(this.api.memories.verifyMemory({ params: { id: param('memoryId', memoryId) }, requestOptions: options }));
  }

  async unverify(memoryId: string, options?: RequestOptions): Promise<Memory> {
    return ok(this.api.memories.unverifyMemory({ params: { id: param('memoryId', memoryId) }, requestOptions: options }));
  }

  async stats(options?: RequestOptions): Promise<MemoryStats> {
    return ok(this.api.memories.memoryStats({ requestOptions: options }));
  }

  /** The whole mind as one versioned document (`mind-export/1`). */
  async export(params: ExportMindParams = {}, options?: RequestOptions): Promise<MindExport> {
    const query = { mind_id: params.mind_id, include_credentials: flag(params.include_credentials) };
    return ok(this.api.memories.exportMind({ query, requestOptions: options }));
  }

  /** Takes an export back into the client's mind (`merge` by default; `dry_run` changes nothing). */
  async import(document: MindExport, params: ImportMindParams = {}, options?: RequestOptions): Promise<ImportResult> {
    const query = { mode: params.mode, dry_run: flag(params.dry_run) };
    return ok(this.api.memories.importMind({ query, body: document, requestOptions: options }));
  }
}
