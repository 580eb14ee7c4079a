import type { Conn } from '../db/database.js';
import { itemsWithinBytes } from '../http/cursor.js';
import type { PagePosition, RecallFilter, RecallRow } from '../memories/recall-filter.js';
import type { MemoriesStore } from '../memories/store.js';
import { FUSION_DEFAULTS, fuse } from '../embeddings/fusion.js';
import { type RerankCandidate, type RerankHit, type RerankOptions, rerankOptionsFor } from '../embeddings/rerank.js';
import { type Meaning, SIMILARITY_FLOOR } from '../meaning/service.js';
import { embeddingText } from '../meaning/store.js';
import { questionTerms, termsHeld, wordsOf } from '../embeddings/coverage.js';

export type RecallMode = 'hybrid' | 'keyword' | 'semantic';
export type Match = 'keyword' | 'semantic' | 'both';

export interface MatchedRow extends RecallRow {
  match: Match;
}

/**
 * The fused ranking covers the best WINDOW of each ranking (the same on every page, so paging never
 * repeats or skips a hit). Keyword hits beyond the keyword window follow it, score 0, in keyword order.
 */
export const WINDOW = 50;

/**
 * Where a page starts: an offset in the fused window, or after a keyword hit of the tail. `asOf`
 * (absent on a first page): the newest vector the first page saw; later pages see only vectors
 * stored until then, so memories embedded in the background meanwhile do not shift the window.
 */
export type HybridPosition = ({ offset: number } | { after: PagePosition }) & { asOf?: string };

/** With the local embedder's re-ranking, the vector window is this wide (embeddings/rerank.ts was tuned on it). */
export const RERANK_VECTOR_WINDOW = 50;

/**
 * When no keyword hit holds PARAPHRASE_WORDS of the question's words (it asks in other words), the
 * re-ranking reads this many nearest memories, however little similar (no SIMILARITY_FLOOR): the
 * answer's own words are not there to find it, and its vector is often further down than the first
 * RERANK_VECTOR_WINDOW. 300 put the answer in the first five more often than 200, as often as 400
 * (docs/performance.md).
 */
export const WIDE_VECTOR_WINDOW = 300;
export const PARAPHRASE_WORDS = 2;

/** Re-ranks the fused window by meaning (the local embedder) with `options`, or undefined to keep the fused order. */
export type Reranker = (query: string, candidates: RerankCandidate[], options: RerankOptions) => Promise<RerankHit[] | undefined>;

/** Where hybrid recall reads: memories' keyword pages and rows (the store), and meaning's vector index. */
export interface HybridSources {
  conn: Conn;
  memories: MemoriesStore;
  meaning: Meaning;
}

export interface HybridQuery {
  mode: 'hybrid' | 'semantic';
  /** The question as asked (the re-ranking reads its words). */
  q: string;
  rerank?: Reranker;
  filter: RecallFilter;
  /** The query's vector; undefined when the embedder failed or was too slow (keyword only). */
  vector: Float32Array | undefined;
  position: HybridPosition;
  limit: number;
  /** A page ends early once its hits' JSON (as the answer shows them) reaches this many bytes. */
  maxBytes: number;
}

/**
 * A page of recall by meaning (mode semantic) or by meaning and words fused (mode hybrid), and where
 * the next page starts: the keyword window from memories' index and the vector window from meaning's,
 * fused here. Verified memories first on equal scores, then the newest.
 */
