/**
 * What a hit's `score` says: an estimate of the chance that it answers the question, from the
 * ranking's own evidence through a monotone curve fitted on the tuning halves of the real (BEAM) and
 * the generated conversation sets, each weighing the same (bench/fit-calibration.ts; the fit and its
 * table: docs/performance.md). Each curve is straight between its [evidence, likelihood] knots and
 * flat past the last; monotone, so pages keep their order and `min_score` ends a page.
 */
type Knots = ReadonlyArray<readonly [number, number]>;

/** Keyword: BM25 relative to the question's best possible score (bm25.ts questionScale). */
export const KEYWORD_KNOTS: Knots = [
  [0, 0],
  [0.036, 0],
  [0.083, 0.027],
  [0.162, 0.05],
  [0.223, 0.085],
  [0.28, 0.178],
  [0.4, 0.362],
  [0.5, 0.509],
  [0.6, 0.69],
  [0.7, 0.717],
  [0.747, 0.717],
  [1, 0.85],
];

/** Semantic: the cosine of the question's and the memory's vectors. */
export const SIMILARITY_KNOTS: Knots = [
  [0, 0],
  [0.389, 0.023],
  [0.465, 0.037],
  [0.553, 0.05],
  [0.637, 0.06],
  [0.7, 0.071],
  [0.719, 0.088],
  [0.8, 0.088],
  [0.85, 0.113],
  [0.9, 0.133],
  [0.919, 0.133],
  [1, 0.85],
];

/**
 * How much a hybrid hit's distance to the answer's best blend counts against it. The same blend is a
 * likelier answer in one corpus than another; how far a hit trails the first is read the same in
 * both (docs/performance.md).
 */
export const TRAIL_WEIGHT = 6;

/**
 * Hybrid: the re-ranking's (or the fusion's) 0..1 blend of keyword and meaning, less TRAIL_WEIGHT ×
 * how far it trails the answer's best blend (the first hit is read by its blend alone).
 */
export const BLEND_KNOTS: Knots = [
  [0, 0],
  [0.002, 0],
  [0.019, 0.044],
  [0.098, 0.059],
  [0.101, 0.06],
  [0.196, 0.067],
  [0.256, 0.087],
  [0.284, 0.09],
  [0.309, 0.142],
  [0.315, 0.148],
  [0.365, 0.16],
  [0.368, 0.188],
  [0.369, 0.225],
  [0.373, 0.231],
  [0.385, 0.236],
  [0.39, 0.248],
  [0.436, 0.262],
  [0.437, 0.333],
  [0.451, 0.355],
  [0.458, 0.377],
  [0.461, 0.407],
  [0.559, 0.47],
  [0.567, 0.492],
  [0.575, 0.517],
  [0.62, 0.588],
  [0.695, 0.591],
  [0.732, 0.669],
  [0.754, 0.727],
  [0.833, 0.756],
  [0.844, 0.85],
  [0.866, 0.887],
  // Past the data: a question made of a memory's own words blends to about 0.9 (the re-ranking's
  // alignment counts an exact word 0.8), and scores at least 0.85 from there, as in the other modes.
  [0.9, 0.887],
];

/**
 * Hybrid with `openai` embeddings (or when the local re-ranking is not available): the fusion's 0..1
 * blend (embeddings/fusion.ts), read against the first hit the same way. Fitted on the `openai` path's
 * code with the local embedder's vectors standing in for a model's (bench/recall-real.ts
 * RECALL_EMBEDDER=openai-fake): a real model ranks better, so its hits answer at least this often.
 */
export const FUSION_KNOTS: Knots = [
  [0, 0],
  [0.001, 0],
  [0.025, 0.063],
  [0.061, 0.067],
  [0.324, 0.093],
  [0.358, 0.112],
  [0.405, 0.123],
  [0.44, 0.138],
  [0.478, 0.149],
  [0.487, 0.166],
  [0.502, 0.172],
  [0.544, 0.205],
  [0.623, 0.226],
  [0.649, 0.249],
  [0.661, 0.268],
  [0.695, 0.298],
  [0.81, 0.383],
  [0.838, 0.499],
  [0.902, 0.651],
  [0.906, 0.75],
  [0.91, 0.754],
  // The data's top, where a question of a memory's own words lands (its blend about 0.97).
  [0.955, 0.847],
];

function along(knots: Knots, x: number): number {
  if (!(x > knots[0]![0])) return knots[0]![1];
  for (let i = 1; i < knots.length; i++) {
    const [x1, y1] = knots[i]!;
    if (x <= x1) {
      const [x0, y0] = knots[i - 1]!;
      return y0 + ((y1 - y0) * (x - x0)) / (x1 - x0);
    }
  }
  return knots.at(-1)![1];
}

const rounded = (p: number) => Math.round(p * 1000) / 1000;

export const keywordLikelihood = (relativeBm25: number) => rounded(along(KEYWORD_KNOTS, relativeBm25));
export const similarityLikelihood = (cosine: number) => rounded(along(SIMILARITY_KNOTS, cosine));
/** A hybrid hit's evidence: its blend less TRAIL_WEIGHT × how far it trails `best`, the answer's first hit's blend. */
const trailed = (blend: number, best: number) => blend - TRAIL_WEIGHT * Math.max(0, best - blend);

/** `best`: the best blend of the same answer (the first hit's, on every page); a hit's own when it is the first. */
export const blendLikelihood = (blend: number, best = blend) => rounded(along(BLEND_KNOTS, trailed(blend, best)));
/** The fusion's blend (with `openai` embeddings), read as blendLikelihood reads the re-ranking's. */
export const fusionLikelihood = (blend: number, best = blend) => rounded(along(FUSION_KNOTS, trailed(blend, best)));

/**
 * How an answer ranked by meaning reads its hits' raw scores: semantic by the similarity; hybrid
 * against `best`, the answer's first blend, on the curve of what blended them (the re-ranking's, or
 * the fusion's when `byFusion`). Recall and chat search alike.
 */
export function meaningLikelihood(mode: 'hybrid' | 'semantic', best?: number, byFusion?: boolean): (score: number) => number {
  if (mode === 'semantic') return similarityLikelihood;
  const blended = byFusion ? fusionLikelihood : blendLikelihood;
  return (score) => blended(score, best);
}
