/**
 * Hybrid recall: one ranking from the keyword hits (BM25, higher is better) and the
 * vector hits (cosine similarity). Both lists come best first, each cut at the same depth; a memory
 * missing from one list gets nothing from it.
 */
export interface Hit {
  id: string;
  score: number;
}

export type FusionOptions =
  /** Reciprocal rank fusion: sum of weight / (k + rank), rank from 1. */
  | { method: 'rrf'; k: number; keywordWeight: number }
  /**
   * Weighted sum of scores brought to 0..1: the keyword score s (BM25 relative to the question's best
   * possible, search/bm25.ts questionScale) squashed as s^p / (s^p + half^p), p > 1 keeping matches on
   * common words near 0 and those on most of the question's rare words near 1, and the cosine
   * min-max scaled over the vector hits.
   */
  | { method: 'weighted'; keywordWeight: number; keywordHalf: number; keywordPower: number };

/**
 * For embedders without the local re-ranking (an OpenAI-compatible service). Tuned on the tuning half
 * of bench/conversation-eval with the local embedder's vectors standing in (no such service is
 * reachable here), with raw BM25 (half 6); the half was carried to relative BM25 by the ratio of the
 * two scales on those questions, not tuned again.
 */
export const FUSION_DEFAULTS: FusionOptions = { method: 'weighted', keywordWeight: 0.7, keywordHalf: 0.2, keywordPower: 2 };

export function fuse(keyword: readonly Hit[], semantic: readonly Hit[], options: FusionOptions = FUSION_DEFAULTS): Hit[] {
  const scores = new Map<string, number>();
  const add = (id: string, value: number) => {
    scores.set(id, (scores.get(id) ?? 0) + value);
  };
  if (options.method === 'rrf') {
    for (const [i, hit] of keyword.entries()) add(hit.id, options.keywordWeight / (options.k + i + 1));
    for (const [i, hit] of semantic.entries()) add(hit.id, (1 - options.keywordWeight) / (options.k + i + 1));
  } else {
    const { keywordWeight, keywordHalf, keywordPower } = options;
    for (const hit of keyword) {
      if (hit.score <= 0) continue;
      const lifted = hit.score ** keywordPower;
      add(hit.id, (keywordWeight * lifted) / (lifted + keywordHalf ** keywordPower));
    }
    const high = semantic.reduce((max, hit) => Math.max(max, hit.score), -Infinity);
    const low = semantic.reduce((min, hit) => Math.min(min, hit.score), Infinity);
    const span = high - low;
    for (const hit of semantic) add(hit.id, (1 - options.keywordWeight) * (span > 0 ? (hit.score - low) / span : 1));
  }
  // Ties (equal fused scores) keep the keyword order, then the vector order.
  const order = new Map<string, number>();
  for (const hit of [...keyword, ...semantic]) if (!order.has(hit.id)) order.set(hit.id, order.size);
  return [...scores].map(([id, score]) => ({ id, score })).sort((a, b) => b.score - a.score || order.get(a.id)! - order.get(b.id)!);
}
