// Recall by meaning, measured offline: for each question of facts.json, where its fact ranks among
// the facts and distractor notes by (a) keyword (the server's SQLite FTS5 BM25, keyword-index.ts),
// (b) semantic (cosine of the local embedder's vectors), (c) hybrid (fusion.ts). The fusion's
// constants are tuned on the odd-numbered facts (dev) and shown on the even ones (test) too. A
// second query list, the facts' own key words, checks that hybrid keeps exact matches at rank 1.
// (d) hybrid + rerank: the window of the best RERANK_SEMANTIC vector hits and DEPTH keyword hits
// re-ranked by rerank.ts (density-corrected cosine, word alignment, keyword score) with the weights
// recall uses for a question in other words (RERANK_OTHER_WORDS), chosen on the dev half too
// (--sweep shows the grid, --links the WordNet links' and the time prior's weights).
//
// Usage: node --import tsx bench/recall-eval/evaluate.ts [--sweep] [--links]
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLocalEmbedderInProcess } from '../../server/src/embeddings/local-embedder.js';
import { FUSION_DEFAULTS, type FusionOptions, fuse, type Hit } from '../../server/src/embeddings/fusion.js';
import type { LoadInfo } from '../../server/src/embeddings/local-model.js';
import { RERANK_OTHER_WORDS, type RerankCandidate, type RerankOptions } from '../../server/src/embeddings/rerank.js';
import { WIDE_VECTOR_WINDOW } from '../../server/src/recall/hybrid.js';
import { type Fact, loadEvalSet } from './data.js';
import { KeywordIndex } from './keyword-index.js';

/** Hits taken from each side before fusing (the server would page the same way). */
const DEPTH = 100;
/** Vector hits in the re-ranking window (with the DEPTH keyword hits), as recall reads them. */
const RERANK_SEMANTIC = WIDE_VECTOR_WINDOW;

interface Query {
  fact: Fact;
  text: string;
  keyword: Hit[];
  semantic: Hit[];
  /** The re-ranking window: keyword hits first, then vector hits not among them. */
  window: RerankCandidate[];
}
interface Scores {
  r1: number;
  r5: number;
  mrr: number;
}

function score(ranked: Array<{ fact: Fact; hits: Hit[] }>): Scores {
  let r1 = 0;
  let r5 = 0;
  let mrr = 0;
  for (const { fact, hits } of ranked) {
    const rank = hits.findIndex((h) => h.id === fact.id);
    if (rank === 0) r1++;
    if (rank >= 0 && rank < 5) r5++;
    if (rank >= 0) mrr += 1 / (rank + 1);
  }
  const n = ranked.length || 1;
  return { r1: r1 / n, r5: r5 / n, mrr: mrr / n };
}

const hybrid = (queries: Query[], options: FusionOptions) =>
  score(queries.map((q) => ({ fact: q.fact, hits: fuse(q.keyword, q.semantic, options) })));
const fmt = (s: Scores) => `${s.r1.toFixed(3)}  ${s.r5.toFixed(3)}  ${s.mrr.toFixed(3)}`;
const label = (o: FusionOptions) =>
  o.method === 'rrf' ? `rrf k=${o.k} kw=${o.keywordWeight}` : `weighted kw=${o.keywordWeight} half=${o.keywordHalf} p=${o.keywordPower}`;

