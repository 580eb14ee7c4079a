import { ok, param } from '../core/api.js';
import type { RequestOptions } from '../core/options.js';
import { type PagePromise, paginate, pagesByCursor, singlePage } from '../core/pagination.js';
import type { CreatedMind, CreatedMindKey, CreateMindKeyParams, CreateMindParams, MindKeySummary, MindSummary } from '../types.js';
import { type ClientCore, Resource } from './resource.js';

/**
 * A mind's keys (JWT): several per mind, each labelled, of scope `full` or `read`, maybe expiring,
 * revocable. Rotation: `create` a new key, move the agent to it, `revoke` the old one.
 */
export class MindKeys extends Resource {
  /** Makes a key; its `mind_key` is in this answer only. */
  async create(mindId: string, params: CreateMindKeyParams, options?: RequestOptions): Promise<CreatedMindKey> {
    return ok(this.api.minds.createMindKey({ params: { id: param('mindId', mindId) }, body: params, requestOptions: options }));
  }

  /** The mind's keys that are not revoked (no secrets), as a single page (a mind has at most 100). */
  list(mindId: string, options?: RequestOptions): PagePromise<MindKeySummary> {
    return paginate(async () =>
      singlePage((await ok(this.api.minds.listMindKeys({ params: { id: param('mindId', mindId) }, requestOptions: options }))).keys),
    );
  }

  /** Revokes the key: every request with it is refused from now on (`MindKeyRevokedError`). Resolves with nothing. */
  async revoke(mindId: string, keyId: string, options?: RequestOptions): Promise<void> {
    await ok(
      this.api.minds.revokeMindKey({ params: { id: param('mindId', mindId), key_id: param('keyId', keyId) }, requestOptions: options }),
    );
  }
}

/** Minds of the account (JWT). */
export class Minds extends Resource {
  /** The keys of a mind. */
  readonly keys: MindKeys;

  constructor(core: ClientCore) {
    super(core);
    this.keys = new MindKeys(core);
  }

  /** Creates a mind; its `mind_key` is in this answer only. */
  async create(params: CreateMindParams, options?: RequestOptions): Promise<CreatedMind> {
    return ok(this.api.minds.createMind({ body: params, requestOptions: options }));
  }

  /** The minds of the account, oldest first, a page at a time (pages are bounded in bytes); `for await` walks them all. */
  list(options?: RequestOptions): PagePromise<MindSummary> {
    return pagesByCursor(undefined, async (cursor) => {
      const body = await ok(this.api.minds.listMinds({ query: { cursor }, requestOptions: options }));
      return [body.minds, body.next_cursor];
    });
  }

  /** Deletes the mind and everything it holds. Irreversible. The service answers 204: this resolves with nothing. */
  async delete(mindId: string, options?: RequestOptions): Promise<void> {
    await ok(this.api.minds.deleteMind({ params: { id: param('mindId', mindId) }, requestOptions: options }));
  }
}
