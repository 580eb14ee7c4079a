import type { RecallQuery, RecallResult } from '@mindservice/contract';
import type { z } from 'zod';
import type { AppContext } from '../core/context.js';
import { ApiError } from '../http/api-error.js';
import { itemsWithinBytes } from '../http/cursor.js';
import type { RecallFilter } from '../memories/recall-filter.js';
import type { MemoriesStore } from '../memories/store.js';
import type { Asker, Meaning } from '../meaning/service.js';
import { keywordLikelihood, meaningLikelihood } from '../search/score-calibration.js';
import { searchWords } from '../search/words.js';
import { decodeCursor, decodeMeaningCursor, encodeCursor, encodeMeaningCursor, searchFingerprint } from './cursor.js';
import { recallByMeaning } from './hybrid.js';

const DEFAULT_LIMIT = 20;

/** GET /memory/recall's query as the contract validated it. */
export type RecallInput = z.output<typeof RecallQuery>;

/** A page of recall as GET /memory/recall answers it. */
export type RecallPage = z.output<typeof RecallResult>;

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

const uniqueTags = (tags: string[]) => [...new Set(tags)];

/**
 * GET /memory/recall: asks memories' keyword index (through its store) and meaning's embedder and
 * vector index, both below it, and fuses their answers (hybrid.ts). Neither knows of the other.
 */
export class RecallService {
  constructor(
    private readonly ctx: AppContext,
    private readonly memories: MemoriesStore,
    private readonly meaning: Meaning,
  ) {}

  /** `signal` aborts when the caller went away: its questions to the embedder are then dropped. */
  async recall(asker: Asker, input: RecallInput, signal?: AbortSignal): Promise<RecallPage> {
    const { mindId } = asker;
    const now = this.ctx.clock.now().toISOString();
    const asOf = input.as_of === undefined ? undefined : new Date(input.as_of).toISOString();
    const filter: RecallFilter = {
      words: [...new Set(searchWords(input.q ?? ''))],
      category: input.category,
      key: input.memory_key,
      keyPrefix: input.memory_key_prefix,
      tags: input.tags === undefined ? [] : uniqueTags(Array.isArray(input.tags) ? input.tags : [input.tags]),
      verified: input.verified,
      since: input.since === undefined ? undefined : new Date(input.since).toISOString(),
      notExpiredAt: now,
      // What holds now, unless asked what held then or everything.
      holdsAt: input.include_past ? undefined : (asOf ?? now),
      asOf: input.include_past ? undefined : asOf,
      includePast: input.include_past ?? false,
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
      return this.byKeyword(mindId, filter, limit, input.cursor, minScore);
    }
    if (input.wait_ms) {
      await this.meaning.settle(mindId, input.wait_ms, signal);
      // The caller went away while it waited: no one reads the answer.
      if (signal?.aborted) return { memories: [], next_cursor: null };
    }
    const page = await this.byMeaning(asker, mode, (input.q ?? '').trim(), filter, limit, input.cursor, signal);
    return atLeast(page, minScore);
  }

  /** Full-text ranking only (mode keyword, and whenever meaning cannot help), paged by keyset. */
  private async byKeyword(
    mindId: string,
    filter: RecallFilter,
    limit: number,
    cursor: string | undefined,
    minScore: number,
  ): Promise<RecallPage> {
    const fingerprint = searchFingerprint(filter);
    const after = cursor ? decodeCursor(cursor, fingerprint) : undefined;
    const rows = await this.memories.recall(this.ctx.db, mindId, filter, limit + 1, after);
    const hits = rows.slice(0, limit).map((r) => ({ ...r.memory, score: keywordLikelihood(r.score), match: 'keyword' as const }));
    // Ends early at the page's byte bound; the row past the page says whether a next page would hold any hit at min_score or above.
    const fit = itemsWithinBytes(hits, this.ctx.config.pageMaxBytes);
    const last = rows[fit - 1];
    const more = rows.length > fit && keywordLikelihood(rows[fit]!.score) >= minScore;
    return atLeast(
      {
        memories: fit < hits.length ? hits.slice(0, fit) : hits,
        next_cursor:
          more && last ? encodeCursor(fingerprint, { score: last.score, updatedAt: last.memory.updated_at, id: last.memory.id }) : null,
      },
      minScore,
    );
  }

  /** Mode semantic, or hybrid (meaning and words fused), with the cursor of the next page; asked only with embeddings on. */
  private async byMeaning(
    asker: Asker,
    mode: 'hybrid' | 'semantic',
    q: string,
    filter: RecallFilter,
    limit: number,
    cursor: string | undefined,
    signal?: AbortSignal,
  ): Promise<RecallPage> {
    const fingerprint = `${searchFingerprint(filter)}.${mode}`;
    const position = cursor ? decodeMeaningCursor(cursor, fingerprint) : { offset: 0 };
    const vector = await this.meaning.queryVector(asker, q, signal);
    const sources = { conn: this.ctx.db, memories: this.memories, meaning: this.meaning };
    const { hits, next, best, byFusion } = await recallByMeaning(sources, asker.mindId, {
      mode,
      q,
      rerank: (question, candidates, options) => this.meaning.rerank(asker, question, candidates, options, signal),
      filter,
      vector,
      position,
      limit,
      maxBytes: this.ctx.config.pageMaxBytes,
    });
    const likelihood = meaningLikelihood(mode, best, byFusion);
    return {
      memories: hits.map((r) => ({ ...r.memory, score: likelihood(r.score), match: r.match })),
      next_cursor: next ? encodeMeaningCursor(fingerprint, next) : null,
    };
  }
}
