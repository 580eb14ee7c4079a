import type { EventName, Memory, MemoryHistory, StoreMemoryBody, UpdateMemoryBody } from '@mindservice/contract';
import type { AppContext } from '../core/context.js';
import type { Trx } from '../db/database.js';
import type { ChangeParts } from '../events/recorder.js';
import { isUniqueViolation } from '../db/errors.js';
import { type BatchedWork, WriteBatcher } from '../db/write-batch.js';
import { ApiError } from '../http/api-error.js';
import { newId } from '../lib/secrets.js';
import type { Meaning } from '../meaning/service.js';
import { historyPage } from './history.js';
import { NO_TIME_BOUNDS } from './rows.js';
import type { MemoriesStore } from './store.js';
import { expired, normalisedTimes, supersedeRefusal, type TimeFields, withTimes } from './time-rules.js';
import { assertVersion, keyExists } from './version.js';

export const REDACTED = '[redacted]';

/** Who asks to verify: only a user (JWT) may; a Mind Key is an agent. */
export type Verifier = { kind: 'user'; userId: string } | { kind: 'mind'; mindId: string };

/** What events and webhooks carry: never the text of a credential. */
export const eventData = (m: Memory) => ({
  id: m.id,
  category: m.category,
  key: m.key,
  content: m.category === 'credentials' ? REDACTED : m.content,
});

const sameTags = (a: string[], b: string[]) => a.length === b.length && a.every((t, i) => t === b[i]);
const uniqueTags = (tags: string[]) => [...new Set(tags)];

export class MemoriesService {
  /** Every memory write goes through it (concurrent writes share one COMMIT: db/write-batch.ts). */
  private readonly writes: WriteBatcher;

  /** `meaning`: told of every write (its worker embeds it), asked how many wait to be embedded. */
  constructor(
    private readonly ctx: AppContext,
    private readonly store: MemoriesStore,
    private readonly meaning: Meaning,
  ) {
    this.writes = new WriteBatcher(ctx.db, ctx.dialect);
  }

  private now() {
    return this.ctx.clock.now().toISOString();
  }

  /** Every memory write: batched, then the embedding worker is told. */
  private async write<T>(work: BatchedWork<T>): Promise<T> {
    const result = await this.writes.run(work);
    this.meaning.written();
    return result;
  }

