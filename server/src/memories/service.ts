import type { EventName, Memory, MemoryCategory, StoreMemoryBody, UpdateMemoryBody } from '@mindservice/contract';
import type { AppContext } from '../core/context.js';
import type { Trx } from '../db/database.js';
import { isUniqueViolation } from '../db/errors.js';
import { ApiError } from '../http/api-error.js';
import { newId } from '../lib/secrets.js';
import { itemsWithinBytes } from '../http/cursor.js';
import { decodeCursor, encodeCursor, searchFingerprint } from './cursor.js';
import type { RecallByMeaning, RecallPage, Recaller } from './recall-by-meaning.js';
import { searchWords } from '../lib/search-words.js';
import { keywordRelevance } from '../lib/bm25.js';
import type { RecallFilter } from './recall-filter.js';
import { applyIndexChanges, type IndexChange, type IndexChangeSink } from './search-index.js';
import type { MemoriesStore } from './store.js';
import { type BatchedWork, WriteBatcher } from './write-batch.js';

export const REDACTED = '[redacted]';
const DEFAULT_LIMIT = 20;

export interface RecallInput {
  q?: string;
  category?: MemoryCategory;
  /** The filter on a memory's key (`key` in a query string is the Mind Key). */
  memory_key?: string;
  tags?: string | string[];
  verified?: boolean;
  since?: string;
  limit?: number;
  cursor?: string;
  mode?: 'hybrid' | 'keyword' | 'semantic';
  /** Read-your-writes: wait at most this long for the mind's pending embeddings first (modes hybrid and semantic). */
  wait_ms?: number;
  /** Only hits scoring at least this; the first below it ends the answer. */
  min_score?: number;
}

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

/**
 * `min_score`: a page's hits come in descending score, so the first below it ends the answer (no
 * next page). Recall by meaning pages by offset without looking past the page: when every hit of a
 * page passes, its next page may still hold none.
 */
function atLeast(page: RecallPage, minScore: number): RecallPage {
  if (minScore <= 0) return page;
  const cut = page.memories.findIndex((hit) => hit.score < minScore);
  return cut < 0 ? page : { memories: page.memories.slice(0, cut), next_cursor: null };
}

export class MemoriesService {
  /** Every memory write goes through it (on SQLite, concurrent writes share one COMMIT). */
  private readonly writes: WriteBatcher<IndexChange>;

  constructor(
    private readonly ctx: AppContext,
    private readonly store: MemoriesStore,
    private readonly meaning: RecallByMeaning,
  ) {
    this.writes = new WriteBatcher(ctx.db, ctx.dialect, applyIndexChanges);
  }

  private now() {
    return this.ctx.clock.now().toISOString();
  }

  /** Every memory write: batched (write-batch.ts), then the embedding worker is told. */
  private async write<T>(work: BatchedWork<IndexChange, T>): Promise<T> {
    const result = await this.writes.run(work);
    this.meaning.written();
    return result;
  }

