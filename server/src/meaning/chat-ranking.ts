import type { ChatKeywordScores } from '../chat/keyword-index.js';
import type { ChatByMeaning, ChatCandidate, ChatMatch, ChatRanked } from '../chat/meaning.js';
import { ByteLru } from './embeddings/byte-lru.js';
import type { Embedder } from './embeddings/embedder.js';
import { FUSION_DEFAULTS, type FusionOptions, fuse } from './embeddings/fusion.js';
import type { LocalEmbedder } from './embeddings/local-embedder.js';
import { RERANK_DEFAULTS, type RerankOptions } from './embeddings/rerank.js';
import { SIMILARITY_FLOOR } from './recall.js';
import { EMBEDDED_CONTENT_CHARS } from './store.js';

/** A question waits at most this long for the embedder (as recall's); past it chat search ranks by keyword. */
const QUERY_TIMEOUT_MS = 3_000;
/** Bytes of message vectors kept (and their keys). */
const VECTOR_CACHE_BYTES = 16 * 1024 * 1024;

/** Both databases rank chat by BM25 (chat/keyword-index-*.ts), on memories' scale: memories' squashes. */
const FUSION: Record<ChatKeywordScores, FusionOptions> = { bm25: FUSION_DEFAULTS };
const RERANK: Record<ChatKeywordScores, RerankOptions> = { bm25: RERANK_DEFAULTS };

const cosine = (a: Float32Array, b: Float32Array) => {
  let dot = 0;
  for (let i = 0; i < a.length; i++) dot += a[i]! * b[i]!;
  return dot;
};

/**
 * Chat search's ranking by meaning (chat/meaning.ts) with the embedder recall uses. There is no
 * background embedding and no vector index of chat: chat search ranks a window of at most 250
 * messages, embedded when asked (as questions of the mind, before background work) and kept by their
 * text, so a mind's recent messages are embedded once. The similarity decides what is a semantic hit (at
 * least SIMILARITY_FLOOR, as recall's); hybrid re-ranks the hits as recall does: the local
 * embedder's re-ranking (embeddings/rerank.ts), or the fusion of the two rankings (fusion.ts).
 */
export class ChatRanking implements ChatByMeaning {
  private readonly vectors = new ByteLru<Float32Array>(VECTOR_CACHE_BYTES);

  /** `answering`: false while the embedder is failing (chat search then does not wait for it). */
  constructor(
    private readonly embedder: Embedder | undefined,
    private readonly answering: () => boolean,
  ) {}

  get enabled(): boolean {
    return this.embedder !== undefined;
  }

  async rank(
    mindId: string,
    q: string,
    mode: 'hybrid' | 'semantic',
    candidates: ChatCandidate[],
    scores: ChatKeywordScores,
    signal?: AbortSignal,
  ): Promise<ChatRanked[] | undefined> {
    if (!this.embedder || !this.answering()) return undefined;
    const deadline = signal ? AbortSignal.any([signal, AbortSignal.timeout(QUERY_TIMEOUT_MS)]) : AbortSignal.timeout(QUERY_TIMEOUT_MS);
    let similarity: Map<string, number>;
    try {
      similarity = await this.similarities(this.embedder, mindId, q, candidates, deadline);
    } catch {
      return undefined;
    }
    const similar = (c: ChatCandidate) => similarity.get(c.id)! >= SIMILARITY_FLOOR;
    if (mode === 'semantic') {
      return candidates
        .filter(similar)
        .map((c): ChatRanked => ({ id: c.id, score: similarity.get(c.id)!, match: 'semantic' }))
        .sort((a, b) => b.score - a.score);
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
            text: c.text.slice(0, EMBEDDED_CONTENT_CHARS),
            keywordScore: c.keywordScore,
            similarity: similarity.get(c.id),
          })),
          RERANK[scores],
          deadline,
          { lane: 'question', mindId },
        );
        const byId = new Map(pool.map((c) => [c.id, c]));
        return reranked.map((h): ChatRanked => ({ id: h.id, score: h.score, match: matchOf(byId.get(h.id)!) }));
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
        FUSION[scores],
      ).map((h) => [h.id, h.score]),
    );
    // A keyword hit the fusion gave nothing (past the keyword window, or only weak words) is still a hit.
    return pool.map((c): ChatRanked => ({ id: c.id, score: fused.get(c.id) ?? 0, match: matchOf(c) }));
  }

  /** The cosine of q's vector and each candidate's; vectors not kept are embedded in one call. */
  private async similarities(embedder: Embedder, mindId: string, q: string, candidates: ChatCandidate[], signal: AbortSignal) {
    // By mind and text: one mind's texts never answer faster for another.
    const key = (c: ChatCandidate) => `${mindId}\u0000${c.text.slice(0, EMBEDDED_CONTENT_CHARS)}`;
    const known = new Map<ChatCandidate, Float32Array>();
    const missing: ChatCandidate[] = [];
    for (const c of candidates) {
      const vector = this.vectors.get(key(c));
      if (vector) known.set(c, vector);
      else missing.push(c);
    }
    const job = { lane: 'question' as const, mindId };
    const [query, ...embedded] = await embedder.embed([q, ...missing.map((c) => c.text.slice(0, EMBEDDED_CONTENT_CHARS))], signal, job);
    if (!query || embedded.length !== missing.length) throw new Error('the embedder answered fewer vectors than asked');
    missing.forEach((c, i) => {
      known.set(c, embedded[i]!);
      this.vectors.set(key(c), embedded[i]!, embedded[i]!.byteLength + ByteLru.keyBytes(key(c)));
    });
    return new Map(candidates.map((c) => [c.id, cosine(query, known.get(c)!)]));
  }
}