  /** Creates, or with a key that exists in the mind and category updates that memory. */
  /** `createOnly` (`If-None-Match: *`): a key that exists is refused instead of updated. */
  async save(mindId: string, body: StoreMemoryBody, createOnly = false): Promise<{ created: boolean; memory: Memory }> {
    // Two concurrent stores of a new key (PostgreSQL): the loser's insert hits the unique index and
    // goes round again, now finding the winner's memory and updating it.
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.write((trx) => this.storeIn(trx, mindId, body, createOnly));
      } catch (err) {
        if (attempt >= 2 || !isUniqueViolation(err)) throw err;
      }
    }
  }

  private async storeIn(trx: Trx, mindId: string, body: StoreMemoryBody, createOnly: boolean) {
    const now = this.now();
    const times = normalisedTimes(body);
    const existing = body.key === undefined ? undefined : await this.keyHolder(trx, mindId, body.category, body.key, now);
    if (existing && createOnly) throw keyExists(body.category, existing.key ?? '');
    if (existing) {
      if (body.supersedes !== undefined) throw this.keyTaken(body.category, body.key ?? '');
      const memory = await this.apply(trx, mindId, existing, { content: body.content, tags: body.tags, source: body.source, ...times });
      return { created: false, memory };
    }
    // A successor holds from when it replaced the old memory, unless told otherwise: as_of then answers one of them.
    if (body.supersedes !== undefined && times.valid_from == null) times.valid_from = now;
    const memory: Memory = withTimes(
      {
        id: newId(),
        category: body.category,
        key: body.key ?? null,
        content: body.content,
        tags: uniqueTags(body.tags ?? []),
        verified: false,
        verified_at: null,
        source: body.source ?? null,
        created_at: now,
        updated_at: now,
        ...NO_TIME_BOUNDS,
      },
      times,
    );
    const insert = this.store.insertParts(trx, mindId, memory);
    if (body.supersedes !== undefined) {
      if (!insert) await this.store.insert(trx, mindId, memory);
      await this.supersede(trx, mindId, body.supersedes, memory, now, insert);
    } else if (insert) await this.ctx.events.record(trx, mindId, 'memory.created', eventData(memory), insert);
    else {
      await this.store.insert(trx, mindId, memory);
      await this.record(trx, mindId, 'memory.created', memory);
    }
    return { created: true, memory };
  }

  /**
   * The old memory ends now and points to its successor, in the successor's transaction (with its
   * insert where the database can); both events in one go. Refused, nothing is written.
   */
  private async supersede(trx: Trx, mindId: string, oldId: string, successor: Memory, now: string, insert?: ChangeParts) {
    const old = await this.store.supersede(trx, mindId, oldId, successor.id, now, insert);
    if (!old) throw await supersedeRefusal(trx, mindId, oldId, now);
    await this.ctx.events.recordAll(trx, mindId, [
      { type: 'memory.created', data: eventData(successor) },
      { type: 'memory.updated', data: eventData(old) },
    ]);
  }

  /**
   * The memory holding a key; one that expired (not yet purged) goes now, with its event, so the key
   * is free: it was gone for the API already.
   */
  private async keyHolder(trx: Trx, mindId: string, category: Memory['category'], key: string, now: string) {
    const holder = await this.store.findByKey(trx, mindId, category, key);
    if (!holder || !expired(holder, now)) return holder;
    await this.store.delete(trx, mindId, holder.id);
    await this.record(trx, mindId, 'memory.expired', holder);
    return undefined;
  }

  async get(mindId: string, id: string): Promise<Memory> {
    const memory = await this.store.find(this.ctx.db, mindId, id, this.now());
    if (!memory) throw ApiError.notFound('Memory');
    return memory;
  }

  /** GET /memory/:id/history: a page of its versions and its chain (history.ts). */
  async history(mindId: string, id: string, query: { limit?: number; cursor?: string }): Promise<MemoryHistory> {
    const now = this.now();
    const memory = await this.store.find(this.ctx.db, mindId, id, now);
    if (!memory) throw ApiError.notFound('Memory');
    return historyPage(this.ctx.db, this.store.history, { ...memory, mindId }, query, now, this.ctx.config.pageMaxBytes);
  }

  /** `ifMatch` (`If-Match`): only when the memory is still that version (412 otherwise). */
  async update(mindId: string, id: string, body: UpdateMemoryBody, ifMatch?: string): Promise<Memory> {
    try {
      return await this.write(async (trx) => {
        const now = this.now();
        // A conditional write locks what it compares, so a concurrent one waits and then sees the new version.
        const existing = await (ifMatch === undefined
          ? this.store.find(trx, mindId, id, now)
          : this.store.findForUpdate(trx, mindId, id, now));
        if (!existing) throw ApiError.notFound('Memory');
        assertVersion(existing, ifMatch);
        const category = body.category ?? existing.category;
        const key = body.key === undefined ? existing.key : body.key;
        if (key !== null && (category !== existing.category || key !== existing.key)) {
          const holder = await this.keyHolder(trx, mindId, category, key, now);
          if (holder && holder.id !== id) throw this.keyTaken(category, key);
        }
        return this.apply(trx, mindId, existing, { ...body, ...normalisedTimes(body), category, key });
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw this.keyTaken(body.category ?? 'this category', body.key ?? '');
      throw err;
    }
  }

  private keyTaken(category: string, key: string) {
    return ApiError.conflict('memory_key_taken', `body.key: another memory of this mind already has the key "${key}" in ${category}`);
  }

  /**
   * Applies changes (undefined keeps a field, null clears it). Nothing changed: no write, no event.
   * A change of text or category withdraws the verification: the human confirmed the old text.
   */
  private async apply(
    trx: Trx,
    mindId: string,
    existing: Memory,
    changes: Partial<Omit<Memory, keyof TimeFields>> & { key?: string | null; source?: string | null } & TimeFields,
  ) {
    const next: Memory = withTimes(
      {
        ...existing,
        category: changes.category ?? existing.category,
        key: changes.key === undefined ? existing.key : changes.key,
        content: changes.content ?? existing.content,
        tags: changes.tags === undefined ? existing.tags : uniqueTags(changes.tags),
        source: changes.source === undefined ? existing.source : changes.source,
      },
      changes,
    );
    const unchanged =
      next.expires_at === existing.expires_at &&
      next.valid_from === existing.valid_from &&
      next.valid_to === existing.valid_to &&
      next.category === existing.category &&
      next.key === existing.key &&
      next.content === existing.content &&
      next.source === existing.source &&
      sameTags(next.tags, existing.tags);
    if (unchanged) return existing;
    if (next.content !== existing.content || next.category !== existing.category) {
      next.verified = false;
      next.verified_at = null;
    }
    next.updated_at = this.now();
    await this.store.history.keep(trx, mindId, existing, next.updated_at);
    await this.store.update(trx, mindId, next);
    await this.record(trx, mindId, 'memory.updated', next);
    return next;
  }

  async delete(mindId: string, id: string): Promise<void> {
    await this.write(async (trx) => {
      const existing = await this.store.find(trx, mindId, id, this.now());
      if (!existing) throw ApiError.notFound('Memory');
      await this.store.delete(trx, mindId, id);
      await this.record(trx, mindId, 'memory.deleted', existing);
    });
  }

  async stats(mindId: string) {
    const { byCategory, verified, lastActivity } = await this.store.stats(this.ctx.db, mindId, this.now());
    const total = Object.values(byCategory).reduce((a, b) => a + b, 0);
    const pending = this.meaning.enabled ? await this.meaning.pending(mindId) : 0;
    return { mind_id: mindId, total, by_category: byCategory, verified, last_activity: lastActivity, pending_embeddings: pending };
  }

  /** Verification is a human act: the owning user's JWT only. */
  async setVerified(caller: Verifier, id: string, verified: boolean): Promise<Memory> {
    if (caller.kind === 'mind') {
      throw ApiError.forbidden(
        'jwt_required',
        `${verified ? 'Verifying' : 'Unverifying'} a memory needs the owning human's JWT (Authorization: Bearer <JWT>), not a Mind Key`,
      );
    }
    return this.write(async (trx) => {
      const found = await this.store.findWithOwner(trx, id);
      if (!found || found.userId !== caller.userId || expired(found.memory, this.now())) throw ApiError.notFound('Memory');
      const { memory, mindId } = found;
      if (memory.verified === verified) return memory;
      const next: Memory = { ...memory, verified, verified_at: verified ? this.now() : null };
      await this.store.update(trx, mindId, next);
      await this.record(trx, mindId, verified ? 'memory.verified' : 'memory.unverified', next);
      return next;
    });
  }

  private record(trx: Trx, mindId: string, type: EventName, memory: Memory) {
    return this.ctx.events.record(trx, mindId, type, eventData(memory));
  }
}
