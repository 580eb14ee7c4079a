import type { MindCaller } from '../http/caller.js';
import { ByteLru } from '../embeddings/byte-lru.js';
import type { EmbedJob, Embedder } from '../embeddings/embedder.js';
import { FUSION_DEFAULTS, fuse } from '../embeddings/fusion.js';
import type { LocalEmbedder } from '../embeddings/local-embedder.js';
import { rerankOptionsFor } from '../embeddings/rerank.js';
import { type Meaning, SIMILARITY_FLOOR } from '../meaning/service.js';
import { EMBEDDED_CONTENT_CHARS } from '../meaning/store.js';

export type ChatMatch = 'keyword' | 'semantic' | 'both';

/** The mind searching and its account: the embedder serves accounts in turn, then their minds. */
export type ChatSearcher = Pick<MindCaller, 'userId' | 'mindId'>;

/** A message chat search asks to rank by meaning. */
export interface ChatCandidate {
  id: string;
  text: string;
  /** Its keyword score, when it is one of the best keyword hits. */
  keywordScore?: number;
  /** It holds a word of the query (a keyword hit, with or without its score). */
  holdsWords: boolean;
}

export interface ChatRanked {
  id: string;
  score: number;
  match: ChatMatch;
}

/** A question waits at most this long for the embedder (as recall's); past it chat search ranks by keyword. */
const QUERY_TIMEOUT_MS = 3_000;
/** Bytes of message vectors kept (and their keys). */
const VECTOR_CACHE_BYTES = 16 * 1024 * 1024;
/**
 * Characters of the window's messages read by meaning, in all (128 K: four of the embedder's slices).
 * A window of 250 chat turns of a few hundred characters fits whole; one of 250 long messages (up to
 * 1 M characters at EMBEDDED_CONTENT_CHARS each) would take the embedder's thread some 100-300 ms per
 * search. About a third of recall's largest window (100 memories of 4 KB).
 */
export const WINDOW_CHARS = 131_072;
/** The cut of a long window is a multiple of this, so it stays the same (and the caches keep) as messages come and go. */
const CUT_STEP = 256;

/**
 * How many characters of each message chat search reads by meaning: all of it up to
 * EMBEDDED_CONTENT_CHARS, unless the window's texts together would pass `budget`; then one length for
 * all (the longest messages are cut, the short ones read whole) that keeps them within it.
 */
export function meaningCut(lengths: readonly number[], budget = WINDOW_CHARS): number {
  const sorted = lengths.map((n) => Math.min(n, EMBEDDED_CONTENT_CHARS)).sort((a, b) => a - b);
  let left = budget;
  for (let i = 0; i < sorted.length; i++) {
    const rest = sorted.length - i;
    if (sorted[i]! * rest > left) return Math.max(CUT_STEP, Math.floor(left / rest / CUT_STEP) * CUT_STEP);
    left -= sorted[i]!;
  }
  return EMBEDDED_CONTENT_CHARS;
}

const cosine = (a: Float32Array, b: Float32Array) => {
  let dot = 0;
  for (let i = 0; i < a.length; i++) dot += a[i]! * b[i]!;
  return dot;
};

/**
 * Chat search's ranking by meaning, with the embedder recall uses (meaning/). There is no
 * background embedding and no vector index of chat: chat search ranks a window of at most 250
 * messages and WINDOW_CHARS of their text (meaningCut), embedded when asked (as questions of the
 * mind's account and mind, before background work) and kept by their text, so a mind's recent
 * messages are embedded once. The similarity decides what is a semantic hit (at
 * least SIMILARITY_FLOOR, as recall's); hybrid re-ranks the hits as recall does: the local
 * embedder's re-ranking (embeddings/rerank.ts), or the fusion of the two rankings (fusion.ts there).
 */
export class ChatRanking {
  private readonly vectors = new ByteLru<Float32Array>(VECTOR_CACHE_BYTES);
  private readonly embedder: Embedder | undefined;

  /** `meaning`: its embedder, not waited for while it is failing (chat search is then by keyword). */
  constructor(private readonly meaning: Meaning) {
    this.embedder = meaning.embedder;
  }

  /** Embeddings are on (MIND_EMBEDDINGS is not off); off, chat search is by keyword only. */
  get enabled(): boolean {
    return this.embedder !== undefined;
  }

