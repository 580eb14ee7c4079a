import type { ChatMessage } from '@mindservice/contract';
import type { Db } from '../db/database.js';
import { ApiError } from '../http/api-error.js';
import { itemsWithinBytes } from '../http/cursor.js';
import type { ChatFilter, ChatHit, ChatKeywordIndex, ChatPosition } from './keyword-index.js';
import type { ChatCandidate, ChatMatch, ChatRanking, ChatSearcher } from './ranking-by-meaning.js';
import { decodeSearchCursor, encodeSearchCursor, type SearchPosition, searchFingerprint } from './search-cursor.js';
import { searchWords } from '../search/words.js';
import { wordsOf } from '../search/word-lookup.js';
import { lastStored, newestMessages, seqOf } from './store.js';
import { keywordLikelihood, meaningLikelihood } from '../search/score-calibration.js';

export interface ChatSearchInput {
  q: string;
  thread?: string;
  role?: ChatMessage['role'];
  since?: string;
  mode?: 'hybrid' | 'keyword' | 'semantic';
  limit?: number;
  cursor?: string;
}

export interface ChatSearchPage {
  messages: Array<ChatMessage & { score: number; match: ChatMatch }>;
  next_cursor: string | null;
}

const DEFAULT_LIMIT = 20;
/** By meaning, the window ranked is the best WINDOW keyword hits and the mind's last RECENT messages (passing the filters). */
export const WINDOW = 50;
export const RECENT = 200;

type Scored = ChatHit & { match: ChatMatch };

const positionOf = (hit: ChatHit): ChatPosition => ({ score: hit.score, createdAt: hit.message.created_at, id: hit.message.id });

const byScore = (a: Scored, b: Scored) =>
  b.score - a.score || b.message.created_at.localeCompare(a.message.created_at) || b.message.id.localeCompare(a.message.id);

/**
 * GET /mind/chat/search: the mind's messages by their words (the keyword index, keyset pages) and
 * by their meaning. By meaning there is no vector index of chat: the window ranked is the best
 * WINDOW keyword hits and the mind's last RECENT messages, which `meaning` ranks against q (the
 * embedder's similarity, fused with the keyword score in hybrid); in hybrid, keyword hits past the
 * window follow with score 0. The window is fixed by the first page (messages stored later are not
 * in it), so offset pages neither repeat nor skip while the mind's messages stay as they are.
 */
export class ChatSearch {
  constructor(
    private readonly db: Db,
    private readonly index: ChatKeywordIndex,
    private readonly meaning: ChatRanking,
    /** A page ends early once its hits' JSON reaches this many bytes. */
    private readonly maxBytes: number,
  ) {}

  async search(searcher: ChatSearcher, input: ChatSearchInput, signal?: AbortSignal): Promise<ChatSearchPage> {
    const { mindId } = searcher;
    const words = [...new Set(searchWords(input.q))];
    if (words.length === 0) throw ApiError.invalidField('query.q', 'has no letters or digits to search for');
    const mode = input.mode ?? 'hybrid';
    if (mode === 'semantic' && !this.meaning.enabled) {
      throw ApiError.invalidField(
        'query.mode',
        'semantic needs embeddings, which are off on this server (MIND_EMBEDDINGS=off); use keyword',
      );
    }
    const since = input.since === undefined ? undefined : new Date(input.since).toISOString();
    const filter: ChatFilter = { words, thread: input.thread, role: input.role, since };
    const fingerprint = searchFingerprint(filter, mode);
    const byMeaning = mode !== 'keyword' && this.meaning.enabled;
    const at = input.cursor ? decodeSearchCursor(input.cursor, fingerprint, byMeaning) : {};
    const limit = input.limit ?? DEFAULT_LIMIT;
    const page = byMeaning
      ? await this.byMeaning(searcher, input.q.trim(), mode as 'hybrid' | 'semantic', filter, limit, at, signal)
      : await this.byKeyword(mindId, filter, limit, at.after);
    return {
      // Keyword pages resume at a hit's BM25, so it becomes a likelihood only here; by meaning, rankWindow made it one.
      messages: page.hits.map((h) => ({ ...h.message, score: byMeaning ? h.score : keywordLikelihood(h.score), match: h.match })),
      next_cursor: page.next ? encodeSearchCursor(fingerprint, page.next) : null,
    };
  }

  private async byKeyword(mindId: string, filter: ChatFilter, limit: number, after?: ChatPosition) {
    const rows = await this.index.rankedPage(this.db, mindId, filter, limit + 1, after);
    const page = rows.slice(0, limit).map((h): Scored => ({ ...h, match: 'keyword' }));
    const hits = page.slice(0, this.bytesFit(page));
    return { hits, next: rows.length > hits.length ? { after: positionOf(hits.at(-1)!) } : undefined };
  }

