// Fits score-calibration.ts's curves (server/src/search/score-calibration.ts): for each mode, the
// likelihood that a hit answers its question as a non-decreasing function of the ranking's evidence,
// by isotonic regression (pool adjacent violators) over the tuning halves' hits, each set weighing
// the same, then read at the evidence's quantiles as knots. The points come from bench/recall-real.ts
// (RECALL_POINTS=<file>, once with RECALL_SET=generated) run with the curves set to the identity
// (keyword [[0, 0], [2.5, 1]], so evidence = score × 2.5; the others [[0, 0], [1, 1]]; hybrid's evidence is
// its blend less TRAIL_WEIGHT × how far it trails the answer's first hit, negative ones left out).
//
//   node --import tsx bench/fit-calibration.ts <points.json>...
import { readFileSync } from 'node:fs';
import type { ScoredHit } from './recall-real.js';

const EVIDENCE_SCALE: Record<string, number> = { keyword: 2.5, semantic: 1, hybrid: 1 };
/** Knots at these quantiles of the evidence and on this grid above it (where hits are few, but scores high). */
const QUANTILES = [0.1, 0.25, 0.5, 0.75, 0.9];
const GRID: Record<string, number[] | 'steps'> = {
  keyword: [0.3, 0.4, 0.5, 0.6, 0.7, 0.8],
  semantic: [0.7, 0.75, 0.8, 0.85, 0.9],
  // Hybrid's knots are the isotonic fit's own steps (where each block of equal likelihood ends), not
  // quantiles: the real and the generated sets differ most between 0.5 and 0.8, and knots on a grid
  // there moved the generated set's 0.6-0.8 band out (docs/performance.md).
  hybrid: 'steps',
};
/**
 * Past the data, one knot each, where a question made of a memory's own words lands, which no
 * benchmark question reaches: keyword's relative BM25 of 1 (every word of a question whose words no
 * other text holds), a cosine of 1, and the re-ranking's blend of about 0.9 (its alignment counts
 * an exact word 0.8). The curves continue the data's rise there (keyword 0.5-0.8 at 0.6-0.8).
 */
const BEYOND: Record<string, Array<[number, number]>> = { keyword: [[1, 0.85]], semantic: [[1, 0.85]], hybrid: [[0.9, 0.85]] };
/** Nothing above this quantile gets a knot of its own: the last few hits alone would set the top. */
const TOP = 0.999;

interface Point {
  x: number;
  y: number;
  w: number;
}

/** Pool adjacent violators: the weighted least-squares non-decreasing fit, as blocks of (last x, value). */
export function isotonic(points: Point[]): Array<{ x: number; y: number; w: number }> {
  const blocks: Array<{ x: number; y: number; w: number }> = [];
  for (const p of [...points].sort((a, b) => a.x - b.x)) {
    blocks.push({ x: p.x, y: p.y, w: p.w });
    while (blocks.length > 1 && blocks.at(-2)!.y >= blocks.at(-1)!.y) {
      const b = blocks.pop()!;
      const a = blocks.pop()!;
      blocks.push({ x: b.x, y: (a.y * a.w + b.y * b.w) / (a.w + b.w), w: a.w + b.w });
    }
  }
  return blocks;
}

function knotsFor(points: Point[], grid: number[] | 'steps', beyond: Array<[number, number]>): Array<[number, number]> {
  const fit = isotonic(points);
  const valueAt = (x: number) => (fit.find((b) => b.x >= x) ?? fit.at(-1)!).y;
  const xs = points.map((p) => p.x).sort((a, b) => a - b);
  const at = (q: number) => xs[Math.floor(q * (xs.length - 1))]!;
  const top = at(TOP);
  const inside = grid === 'steps' ? fit.map((b) => b.x) : [...QUANTILES.map(at), ...grid];
  const wanted = [...inside.filter((x) => x < top), top].sort((a, b) => a - b);
  const knots: Array<[number, number]> = [[0, 0]];
  for (const x of wanted) {
    if (x <= knots.at(-1)![0]) continue;
    knots.push([Number(x.toFixed(3)), Number(Math.max(valueAt(x), knots.at(-1)![1]).toFixed(3))]);
  }
  for (const [x, y] of beyond) if (x > knots.at(-1)![0]) knots.push([x, Math.max(y, knots.at(-1)![1])]);
  return knots;
}

const sets = process.argv
  .slice(2)
  .map((file) => (JSON.parse(readFileSync(file, 'utf8')) as ScoredHit[]).filter((p) => p.half === 'tuning'));
for (const mode of ['keyword', 'semantic', 'hybrid']) {
  const points: Point[] = [];
  for (const set of sets) {
    const own = set.filter((p) => p.mode === mode && p.score > 0);
    for (const p of own) points.push({ x: p.score * EVIDENCE_SCALE[mode]!, y: p.answers ? 1 : 0, w: 1 / own.length });
  }
  if (points.length === 0) continue;
  console.log(`${mode}: ${JSON.stringify(knotsFor(points, GRID[mode]!, BEYOND[mode]!))}`);
}