export async function recallByMeaning(
  source: HybridSources,
  mindId: string,
  query: HybridQuery,
): Promise<{ hits: MatchedRow[]; next: HybridPosition | undefined; best?: number; byFusion?: boolean }> {
  const reranking = query.mode === 'hybrid' && query.rerank !== undefined;
  const { conn, memories } = source;
  const keyword = query.mode === 'hybrid' ? await memories.recall(conn, mindId, query.filter, WINDOW + 1) : [];
  const windowed = keyword.slice(0, WINDOW);
  // Read only when the window is re-ranked by meaning: without a vector there is no window to widen.
  const wide = reranking && query.vector !== undefined && !someHoldsWords(query.q, windowed, PARAPHRASE_WORDS);
  const vectorWindow = wide ? WIDE_VECTOR_WINDOW : reranking ? RERANK_VECTOR_WINDOW : WINDOW;
  const floor = wide ? -1 : SIMILARITY_FLOOR;
  const { hits: semantic, asOf } = query.vector
    ? await nearestMemories(source, mindId, query.filter, query.vector, vectorWindow, floor, query.position.asOf)
    : { hits: [], asOf: query.position.asOf ?? '' };
  if (query.mode === 'semantic') {
    const offset = 'offset' in query.position ? query.position.offset : 0;
    const ranked = semantic.map((row): MatchedRow => ({ ...row, match: 'semantic' })).sort(byScore);
    return pageOf(ranked, offset, query, asOf);
  }
  const semanticIds = new Set(semantic.map((r) => r.memory.id));
  let hits: MatchedRow[] = [];
  let tailFrom: PagePosition | undefined;
  let best: number | undefined;
  let byFusion: boolean | undefined;
  if ('offset' in query.position) {
    // A question in other words, or one that asks for a summary, has weights of its own (rerank-options.ts).
    const options = rerankOptionsFor(query.q, wide);
    const reranked = reranking ? await rerankWindow(query, windowed, semantic, options) : undefined;
    const fused = reranked ?? fuseWindow(windowed, semantic);
    // The answer's best blend, the same on every page (a hit's score says how far it trails it).
    best = fused[0]?.score;
    byFusion = !reranked;
    const page = pageOf(fused, query.position.offset, query, asOf);
    if (page.next || keyword.length <= WINDOW) return { ...page, best, byFusion };
    hits = page.hits;
    tailFrom = positionOf(windowed.at(-1)!);
  } else {
    tailFrom = query.position.after;
  }
  // The tail: keyword hits past the window, without those the fused window showed for their meaning.
  const wanted = query.limit - hits.length;
  const tail = (await memories.recall(conn, mindId, query.filter, wanted + semanticIds.size + 1, tailFrom)).filter(
    (row) => !semanticIds.has(row.memory.id),
  );
  const fromWindow = hits.length;
  hits.push(...tail.slice(0, wanted).map((row): MatchedRow => ({ memory: row.memory, score: 0, match: 'keyword' })));
  // The window's hits fit (else the page ended in the window), so the byte bound ends the page in the tail.
  hits = hits.slice(0, bytesFit(hits, query.maxBytes));
  const shown = hits.length - fromWindow;
  // A page the fused window filled exactly (nothing of the tail shown) continues where the tail starts.
  const last = tail[shown - 1];
  return { hits, next: tail.length > shown ? { after: last ? positionOf(last) : tailFrom, asOf } : undefined, best, byFusion };
}

/** How many hits fit the byte bound, counted as the answer shows them (memory, score, match). */
const bytesFit = (hits: MatchedRow[], maxBytes: number) =>
  itemsWithinBytes(
    hits.map((h) => ({ ...h.memory, score: h.score, match: h.match })),
    maxBytes,
  );

const positionOf = (row: RecallRow): PagePosition => ({ score: row.score, updatedAt: row.memory.updated_at, id: row.memory.id });

const byScore = (a: MatchedRow, b: MatchedRow) =>
  b.score - a.score ||
  Number(b.memory.verified) - Number(a.memory.verified) ||
  b.memory.updated_at.localeCompare(a.memory.updated_at) ||
  b.memory.id.localeCompare(a.memory.id);

function pageOf(
  ranked: MatchedRow[],
  offset: number,
  page: { limit: number; maxBytes: number },
  asOf: string,
): { hits: MatchedRow[]; next: HybridPosition | undefined } {
  const window = ranked.slice(offset, offset + page.limit);
  const hits = window.slice(0, bytesFit(window, page.maxBytes));
  const end = offset + hits.length;
  return { hits, next: end < ranked.length ? { offset: end, asOf } : undefined };
}

