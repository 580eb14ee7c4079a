// Recall over long multi-session conversations, measured through the running service, in the way of
// LoCoMo: each of bench/conversation-eval's 10 conversations is stored in its own mind, one memory per
// turn ("<speaker> (<date>): <text>", category `context`), embedded by the background worker, then
// every question is asked of its mind as `q` with limit=5 in each mode. hit@5: one of the turns that
// answer it is among the five hits. Tuning half (conversations 0-4) and report half (5-9) apart; a
// textbook Okapi BM25 computed here on the same turns and questions beside them.
//
//   node --import tsx bench/recall-conversations.ts   (DATABASE_URL: also PostgreSQL; BENCH_QUICK=1: 2 conversations)
import { performance } from 'node:perf_hooks';
import { type Conversation, loadConversations, storedTurns } from './conversation-eval/data.js';
import { describe, evaluate, type Figures, K, textbookBm25 } from './conversation-eval/evaluate.js';
import { type Client, inBatches } from './lib/client.js';
import { type Row, row, runAlone } from './lib/report.js';
import { type DatabaseKind, withMindService } from './lib/servers.js';

const MODES = ['keyword', 'semantic', 'hybrid'] as const;
/** The bar on the held-out benchmark (textbook BM25 there: 0.589), shown against the report half. */
const TARGETS: Partial<Record<string, number>> = { hybrid: 0.68, keyword: 0.59 };
/** BENCH_QUICK: one conversation of each half. */
const QUICK = [0, 5];

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function waitEmbedded(client: Client, mindKeys: string[]): Promise<void> {
  for (const deadline = Date.now() + 900_000; Date.now() < deadline; await sleep(200)) {
    const pending = await Promise.all(mindKeys.map((k) => client.ok('GET', '/memory/stats', k, undefined, 200)));
    if (pending.every((s) => s.pending_embeddings === 0)) return;
  }
  throw new Error('the conversations were not embedded within 15 minutes');
}

export interface StoredMind {
  mindKey: string;
  /** Memory id -> turn id. */
  turnOf: Map<string, string>;
}

/** One mind per conversation; its turns stored in order (conversations side by side). */
async function storeConversations(client: Client, conversations: Conversation[], indexes: number[]): Promise<Map<string, StoredMind>> {
  const minds = new Map<string, StoredMind>();
  await inBatches(indexes.length, 4, async (n) => {
    const c = conversations[indexes[n]!]!;
    const { mindKey } = await client.newMind(`conversation-${c.id}`);
    const turnOf = new Map<string, string>();
    for (const t of storedTurns(c)) {
      const stored = await client.ok('POST', '/memory', mindKey, { category: 'context', content: t.content });
      turnOf.set(stored.id, t.id);
    }
    minds.set(c.id, { mindKey, turnOf });
  });
  return minds;
}

/** Stores the conversations (a mind each) and waits until every turn is embedded; how long each took. */
export async function storeAndEmbed(client: Client, conversations: Conversation[], indexes: number[]) {
  const started = performance.now();
  const minds = await storeConversations(client, conversations, indexes);
  const storedSeconds = (performance.now() - started) / 1000;
  await waitEmbedded(
    client,
    [...minds.values()].map((m) => m.mindKey),
  );
  return { minds, storedSeconds, embeddedSeconds: (performance.now() - started) / 1000 };
}

const label = (half: 'tuning' | 'report') => (half === 'tuning' ? 'tuning half (conversations 0-4)' : 'report half (5-9)');

function figureRows(name: string, kind: string, figures: { tuning: Figures; report: Figures }, target?: number): Row[] {
  return (['tuning', 'report'] as const)
    .filter((half) => figures[half].questions > 0)
    .map((half) => {
      const f = figures[half];
      const byKind = Object.fromEntries(Object.entries(f.byKind).map(([k, v]) => [`hit5_${k}`, v.hit5]));
      const shown = half === 'report' && target !== undefined ? ({ op: '>=', value: target, unit: '' } as const) : undefined;
      return row(
        `conversation recall, ${name}: hit@${K}, ${label(half)}`,
        kind,
        describe(f),
        { hit5: f.hit5, questions: f.questions, ...byKind },
        shown,
        f.hit5,
      );
    });
}

export async function benchRecallConversations(kind: DatabaseKind, quick = false): Promise<Row[]> {
  const conversations = loadConversations();
  const indexes = quick ? QUICK : conversations.map((_, i) => i);
  const turnCount = indexes.reduce((n, i) => n + storedTurns(conversations[i]!).length, 0);
  return withMindService(kind, {}, async (server, client) => {
    const { minds, storedSeconds, embeddedSeconds } = await storeAndEmbed(client, conversations, indexes);
    const rows: Row[] = [];
    for (const mode of MODES) {
      const t = performance.now();
      const figures = await evaluate(
        async (_turns, question, conversation) => {
          const mind = minds.get(conversation.id)!;
          const query = new URLSearchParams({ q: question.q, mode, limit: String(K) });
          const { memories } = await client.ok('GET', `/memory/recall?${query}`, mind.mindKey, undefined, 200);
          return (memories as Array<{ id: string }>).map((m) => mind.turnOf.get(m.id) ?? m.id);
        },
        conversations,
        indexes,
      );
      const questions = figures.tuning.questions + figures.report.questions;
      process.stderr.write(`  ${mode}: ${questions} recalls in ${((performance.now() - t) / 1000).toFixed(1)} s\n`);
      rows.push(...figureRows(mode, kind, figures, TARGETS[mode]));
    }
    rows.push(...figureRows('textbook BM25 (k1 1.2, b 0.75, in the bench)', kind, await evaluate(textbookBm25(), conversations, indexes)));
    rows.push(
      row(
        `conversation recall: stored and embedded ${turnCount.toLocaleString('en')} turns in ${indexes.length} minds over HTTP`,
        kind,
        `stored in ${storedSeconds.toFixed(1)} s, embedded after ${embeddedSeconds.toFixed(1)} s; server RSS ${(server.rssBytes() / 1048576).toFixed(0)} MB`,
        { stored_seconds: storedSeconds, embedded_seconds: embeddedSeconds, turns: turnCount },
      ),
    );
    return rows;
  });
}

await runAlone(import.meta.url, benchRecallConversations);