async function main() {
  const { facts, docs } = loadEvalSet();
  const started = performance.now();
  let load: LoadInfo | undefined;
  const embedder = createLocalEmbedderInProcess({ cacheDir: join(tmpdir(), 'mind-recall-eval'), onLoad: (info) => (load = info) });
  const docVectors = await embedder.embed(docs.map((d) => d.content));
  const contentOf = new Map(docs.map((d) => [d.id, d.content]));
  const embedMs = performance.now() - started - (load?.ms ?? 0);
  const keywordIndex = new KeywordIndex(docs);

  const semanticHits = (vector: Float32Array): Hit[] => {
    const hits = docVectors.map((v, i) => {
      let dot = 0;
      for (let d = 0; d < v.length; d++) dot += v[d]! * vector[d]!;
      return { id: docs[i]!.id, score: dot };
    });
    return hits.sort((a, b) => b.score - a.score);
  };
  const queries = async (text: (f: Fact) => string): Promise<Query[]> => {
    const vectors = await embedder.embed(facts.map(text));
    return facts.map((fact, i) => {
      const keyword = keywordIndex.search(text(fact), DEPTH);
      const all = semanticHits(vectors[i]!);
      const similarity = new Map(all.map((h) => [h.id, h.score]));
      const keywordScore = new Map(keyword.map((h) => [h.id, h.score]));
      const ids = new Set([...keyword.map((h) => h.id), ...all.slice(0, RERANK_SEMANTIC).map((h) => h.id)]);
      const window = [...ids].map((id) => ({
        id,
        text: contentOf.get(id)!,
        keywordScore: keywordScore.get(id) ?? 0,
        similarity: similarity.get(id),
      }));
      return { fact, text: text(fact), keyword, semantic: all.slice(0, DEPTH), window };
    });
  };
  const reranked = async (list: Query[], options: RerankOptions = RERANK_OTHER_WORDS) => {
    const out: Array<{ fact: Fact; hits: Hit[] }> = [];
    for (const q of list) out.push({ fact: q.fact, hits: await embedder.rerank(q.text, q.window, options) });
    return score(out);
  };
  const questions = await queries((f) => f.question);
  const keywordQueries = await queries((f) => f.keywords);
  const dev = questions.filter((_, i) => i % 2 === 0);
  const test = questions.filter((_, i) => i % 2 === 1);

  const candidates: FusionOptions[] = [
    ...[1, 2, 3].flatMap((p) =>
      [0.3, 0.5, 0.7].flatMap((w) =>
        [10, 15, 20].map((h): FusionOptions => ({ method: 'weighted', keywordWeight: w, keywordHalf: h, keywordPower: p })),
      ),
    ),
    ...[10, 30, 60, 100].flatMap((k) => [0.3, 0.5].map((w): FusionOptions => ({ method: 'rrf', k, keywordWeight: w }))),
  ];
  console.log(
    `${facts.length} facts, ${docs.length} memories (${docs.length - facts.length} distractors); local model ${load?.built ? 'built' : 'loaded'} in ${Math.round(load?.ms ?? 0)} ms, ${docs.length} memories embedded in ${Math.round(embedMs)} ms\n`,
  );
  if (process.argv.includes('--sweep')) {
    console.log('fusion sweep (paraphrased questions; keyword-style rank-1 rate)\n');
    console.log('fusion                          dev r@1 r@5   MRR    test r@1 r@5   MRR    all r@5   kw-style@1');
    for (const c of candidates) {
      console.log(
        `${label(c).padEnd(31)} ${fmt(hybrid(dev, c))}   ${fmt(hybrid(test, c))}   ${hybrid(questions, c).r5.toFixed(3)}     ${hybrid(keywordQueries, c).r1.toFixed(3)}`,
      );
    }
    console.log('');
    console.log('rerank sweep (paraphrased questions; keyword-style rank-1 rate), best 25 by dev r@5 + MRR/10\n');
    const grid: RerankOptions[] = [];
    for (const densityWeight of [0.75, 1, 1.5])
      for (const keywordWeight of [0.35, 0.55])
        for (const alignWeight of [0.5, 0.6, 0.7])
          for (const forwardShare of [0.8, 1])
            for (const hubWeight of [0, 0.4, 0.5])
              grid.push({ ...RERANK_OTHER_WORDS, densityWeight, keywordWeight, alignWeight, forwardShare, hubWeight });
    const results: Array<{ o: RerankOptions; dev: Scores }> = [];
    for (const o of grid) results.push({ o, dev: await reranked(dev, o) });
    results.sort((a, b) => b.dev.r5 + b.dev.mrr / 10 - (a.dev.r5 + a.dev.mrr / 10));
    console.log('hub density kw   align floor fwd   dev r@1 r@5   MRR    test r@1 r@5   MRR    all r@5  kw-style@1');
    for (const { o, dev: d } of results.slice(0, 25)) {
      const cells = [o.hubWeight, o.densityWeight, o.keywordWeight, o.alignWeight, o.floor, o.forwardShare].map((v) => String(v).padEnd(5));
      console.log(
        `${cells.join(' ')} ${fmt(d)}   ${fmt(await reranked(test, o))}   ${(await reranked(questions, o)).r5.toFixed(3)}    ${(await reranked(keywordQueries, o)).r1.toFixed(3)}`,
      );
    }
    console.log('');
  }
  if (process.argv.includes('--links')) {
    console.log('WordNet links and the time prior (paraphrased questions), the rest as RERANK_OTHER_WORDS\n');
    console.log('link  time  dev r@1 r@5   MRR    test r@1 r@5   MRR    all r@5');
    for (const linkSimilarity of [0, 0.6, 0.65, 0.7, 0.75, 0.8])
      for (const timeWeight of [0, 0.1]) {
        const o = { ...RERANK_OTHER_WORDS, linkSimilarity, timeWeight };
        const cells = [linkSimilarity, timeWeight].map((v) => String(v).padEnd(5));
        console.log(
          `${cells.join(' ')} ${fmt(await reranked(dev, o))}   ${fmt(await reranked(test, o))}   ${(await reranked(questions, o)).r5.toFixed(3)}`,
        );
      }
    console.log('');
  }

  const rows: Array<[string, Scores, Scores]> = [
    [
      'keyword (FTS5 BM25)',
      score(questions.map((q) => ({ fact: q.fact, hits: q.keyword }))),
      score(keywordQueries.map((q) => ({ fact: q.fact, hits: q.keyword }))),
    ],
    [
      'semantic (local)',
      score(questions.map((q) => ({ fact: q.fact, hits: q.semantic }))),
      score(keywordQueries.map((q) => ({ fact: q.fact, hits: q.semantic }))),
    ],
    [`hybrid (${label(FUSION_DEFAULTS)})`, hybrid(questions, FUSION_DEFAULTS), hybrid(keywordQueries, FUSION_DEFAULTS)],
    ['hybrid + rerank (rerank.ts)', await reranked(questions), await reranked(keywordQueries)],
  ];
  console.log('                                 paraphrased questions     keyword-style queries');
  console.log('ranking                          r@1    r@5    MRR         r@1    r@5    MRR');
  for (const [name, paraphrased, keywordStyle] of rows) {
    console.log(`${name.padEnd(32)} ${fmt(paraphrased).replaceAll('  ', '  ')}       ${fmt(keywordStyle)}`);
  }
  console.log(`\nhybrid on the dev half: ${fmt(hybrid(dev, FUSION_DEFAULTS))}; on the test half: ${fmt(hybrid(test, FUSION_DEFAULTS))}`);
  console.log(`hybrid + rerank on the dev half: ${fmt(await reranked(dev))}; on the test half: ${fmt(await reranked(test))}`);
  const windowSize = questions.reduce((t, q) => t + q.window.length, 0) / questions.length;
  const timed = performance.now();
  await reranked(questions);
  const perQuery = (performance.now() - timed) / questions.length;
  console.log(`rerank: ${windowSize.toFixed(0)} candidates per question on average, ${perQuery.toFixed(1)} ms per query (in process)`);
  const missed = keywordQueries.filter((q) => fuse(q.keyword, q.semantic, FUSION_DEFAULTS)[0]?.id !== q.fact.id);
  for (const q of missed) console.log(`keyword-style query not at rank 1: "${q.fact.keywords}" (${q.fact.id})`);
  for (const q of keywordQueries) {
    const [top] = await embedder.rerank(q.text, q.window);
    if (top?.id !== q.fact.id) console.log(`keyword-style query not at rank 1 after rerank: "${q.fact.keywords}" (${q.fact.id})`);
  }
  keywordIndex.close();
}

await main();
