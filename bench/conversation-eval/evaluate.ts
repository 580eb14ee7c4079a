// hit@5 on the conversation set for any ranking, in process: each conversation's turns are one mind's
// memories, each question is asked of its own conversation only, and a question is a hit when one of
// its evidence turns is among the first five ids the ranking answers. Figures per half (tuning:
// conversations 0-4, report: 5-9), overall and per kind of question.
//
//   node --import tsx bench/conversation-eval/evaluate.ts     textbook BM25's figures
//
// To try a ranking: `await evaluate((turns, q) => myRanking(turns, q.q))` (turns: id and stored content).
import { type Conversation, KINDS, loadConversations, type Question, REPORT, type StoredTurn, storedTurns, TUNING } from './data.js';

/** The first ids of the ranking (only the first five count); may be async (an HTTP recall). */
export type Ranking = (turns: StoredTurn[], question: Question, conversation: Conversation) => string[] | Promise<string[]>;

export interface Figures {
  questions: number;
  hit5: number;
  byKind: Record<string, { questions: number; hit5: number }>;
}

/** Which conversations form each half, and the kinds of question to report (another set than this one: bench/beam-eval). */
export interface Split {
  tuning: readonly number[];
  report: readonly number[];
  kinds: readonly string[];
}
export const GENERATED_SPLIT: Split = { tuning: TUNING, report: REPORT, kinds: KINDS };
export interface HalfFigures {
  tuning: Figures;
  report: Figures;
}

export const K = 5;

/** Tallies hits of questions into figures. */
export function figuresOf(results: Array<{ kind: string; hit: boolean }>, kinds: readonly string[] = KINDS): Figures {
  const byKind: Figures['byKind'] = Object.fromEntries(kinds.map((k) => [k, { questions: 0, hit5: 0 }]));
  let hits = 0;
  for (const r of results) {
    byKind[r.kind] ??= { questions: 0, hit5: 0 };
    const tally = byKind[r.kind]!;
    tally.questions++;
    if (r.hit) {
      tally.hit5++;
      hits++;
    }
  }
  for (const tally of Object.values(byKind)) tally.hit5 = tally.questions ? tally.hit5 / tally.questions : NaN;
  return { questions: results.length, hit5: results.length ? hits / results.length : NaN, byKind };
}

export const isHit = (question: Question, ids: string[]) => ids.slice(0, K).some((id) => question.evidence.includes(id));

/** hit@5 of `rank` on the conversations at `indexes` (default: all), per half. */
export async function evaluate(
  rank: Ranking,
  conversations = loadConversations(),
  indexes?: number[],
  split: Split = GENERATED_SPLIT,
): Promise<HalfFigures> {
  const halves: Record<'tuning' | 'report', Array<{ kind: string; hit: boolean }>> = { tuning: [], report: [] };
  for (const [i, c] of conversations.entries()) {
    if (indexes && !indexes.includes(i)) continue;
    const turns = storedTurns(c);
    const half = split.tuning.includes(i) ? halves.tuning : split.report.includes(i) ? halves.report : undefined;
    if (!half) continue;
    for (const q of c.questions) half.push({ kind: q.kind, hit: isHit(q, await rank(turns, q, c)) });
  }
  return { tuning: figuresOf(halves.tuning, split.kinds), report: figuresOf(halves.report, split.kinds) };
}

/** "0.589 (single-hop 0.637, temporal 0.659, multi-hop 0.391, open-domain 0.359; 1,000 q)". */
export function describe(f: Figures): string {
  const kinds = Object.entries(f.byKind)
    .map(([k, v]) => `${k} ${v.hit5.toFixed(3)}`)
    .join(', ');
  return `${f.hit5.toFixed(3)} (${kinds}; ${f.questions.toLocaleString('en')} q)`;
}

// Textbook Okapi BM25: k1 1.2, b 0.75, IDF ln(1 + (N - n + 0.5) / (n + 0.5)), the statistics of the
// conversation alone, tokens = lower-cased runs of letters and digits, minus a small stop list.
const STOP = new Set(
  (
    'a an the and or but if of at by for with about to from in on into over under up down out off is are was were be been being am ' +
    'do does did doing have has had having i me my we our you your he him his she her it its they them their this that these those ' +
    'what which who whom whose when where why how there here not no so than too very can will would should could just s t'
  ).split(' '),
);

export const tokens = (text: string) => (text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).filter((t) => !STOP.has(t));

export class Bm25Index {
  private readonly docs: Array<{ id: string; tf: Map<string, number>; length: number }>;
  private readonly df = new Map<string, number>();
  private readonly avgLength: number;

  constructor(
    turns: StoredTurn[],
    private readonly k1 = 1.2,
    private readonly b = 0.75,
  ) {
    this.docs = turns.map((t) => {
      const tf = new Map<string, number>();
      const words = tokens(t.content);
      for (const w of words) tf.set(w, (tf.get(w) ?? 0) + 1);
      for (const w of tf.keys()) this.df.set(w, (this.df.get(w) ?? 0) + 1);
      return { id: t.id, tf, length: words.length };
    });
    this.avgLength = this.docs.reduce((s, d) => s + d.length, 0) / (this.docs.length || 1);
  }

  /** Ids by descending score; ties keep the stored order. Documents without a query word are left out. */
  search(query: string, limit = K): string[] {
    const n = this.docs.length;
    const words = [...new Set(tokens(query))];
    const idf = new Map(words.map((w) => [w, Math.log(1 + (n - (this.df.get(w) ?? 0) + 0.5) / ((this.df.get(w) ?? 0) + 0.5))]));
    const scored: Array<{ id: string; score: number }> = [];
    for (const d of this.docs) {
      let score = 0;
      for (const w of words) {
        const f = d.tf.get(w);
        if (f) score += (idf.get(w)! * f * (this.k1 + 1)) / (f + this.k1 * (1 - this.b + (this.b * d.length) / this.avgLength));
      }
      if (score > 0) scored.push({ id: d.id, score });
    }
    return scored
      .sort((x, y) => y.score - x.score)
      .slice(0, limit)
      .map((s) => s.id);
  }
}

/** Textbook BM25 as a Ranking (one index per conversation, built on first use). */
export function textbookBm25(): Ranking {
  const indexes = new Map<string, Bm25Index>();
  return (turns, question, conversation) => {
    const index = indexes.get(conversation.id) ?? new Bm25Index(turns);
    indexes.set(conversation.id, index);
    return index.search(question.q);
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const figures = await evaluate(textbookBm25());
  console.log(`textbook BM25 hit@5, tuning half: ${describe(figures.tuning)}`);
  console.log(`textbook BM25 hit@5, report half: ${describe(figures.report)}`);
}