  /** Creates, or with a key that exists in the mind and category updates that memory. */
  async save(mindId: string, body: StoreMemoryBody): Promise<{ created: boolean; memory: Memory }> {
    // Two concurrent stores of a new key (PostgreSQL): the loser's insert hits the unique index and
    // goes round again, now finding the winner's memory and updating it.
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.write((trx, index) => this.storeIn(trx, index, mindId, body));
      } catch (err) {
        if (attempt >= 2 || !isUniqueViolation(err)) throw err;
      }
    }
  }

  private async storeIn(trx: Trx, index: IndexChangeSink, mindId: string, body: StoreMemoryBody) {
    const existing = body.key === undefined ? undefined : await this.store.findByKey(trx, mindId, body.category, body.key);
    if (existing) {
      const memory = await this.apply(trx, index, mindId, existing, { content: body.content, tags: body.tags, source: body.source });
      return { created: false, memory };
    }
    const now = this.now();
    const memory: Memory = {
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
    };
    const insert = this.store.insertParts(mindId, memory);
    if (insert) await this.ctx.events.record(trx, mindId, 'memory.created', eventData(memory), insert);
    else {
      await this.store.insert(trx, mindId, memory, index);
      await this.record(trx, mindId, 'memory.created', memory);
    }
    return { created: true, memory };
  }

  async get(mindId: string, id: string): Promise<Memory> {
    const memory = await this.store.find(this.ctx.db, mindId, id);
    if (!memory) throw ApiError.notFound('Memory');
    return memory;
  }

  async update(mindId: string, id: string, body: UpdateMemoryBody): Promise<Memory> {
    try {
      return await this.write(async (trx, index) => {
        const existing = await this.store.find(trx, mindId, id);
        if (!existing) throw ApiError.notFound('Memory');
        const category = body.category ?? existing.category;
        const key = body.key === undefined ? existing.key : body.key;
        if (key !== null && (category !== existing.category || key !== existing.key)) {
          const holder = await this.store.findByKey(trx, mindId, category, key);
          if (holder && holder.id !== id) throw this.keyTaken(category, key);
        }
        return this.apply(trx, index, mindId, existing, { ...body, category, key });
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
    index: IndexChangeSink,
    mindId: string,
    existing: Memory,
    changes: Partial<Memory> & { key?: string | null; source?: string | null },
  ) {
    const next: Memory = {
      ...existing,
      category: changes.category ?? existing.category,
      key: changes.key === undefined ? existing.key : changes.key,
      content: changes.content ?? existing.content,
      tags: changes.tags === undefined ? existing.tags : uniqueTags(changes.tags),
      source: changes.source === undefined ? existing.source : changes.source,
    };
    const unchanged =
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
    await this.store.update(trx, mindId, next, index);
    await this.record(trx, mindId, 'memory.updated', next);
    return next;
  }

  async delete(mindId: string, id: string): Promise<void> {
    await this.write(async (trx) => {
      const existing = await this.store.find(trx, mindId, id);
      if (!existing) throw ApiError.notFound('Memory');
      await this.store.delete(trx, mindId, id);
      await this.record(trx, mindId, 'memory.deleted', existing);
    });
  }

  /** `signal` aborts when the caller went away: its questions to the embedder are then dropped. */
  async recall(recaller: Recaller, input: RecallInput, signal?: AbortSignal): Promise<RecallPage> {
    const { mindId } = recaller;
    const filter: RecallFilter = {
      words: [...new Set(searchWords(input.q ?? ''))],
      category: input.category,
      key: input.memory_key,
      tags: input.tags === undefined ? [] : uniqueTags(Array.isArray(input.tags) ? input.tags : [input.tags]),
      verified: input.verified,
      since: input.since === undefined ? undefined : new Date(input.since).toISOString(),
    };
    if (input.q?.trim() && filter.words.length === 0) {
      throw ApiError.invalidField('query.q', 'has no letters or digits to search for (leave it out to list the newest memories)');
    }
    const limit = input.limit ?? DEFAULT_LIMIT;
    const mode = input.mode ?? 'hybrid';
    if (mode === 'semantic' && !this.meaning.enabled) {
      throw ApiError.invalidField(
        'query.mode',
        'semantic needs embeddings, which are off on this server (MIND_EMBEDDINGS=off); use keyword',
      );
    }
    const minScore = input.min_score ?? 0;
    if (minScore > 0 && filter.words.length === 0) {
      throw ApiError.invalidField(
        'query.min_score',
        'needs q: without words to search for, memories come newest first with score 0 (leave min_score out, or give q)',
      );
    }
    // Without words there is no meaning to compare, and credentials are never embedded: both by keyword.
    if (mode === 'keyword' || !this.meaning.enabled || filter.words.length === 0 || filter.category === 'credentials') {
      return this.recallByKeyword(mindId, filter, limit, input.cursor, minScore);
    }
    if (input.wait_ms) {
      await this.meaning.settle(mindId, input.wait_ms, signal);
      // The caller went away while it waited: no one reads the answer.
      if (signal?.aborted) return { memories: [], next_cursor: null };
    }
    const page = await this.meaning.recall(recaller, { mode, q: (input.q ?? '').trim(), filter, limit, cursor: input.cursor }, signal);
    return atLeast(page, minScore);
  }

  /** Full-text ranking only (mode keyword, and whenever meaning cannot help), paged by keyset. */
  private async recallByKeyword(
    mindId: string,
    filter: RecallFilter,
    limit: number,
    cursor: string | undefined,
    minScore: number,
  ): Promise<RecallPage> {
    const fingerprint = searchFingerprint(filter);
    const after = cursor ? decodeCursor(cursor, fingerprint) : undefined;
    const rows = await this.store.recall(this.ctx.db, mindId, filter, limit + 1, after);
    const hits = rows.slice(0, limit).map((r) => ({ ...r.memory, score: keywordRelevance(r.score), match: 'keyword' as const }));
    // Ends early at the page's byte bound; the row past the page says whether a next page would hold any hit at min_score or above.
    const fit = itemsWithinBytes(hits, this.ctx.config.pageMaxBytes);
    const last = rows[fit - 1];
    const more = rows.length > fit && keywordRelevance(rows[fit]!.score) >= minScore;
    return atLeast(
      {
        memories: fit < hits.length ? hits.slice(0, fit) : hits,
        next_cursor:
          more && last ? encodeCursor(fingerprint, { score: last.score, updatedAt: last.memory.updated_at, id: last.memory.id }) : null,
      },
      minScore,
    );
  }

  async stats(mindId: string) {
    const { byCategory, verified, lastActivity } = await this.store.stats(this.ctx.db, mindId);
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
    return this.write(async (trx, index) => {
      const found = await this.store.findWithOwner(trx, id);
      if (!found || found.userId !== caller.userId) throw ApiError.notFound('Memory');
      const { memory, mindId } = found;
      if (memory.verified === verified) return memory;
      const next: Memory = { ...memory, verified, verified_at: verified ? this.now() : null };
      await this.store.update(trx, mindId, next, index);
      await this.record(trx, mindId, verified ? 'memory.verified' : 'memory.unverified', next);
      return next;
    });
  }

  private record(trx: Trx, mindId: string, type: EventName, memory: Memory) {
    return this.ctx.events.record(trx, mindId, type, eventData(memory));
  }
}