  private async byMeaning(
    searcher: ChatSearcher,
    q: string,
    mode: 'hybrid' | 'semantic',
    base: ChatFilter,
    limit: number,
    at: SearchPosition,
    signal?: AbortSignal,
  ): Promise<{ hits: Scored[]; next?: SearchPosition }> {
    const { mindId } = searcher;
    const asOf = at.asOf ?? (await lastStored(this.db, mindId))?.id;
    if (asOf === undefined) return { hits: [] };
    // The first page's messages only; if its last message is gone (the mind was replaced by an import), the current ones.
    const filter = { ...base, upTo: await seqOf(this.db, mindId, asOf) };
    const keyword = await this.index.rankedPage(this.db, mindId, filter, WINDOW + 1);
    const windowed = keyword.slice(0, WINDOW);
    const inWindow = new Set(windowed.map((h) => h.message.id));
    // The last messages holding a word of q but past the keyword window are ranked in it too (and left out of the tail).
    const recent = (await newestMessages(this.db, mindId, filter, RECENT))
      .filter((m) => !inWindow.has(m.id))
      .map((message) => {
        // Looked up in place rather than split: 200 messages of up to 64 KB, on the request thread.
        const holds = wordsOf(message.content);
        return { message, holdsWords: filter.words.some(holds) };
      });
    let hits: Scored[] = [];
    let tailFrom = at.after;
    if (at.after === undefined) {
      const offset = at.offset ?? 0;
      const ranked = await this.rankWindow(searcher, q, mode, windowed, recent, signal);
      const window = ranked.slice(offset, offset + limit);
      hits = window.slice(0, this.bytesFit(window));
      if (offset + hits.length < ranked.length) return { hits, next: { offset: offset + hits.length, asOf } };
      if (mode === 'semantic' || keyword.length <= WINDOW) return { hits };
      tailFrom = positionOf(windowed.at(-1)!);
    }
    // The tail: keyword hits past the window, without the last messages the window ranked.
    const ranked = new Set(recent.filter((r) => r.holdsWords).map((r) => r.message.id));
    const wanted = limit - hits.length;
    const tail = (await this.index.rankedPage(this.db, mindId, filter, wanted + ranked.size + 1, tailFrom)).filter(
      (h) => !ranked.has(h.message.id),
    );
    const fromWindow = hits.length;
    hits.push(...tail.slice(0, wanted).map((h): Scored => ({ message: h.message, score: 0, match: 'keyword' })));
    // The window's hits fit (else the page ended in the window), so the byte bound ends the page in the tail.
    hits = hits.slice(0, this.bytesFit(hits));
    const shown = hits.length - fromWindow;
    const last = tail[shown - 1];
    return { hits, next: tail.length > shown ? { after: last ? positionOf(last) : tailFrom, asOf } : undefined };
  }

  /** How many hits fit the page's byte bound, counted as the answer shows them (message, score, match). */
  private bytesFit(hits: Scored[]): number {
    return itemsWithinBytes(
      hits.map((h) => ({ ...h.message, score: h.score, match: h.match })),
      this.maxBytes,
    );
  }

  /** The window ranked by `meaning`; when it cannot answer, the keyword hits in keyword order (semantic: none). */
  private async rankWindow(
    searcher: ChatSearcher,
    q: string,
    mode: 'hybrid' | 'semantic',
    windowed: ChatHit[],
    recent: Array<{ message: ChatMessage; holdsWords: boolean }>,
    signal?: AbortSignal,
  ): Promise<Scored[]> {
    const byId = new Map<string, ChatMessage>();
    const candidates: ChatCandidate[] = [];
    for (const h of windowed) {
      byId.set(h.message.id, h.message);
      candidates.push({ id: h.message.id, text: h.message.content, keywordScore: h.score, holdsWords: true });
    }
    for (const { message, holdsWords } of recent) {
      byId.set(message.id, message);
      candidates.push({ id: message.id, text: message.content, holdsWords });
    }
    const answer = await this.meaning.rank(searcher, q, mode, candidates, signal);
    if (!answer) {
      if (mode === 'semantic') return [];
      const extra = recent.filter((r) => r.holdsWords).map((r): Scored => ({ message: r.message, score: 0, match: 'keyword' }));
      return [...windowed.map((h): Scored => ({ ...h, score: keywordLikelihood(h.score), match: 'keyword' })), ...extra];
    }
    const { ranked, byFusion } = answer;
    const likelihood = meaningLikelihood(mode, Math.max(...ranked.map((r) => r.score)), byFusion);
    return ranked.map((r): Scored => ({ message: byId.get(r.id)!, score: likelihood(r.score), match: r.match })).sort(byScore);
  }
}