/** The two windows re-ranked by meaning (embeddings/rerank.ts), or undefined when the re-ranking is not available. */
async function rerankWindow(
  query: HybridQuery,
  keyword: RecallRow[],
  semantic: RecallRow[],
  options: RerankOptions,
): Promise<MatchedRow[] | undefined> {
  const candidates = new Map<string, RerankCandidate & { row: RecallRow; match: Match }>();
  for (const row of keyword) {
    candidates.set(row.memory.id, { id: row.memory.id, text: embeddingText(row.memory), keywordScore: row.score, row, match: 'keyword' });
  }
  for (const row of semantic) {
    const seen = candidates.get(row.memory.id);
    if (seen) Object.assign(seen, { similarity: row.score, match: 'both' });
    else
      candidates.set(row.memory.id, { id: row.memory.id, text: embeddingText(row.memory), similarity: row.score, row, match: 'semantic' });
  }
  const ranked = await query.rerank!(
    query.q,
    [...candidates.values()].map(({ row: _row, match: _match, ...candidate }) => candidate),
    options,
  );
  if (!ranked) return undefined;
  return ranked
    .map(({ id, score }): MatchedRow => {
      const candidate = candidates.get(id)!;
      return { memory: candidate.row.memory, score, match: candidate.match };
    })
    .sort(byScore);
}

/** The two windows as one ranking (embeddings/fusion.ts), each hit saying how it matched. */
function fuseWindow(keyword: RecallRow[], semantic: RecallRow[]): MatchedRow[] {
  const byId = new Map<string, RecallRow>();
  for (const row of [...keyword, ...semantic]) byId.set(row.memory.id, row);
  const inKeyword = new Set(keyword.map((r) => r.memory.id));
  const inSemantic = new Set(semantic.map((r) => r.memory.id));
  const hits = (list: RecallRow[]) => list.map((r) => ({ id: r.memory.id, score: r.score }));
  const ranked = fuse(hits(keyword), hits(semantic), FUSION_DEFAULTS);
  // A keyword hit the fusion gave nothing (only common words matched) is still a hit.
  const fusedIds = new Set(ranked.map((h) => h.id));
  for (const row of keyword) if (!fusedIds.has(row.memory.id)) ranked.push({ id: row.memory.id, score: 0 });
  return ranked
    .map(({ id, score }): MatchedRow => {
      const match: Match = inKeyword.has(id) ? (inSemantic.has(id) ? 'both' : 'keyword') : 'semantic';
      return { memory: byId.get(id)!.memory, score, match };
    })
    .sort(byScore);
}

/** Whether a keyword hit holds `count` of the question's ranking words (a variant alone half), as the re-ranking reads it. */
function someHoldsWords(q: string, rows: RecallRow[], count: number): boolean {
  const terms = questionTerms(q);
  const needed = Math.min(count, terms.length);
  return rows.some((row) => termsHeld(terms, wordsOf(embeddingText(row.memory))) >= needed);
}

/**
 * The mind's memories nearest to the vector that pass the filters, closest first, at least `floor`
 * similar (SIMILARITY_FLOOR; -1, any, for a wide window). Filters are applied to the nearest
 * neighbours; a selective filter reads more of them.
 */
async function nearestMemories(
  { conn, memories, meaning }: HybridSources,
  mindId: string,
  filter: RecallFilter,
  vector: Float32Array,
  depth: number,
  floor: number,
  asOf: string | undefined,
): Promise<{ hits: RecallRow[]; asOf: string }> {
  const filtered =
    filter.category !== undefined ||
    filter.key !== undefined ||
    filter.keyPrefix !== undefined ||
    filter.tags.length > 0 ||
    filter.verified !== undefined ||
    filter.since ||
    filter.asOf;
  const near = await meaning.nearest(conn, mindId, vector, filtered ? depth * 5 : depth + 20, asOf);
  const neighbours = near.neighbours.filter((n) => n.similarity >= floor);
  if (neighbours.length === 0) return { hits: [], asOf: near.asOf };
  const similarity = new Map(neighbours.map((n) => [n.seq, n.similarity]));
  const found = await memories.findBySeqs(
    conn,
    mindId,
    filter,
    neighbours.map((n) => n.seq),
    depth,
  );
  return { hits: found.map(({ seq, memory }) => ({ memory, score: similarity.get(seq)! })), asOf: near.asOf };
}
