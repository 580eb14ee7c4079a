import { ok, param } from '../core/api.js';
import type { RequestOptions } from '../core/options.js';
import { type PagePromise, pagesByCursor } from '../core/pagination.js';
import type {
  ExportMindParams,
  ImportMindParams,
  ImportResult,
  Memory,
  MemoryChainLink,
  MemoryHistoryParams,
  MemoryStats,
  MemoryVersion,
  MindExport,
  RecallHit,
  RecallParams,
  StoreMemoryParams,
  UpdateMemoryParams,
} from '../types.js';
import { Resource } from './resource.js';

/** A memory with its version (`ETag`), for a write that must not overwrite another's edit. */
export interface VersionedMemory {
  memory: Memory;
  etag: string;
}

const versioned = async (call: Promise<{ status: number; body: unknown; headers: Headers }>): Promise<VersionedMemory> => {
  const answer = await call;
  return { memory: answer.body as Memory, etag: answer.headers.get('etag') ?? '' };
};

const flag = (value: boolean | undefined) => (value === undefined ? undefined : value ? ('true' as const) : ('false' as const));

/** Memories of the client's mind (Mind Key; verifying needs the owner's JWT). */
export class Memories extends Resource {
  /** Stores a memory; with a `key` that exists in the category, updates that memory instead. */
  async store(params: StoreMemoryParams, options?: RequestOptions): Promise<Memory> {
    return ok(this.api.memories.storeMemory({ body: params, requestOptions: options }));
  }

  /**
   * Ranked search, `limit` (default 20) hits a page. `await` it for the first page;
   * `for await (const hit of client.memories.recall({ q }))` walks every hit of every page.
   * `wait_ms` (read-your-writes: `{ q, mode: 'semantic', wait_ms: 2000 }` finds a memory stored just
   * before) waits before the first page only; `min_score` keeps hits scoring at least that.
   */
  recall(params: RecallParams = {}, options?: RequestOptions): PagePromise<RecallHit> {
    return pagesByCursor(params.cursor, async (cursor, first) => {
      // The first page waited already; the next pages continue its answer.
      const query = {
        ...params,
        verified: flag(params.verified),
        include_past: flag(params.include_past),
        cursor,
        wait_ms: first ? params.wait_ms : undefined,
      };
      const body = await ok(this.api.memories.recallMemories({ query, requestOptions: options }));
      return [body.memories, body.next_cursor];
    });
  }

  async get(memoryId: string, options?: RequestOptions): Promise<Memory> {
    return ok(this.api.memories.getMemory({ params: { id: param('memoryId', memoryId) }, requestOptions: options }));
  }

  /** Creates only: when the category and key exist, throws a PreconditionFailedError (`memory_key_exists`) and writes nothing. */
  async create(params: StoreMemoryParams, options?: RequestOptions): Promise<VersionedMemory> {
    const headers = { ...options?.headers, 'if-none-match': '*' };
    return versioned(this.api.memories.storeMemory({ body: params, requestOptions: { ...options, headers } }));
  }

  /** The memory and its version, for `updateIfUnchanged`. */
  async getVersioned(memoryId: string, options?: RequestOptions): Promise<VersionedMemory> {
    return versioned(this.api.memories.getMemory({ params: { id: param('memoryId', memoryId) }, requestOptions: options }));
  }

  /**
   * Writes only if the memory is still the version `etag` names; otherwise throws a PreconditionFailedError
   * (`memory_changed`) and writes nothing: read it again and redo the edit.
   */
  async updateIfUnchanged(memoryId: string, etag: string, params: UpdateMemoryParams, options?: RequestOptions): Promise<VersionedMemory> {
    const requestOptions = { ...options, headers: { ...options?.headers, 'if-match': etag } };
    return versioned(this.api.memories.updateMemory({ params: { id: param('memoryId', memoryId) }, body: params, requestOptions }));
  }

  async update(memoryId: string, params: UpdateMemoryParams, options?: RequestOptions): Promise<Memory> {
    return ok(this.api.memories.updateMemory({ params: { id: param('memoryId', memoryId) }, body: params, requestOptions: options }));
  }

  /**
   * The memory's earlier versions, oldest first, its current content last; `await` it for the first page,
   * `for await` walks them all. Every update (by id, or `store` with a known key) keeps a version.
   */
  history(memoryId: string, params: MemoryHistoryParams = {}, options?: RequestOptions): PagePromise<MemoryVersion> {
    return this.historyPages(memoryId, params, options, (page) => page.versions);
  }

  /**
   * The supersede chain the memory belongs to (`store` with `supersedes`): the memories it replaced and
   * that replaced it, this one included, oldest first. Paged like `history`, from the same answers.
   */
  chain(memoryId: string, params: MemoryHistoryParams = {}, options?: RequestOptions): PagePromise<MemoryChainLink> {
    return this.historyPages(memoryId, params, options, (page) => page.chain);
  }

  private historyPages<Item>(
    memoryId: string,
    params: MemoryHistoryParams,
    options: RequestOptions | undefined,
    itemsOf: (page: { versions: MemoryVersion[]; chain: MemoryChainLink[] }) => Item[],
  ): PagePromise<Item> {
    const id = param('memoryId', memoryId);
    return pagesByCursor(params.cursor, async (cursor) => {
      const query = { limit: params.limit, cursor };
      const body = await ok(this.api.memories.memoryHistory({ params: { id }, query, requestOptions: options }));
      return [itemsOf(body), body.next_cursor];
    });
  }

  /** Deletes the memory; the service answers 204, so this resolves with nothing. */
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