  /**
   * The candidates ranked for `q`, best first. semantic: those similar enough to q, by similarity;
   * hybrid: every keyword hit and those similar enough, the keyword score fused with the meaning.
   * undefined when the embedder cannot answer now (failing, too slow): the search is then by keyword.
   */
  async rank(
    searcher: ChatSearcher,
    q: string,
    mode: 'hybrid' | 'semantic',
    candidates: ChatCandidate[],
    signal?: AbortSignal,
  ): Promise<{ ranked: ChatRanked[]; byFusion: boolean } | undefined> {
    if (!this.embedder || !this.meaning.answering()) return undefined;
    const cut = meaningCut(candidates.map((c) => c.text.length));
    const textOf = (c: ChatCandidate) => c.text.slice(0, cut);
    const job = { lane: 'question' as const, userId: searcher.userId, mindId: searcher.mindId };
    const deadline = signal ? AbortSignal.any([signal, AbortSignal.timeout(QUERY_TIMEOUT_MS)]) : AbortSignal.timeout(QUERY_TIMEOUT_MS);
    let similarity: Map<string, number>;
    try {
      similarity = await this.similarities(this.embedder, job, q, candidates, textOf, deadline);
    } catch {
      return undefined;
    }
    const similar = (c: ChatCandidate) => similarity.get(c.id)! >= SIMILARITY_FLOOR;
    if (mode === 'semantic') {
      const ranked = candidates
        .filter(similar)
        .map((c): ChatRanked => ({ id: c.id, score: similarity.get(c.id)!, match: 'semantic' }))
        .sort((a, b) => b.score - a.score);
      return { ranked, byFusion: false };
    }
    const pool = candidates.filter((c) => c.holdsWords || similar(c));
    const matchOf = (c: ChatCandidate): ChatMatch => (c.holdsWords ? (similar(c) ? 'both' : 'keyword') : 'semantic');
    const local = this.embedder as Partial<LocalEmbedder>;
    if (local.rerank) {
      try {
        const reranked = await local.rerank(
          q,
          pool.map((c) => ({
            id: c.id,
            text: textOf(c),
            keywordScore: c.keywordScore,
            similarity: similarity.get(c.id),
          })),
          rerankOptionsFor(q),
          deadline,
          job,
        );
        const byId = new Map(pool.map((c) => [c.id, c]));
        return {
          ranked: reranked.map((h): ChatRanked => ({ id: h.id, score: h.score, match: matchOf(byId.get(h.id)!) })),
          byFusion: false,
        };
      } catch {
        // The fusion below still ranks by meaning.
      }
    }
    const keyword = pool.filter((c) => c.keywordScore !== undefined).map((c) => ({ id: c.id, score: c.keywordScore! }));
    const semantic = pool.filter(similar).map((c) => ({ id: c.id, score: similarity.get(c.id)! }));
    const fused = new Map(
      fuse(
        keyword,
        semantic.sort((a, b) => b.score - a.score),
        FUSION_DEFAULTS,
      ).map((h) => [h.id, h.score]),
    );
    // A keyword hit the fusion gave nothing (past the keyword window, or only weak words) is still a hit.
    return { ranked: pool.map((c): ChatRanked => ({ id: c.id, score: fused.get(c.id) ?? 0, match: matchOf(c) })), byFusion: true };
  }

  /** The cosine of q's vector and each candidate's; vectors not kept are embedded in one call (in slices). */
  private async similarities(
    embedder: Embedder,
    job: EmbedJob & { mindId: string },
    q: string,
    candidates: ChatCandidate[],
    textOf: (c: ChatCandidate) => string,
    signal: AbortSignal,
  ) {
    // By mind and text: one mind's texts never answer faster for another.
    const key = (c: ChatCandidate) => `${job.mindId}\u0000${textOf(c)}`;
    const known = new Map<ChatCandidate, Float32Array>();
    const missing: ChatCandidate[] = [];
    for (const c of candidates) {
      const vector = this.vectors.get(key(c));
      if (vector) known.set(c, vector);
      else missing.push(c);
    }
    const [query, ...embedded] = await embedder.embed([q, ...missing.map(textOf)], signal, job);
    if (!query || embedded.length !== missing.length) throw new Error('the embedder answered fewer vectors than asked');
    missing.forEach((c, i) => {
      known.set(c, embedded[i]!);
      this.vectors.set(key(c), embedded[i]!, embedded[i]!.byteLength + ByteLru.keyBytes(key(c)));
    });
    return new Map(candidates.map((c) => [c.id, cosine(query, known.get(c)!)]));
  }
}
