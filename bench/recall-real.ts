// Recall over real long conversations (bench/beam-eval: BEAM's chats), measured through the running
// service as bench/recall-conversations.ts does for the generated set: one mind per conversation, one
// memory per turn, every question asked of its mind in each mode. hit@5 per half and per kind of
// question, textbook BM25 on the same turns beside it, and per mode a calibration table: for the
// first ten hits of every question, by score band, how many and the share that answer it.
//
//   node --import tsx bench/recall-real.ts   (DATABASE_URL: also PostgreSQL; BENCH_QUICK=1: 4 conversations;
//     RECALL_POINTS=<file>: each hit's mode, half, score and whether it answers, as JSON;
//     RECALL_SET=generated: the same on bench/conversation-eval's generated set, the second report; RECALL_MODES=hybrid,...;
//     RECALL_EMBEDDER=openai-fake: the service's openai path (MIND_EMBEDDINGS=openai, its fusion) on the local
//     embedder's vectors, served by a fake OpenAI endpoint in this process; RECALL_EMBEDDINGS_URL, _MODEL and
//     _KEY: the openai path on a real endpoint instead, see lib/recall-embedder.ts)
import { writeFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { BEAM_KINDS, BEAM_REPORT, BEAM_TUNING, loadBeam } from './beam-eval/data.js';
import { type Conversation, KINDS, loadConversations, REPORT, storedTurns, TUNING } from './conversation-eval/data.js';
import { describe, evaluate, type Figures, figuresOf, isHit, K, type Split, textbookBm25 } from './conversation-eval/evaluate.js';
import { storeAndEmbed } from './recall-conversations.js';
import { type Row, row, runAlone } from './lib/report.js';
import { type EmbedderPath, startEmbedderPath } from './lib/recall-embedder.js';
import { type DatabaseKind, withMindService } from './lib/servers.js';

const MODES = (process.env.RECALL_MODES?.split(',') ?? ['keyword', 'semantic', 'hybrid']) as Array<'keyword' | 'semantic' | 'hybrid'>;
const GENERATED = process.env.RECALL_SET === 'generated';
const SET_NAME = GENERATED ? 'generated conversations' : 'real conversations (BEAM)';
const SPLIT: Split = GENERATED
  ? { tuning: TUNING, report: REPORT, kinds: KINDS }
  : { tuning: BEAM_TUNING, report: BEAM_REPORT, kinds: BEAM_KINDS };
const loadSet = (): Conversation[] => (GENERATED ? loadConversations() : loadBeam());
/** Hits per question read for the calibration table (hit@5 counts the first five). */
const CALIBRATION_DEPTH = 10;
const BANDS = [0, 0.2, 0.4, 0.6, 0.8];
/** BENCH_QUICK: two conversations of each half. */
const QUICK = GENERATED ? [0, 5] : [0, 1, 20, 21];

type Half = 'tuning' | 'report';
export interface ScoredHit {
  mode: string;
  half: Half;
  score: number;
  answers: boolean;
}

/** Per band: hits, and the share of them that answer their question. */
export function calibrationTable(points: ScoredHit[]): Array<{ band: string; hits: number; answering: number }> {
  return BANDS.map((low, i) => {
    const high = BANDS[i + 1] ?? 1.0001;
    const inBand = points.filter((p) => p.score >= low && p.score < high);
    return {
      band: `${low.toFixed(1)}-${Math.min(high, 1).toFixed(1)}`,
      hits: inBand.length,
      answering: inBand.length ? inBand.filter((p) => p.answers).length / inBand.length : NaN,
    };
  });
}

const label = (half: Half) => (half === 'tuning' ? 'tuning half' : 'report half');

function hitRows(name: string, kind: string, figures: Record<Half, Figures>): Row[] {
  return (['tuning', 'report'] as const)
    .filter((half) => figures[half].questions > 0)
    .map((half) => {
      const f = figures[half];
      const byKind = Object.fromEntries(Object.entries(f.byKind).map(([k, v]) => [`hit5_${k}`, v.hit5]));
      return row(
        `${SET_NAME}, ${name}: hit@${K}, ${label(half)}`,
        kind,
        describe(f),
        { hit5: f.hit5, questions: f.questions, ...byKind },
        undefined,
        f.hit5,
      );
    });
}

function calibrationRows(mode: string, name: string, kind: string, points: ScoredHit[]): Row[] {
  return (['tuning', 'report'] as const).flatMap((half) => {
    const table = calibrationTable(points.filter((p) => p.mode === mode && p.half === half));
    if (table.every((b) => b.hits === 0)) return [];
    const text = table.map((b) => `${b.band}: ${b.hits} hits, ${Number.isNaN(b.answering) ? '-' : b.answering.toFixed(2)}`).join('; ');
    const figures = Object.fromEntries(
      table.flatMap((b) => [
        [`hits_${b.band}`, b.hits],
        [`answering_${b.band}`, b.answering],
      ]),
    );
    return [
      row(`${SET_NAME}, ${name}: score band -> share answering, first ${CALIBRATION_DEPTH} hits, ${label(half)}`, kind, text, figures),
    ];
  });
}

/** The mode as row names give it: with the embedder path when vectors are used and it is not the local one. */
const modeName = (mode: string, path: EmbedderPath) => (path.label && mode !== 'keyword' ? `${mode} (${path.label})` : mode);

export async function benchRecallReal(kind: DatabaseKind, quick = false): Promise<Row[]> {
  const path = await startEmbedderPath();
  try {
    return await recallThroughService(kind, quick, path);
  } finally {
    await path.close();
  }
}

async function recallThroughService(kind: DatabaseKind, quick: boolean, path: EmbedderPath): Promise<Row[]> {
  const conversations = loadSet();
  const indexes = quick ? QUICK : conversations.map((_, i) => i);
  const turnCount = indexes.reduce((n, i) => n + storedTurns(conversations[i]!).length, 0);
  return withMindService(kind, path.env, async (server, client) => {
    const { minds, storedSeconds, embeddedSeconds } = await storeAndEmbed(client, conversations, indexes);
    // Taken now: the questions are embedded by the same endpoint afterwards.
    const fake = path.fakeStats();
    const rows: Row[] = [];
    const points: ScoredHit[] = [];
    for (const mode of MODES) {
      const t = performance.now();
      const results: Record<Half, Array<{ kind: string; hit: boolean }>> = { tuning: [], report: [] };
      for (const i of indexes) {
        const c = conversations[i]!;
        const half: Half = SPLIT.tuning.includes(i) ? 'tuning' : 'report';
        const mind = minds.get(c.id)!;
        for (const question of c.questions) {
          const query = new URLSearchParams({ q: question.q, mode, limit: String(CALIBRATION_DEPTH) });
          const { memories } = await client.ok('GET', `/memory/recall?${query}`, mind.mindKey, undefined, 200);
          const hits = (memories as Array<{ id: string; score: number }>).map((m) => ({
            turn: mind.turnOf.get(m.id) ?? m.id,
            score: m.score,
          }));
          results[half].push({
            kind: question.kind,
            hit: isHit(
              question,
              hits.map((h) => h.turn),
            ),
          });
          for (const h of hits) points.push({ mode, half, score: h.score, answers: question.evidence.includes(h.turn) });
        }
      }
      process.stderr.write(
        `  ${mode}: ${results.tuning.length + results.report.length} recalls in ${((performance.now() - t) / 1000).toFixed(1)} s\n`,
      );
      rows.push(
        ...hitRows(modeName(mode, path), kind, {
          tuning: figuresOf(results.tuning, SPLIT.kinds),
          report: figuresOf(results.report, SPLIT.kinds),
        }),
      );
      rows.push(...calibrationRows(mode, modeName(mode, path), kind, points));
    }
    rows.push(
      ...hitRows('textbook BM25 (k1 1.2, b 0.75, in the bench)', kind, await evaluate(textbookBm25(), conversations, indexes, SPLIT)),
    );
    const fakeText = fake
      ? `; the fake endpoint: ${fake.texts.toLocaleString('en')} texts in ${fake.requests} requests, ${fake.encodeSeconds.toFixed(1)} s encoding`
      : '';
    rows.push(
      row(
        `${SET_NAME}: stored and embedded ${turnCount.toLocaleString('en')} turns in ${indexes.length} minds over HTTP${path.label ? ` (${path.label})` : ''}`,
        kind,
        `stored in ${storedSeconds.toFixed(1)} s, embedded after ${embeddedSeconds.toFixed(1)} s; server RSS ${(server.rssBytes() / 1048576).toFixed(0)} MB${fakeText}`,
        {
          stored_seconds: storedSeconds,
          embedded_seconds: embeddedSeconds,
          turns: turnCount,
          ...(fake ? { fake_requests: fake.requests, fake_texts: fake.texts, fake_encode_seconds: fake.encodeSeconds } : {}),
        },
      ),
    );
    if (process.env.RECALL_POINTS) writeFileSync(process.env.RECALL_POINTS, JSON.stringify(points));
    return rows;
  });
}

await runAlone(import.meta.url, benchRecallReal);
