// Recall by meaning under another tenant's load: tenant B's hybrid recall, timed one request at a
// time, while tenant A
//   1. writes 300 memories of 64 KB (and the server embeds them),
//   2. runs hybrid recalls (two at a time) over 1,000 such memories, and
//   3. runs chat searches from 16 minds of one account at once, each over 250 messages of 4,096
//      characters (B's keyword recall too: what the machine gives without the embedder).
// Figures, not tests; `node --import tsx bench/security-embedding.ts` runs it alone
// (BENCH_ONLY=chat-search: the third part only).
import { randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { type Client, inBatches } from './lib/client.js';
import { count, ms, percentile, type Row, row, runAlone, sortNumbers } from './lib/report.js';
import { type DatabaseKind, withMindService } from './lib/servers.js';
import { TextGenerator } from './lib/text.js';

const quick = Boolean(process.env.BENCH_QUICK);
const LARGE = 64 * 1024;
const WRITES = quick ? 100 : 300;
const RECALLED = quick ? 300 : 1000;
const RECALL_SECONDS = quick ? 5 : 15;
const CHAT_MINDS = 16;
const CHAT_MESSAGES = 250;
const CHAT_SECONDS = quick ? 5 : 15;

const FACTS = [
  "The user's daughter Mia started violin lessons in September.",
  'The car is due for its annual service at the garage in March.',
  'Allergic to peanuts; avoid recipes with nuts.',
  'Prefers short sentences and British spelling.',
  'The team meets every Monday at nine to plan the week.',
  'Flight to Lisbon on the 14th, hotel near the river.',
];
const QUESTIONS = [
  'Which musical instrument does our kid play?',
  'When is the car service?',
  'What food allergies should I remember?',
  'How should I write to the user?',
  'When is the weekly planning meeting?',
  'Where is the user travelling?',
];

/** A memory of (almost) 64 KB of words. */
function largeText(text: TextGenerator): string {
  let out = '';
  while (out.length < LARGE - 200) out += `${text.sentence()}. `;
  return out.slice(0, LARGE - 1);
}

const pending = async (client: Client, key: string) =>
  (await client.ok('GET', '/memory/stats', key, undefined, 200)).pending_embeddings as number;

async function embedded(client: Client, key: string) {
  while ((await pending(client, key)) > 0) await new Promise((r) => setTimeout(r, 200));
}

/** B's recall (hybrid unless `mode` says), one request at a time, until `busy` settles; the times in ms, sorted. */
async function recallWhile(client: Client, key: string, busy: Promise<unknown>, mode = 'hybrid'): Promise<number[]> {
  let done = false;
  void busy.finally(() => {
    done = true;
  });
  const times: number[] = [];
  for (let i = 0; !done || times.length < 5; i++) {
    // A different question each time (a cached question vector would hide the question's embedding).
    const q = `${QUESTIONS[i % QUESTIONS.length]} ${i}`;
    const started = performance.now();
    await client.ok('GET', `/memory/recall?${new URLSearchParams({ q, mode })}`, key, undefined, 200);
    times.push(performance.now() - started);
  }
  await busy;
  return sortNumbers(times);
}

const summary = (sorted: number[]) =>
  `B's hybrid recall p50 ${ms(percentile(sorted, 50))}, p99 ${ms(percentile(sorted, 99))}, max ${ms(sorted.at(-1) ?? NaN)} (${count(sorted.length)} recalls)`;
const figures = (sorted: number[]) => ({
  p50Ms: percentile(sorted, 50),
  p99Ms: percentile(sorted, 99),
  maxMs: sorted.at(-1) ?? NaN,
  recalls: sorted.length,
});

// The word table is built once and shared by runs (as the tests share theirs).
const ENV = { MIND_EMBEDDINGS: 'local', MIND_EMBEDDINGS_CACHE_DIR: join(tmpdir(), 'mind-bench-embeddings') };

export async function benchEmbeddingFairness(kind: DatabaseKind): Promise<Row[]> {
  return [...(await benchMemoryLoad(kind)), ...(await benchChatSearchLoad(kind))];
}

async function benchMemoryLoad(kind: DatabaseKind): Promise<Row[]> {
  return withMindService(kind, ENV, async (_server, client) => {
    const text = new TextGenerator(7);
    const a = await client.newMind('tenant-a');
    const b = await client.newMind('tenant-b');
    for (const content of FACTS) await client.ok('POST', '/memory', b.mindKey, { category: 'fact', content });
    await embedded(client, b.mindKey);
    const quiet = await recallWhile(client, b.mindKey, new Promise((r) => setTimeout(r, 2000)));

    const writing = (async () => {
      await inBatches(WRITES, 4, () => client.ok('POST', '/memory', a.mindKey, { category: 'note', content: largeText(text) }));
      await embedded(client, a.mindKey);
    })();
    const whileWriting = await recallWhile(client, b.mindKey, writing);

    await inBatches(RECALLED - WRITES, 4, () => client.ok('POST', '/memory', a.mindKey, { category: 'note', content: largeText(text) }));
    await embedded(client, a.mindKey);
    const until = performance.now() + RECALL_SECONDS * 1000;
    let recalls = 0;
    const recalling = Promise.all(
      Array.from({ length: 2 }, async () => {
        while (performance.now() < until) {
          const q = `${text.words(3)} ${text.words(2)}`;
          await client.ok('GET', `/memory/recall?${new URLSearchParams({ q })}`, a.mindKey, undefined, 200);
          recalls++;
        }
      }),
    );
    const whileRecalling = await recallWhile(client, b.mindKey, recalling);
    return [
      row("tenant B's hybrid recall, nothing else running", kind, summary(quiet), figures(quiet)),
      row(
        `tenant B's hybrid recall while tenant A writes ${count(WRITES)} memories of 64 KB (until embedded)`,
        kind,
        summary(whileWriting),
        figures(whileWriting),
      ),
      row(
        `tenant B's hybrid recall while tenant A runs hybrid recalls (2 at a time) over ${count(RECALLED)} memories of 64 KB`,
        kind,
        `${summary(whileRecalling)}; A: ${count(recalls / RECALL_SECONDS)} recalls/s`,
        { ...figures(whileRecalling), aRecallsPerSecond: recalls / RECALL_SECONDS },
      ),
    ];
  });
}

/** B's recall while CHAT_MINDS minds of one account search their long chats (each one search at a time). */
async function benchChatSearchLoad(kind: DatabaseKind): Promise<Row[]> {
  return withMindService(kind, ENV, async (_server, client) => {
    const text = new TextGenerator(11);
    const b = await client.newMind('tenant-b');
    for (const content of FACTS) await client.ok('POST', '/memory', b.mindKey, { category: 'fact', content });
    await embedded(client, b.mindKey);
    const quietHybrid = await recallWhile(client, b.mindKey, new Promise((r) => setTimeout(r, 2000)));
    const quietKeyword = await recallWhile(client, b.mindKey, new Promise((r) => setTimeout(r, 2000)), 'keyword');

    const first = await client.newMind('tenant-a');
    const keys = [first.mindKey];
    for (let i = 1; i < CHAT_MINDS; i++) keys.push((await client.ok('POST', '/minds', first.jwt, { name: `tenant-a ${i}` })).mind_key);
    for (const key of keys) {
      const now = Date.now();
      const chat = Array.from({ length: CHAT_MESSAGES }, (_, i) => {
        let content = '';
        while (content.length < 4096) content += `${text.sentence()}. `;
        const at = new Date(now - (CHAT_MESSAGES - i) * 1000).toISOString();
        return { id: randomUUID(), role: i % 2 ? 'agent' : 'human', content: content.slice(0, 4096), thread: 'default', created_at: at };
      });
      const doc = {
        format: 'mind-export/1',
        exported_at: new Date(now).toISOString(),
        memories: [],
        tasks: [],
        chat,
        scripts: [],
        webhooks: [],
      };
      await client.ok('POST', '/memory/mind-import', key, doc, 200);
    }
    const attack = (seconds: number) => {
      const until = performance.now() + seconds * 1000;
      let searches = 0;
      const running = Promise.all(
        keys.map(async (key) => {
          while (performance.now() < until) {
            const q = `${text.words(2)}`;
            await client.ok('GET', `/mind/chat/search?${new URLSearchParams({ q, limit: '5' })}`, key, undefined, 200);
            searches++;
          }
        }),
      );
      return { running, searches: () => searches };
    };
    const hybridAttack = attack(CHAT_SECONDS);
    const hybrid = await recallWhile(client, b.mindKey, hybridAttack.running);
    const keywordAttack = attack(CHAT_SECONDS / 3);
    const keyword = await recallWhile(client, b.mindKey, keywordAttack.running, 'keyword');
    const p = (sorted: number[], n: number) => ms(percentile(sorted, n));
    const attackName = `while ${CHAT_MINDS} minds of one account run chat searches over ${CHAT_MESSAGES} messages of 4,096 characters each`;
    return [
      row(
        "tenant B's recall, nothing else running",
        kind,
        `hybrid p50 ${p(quietHybrid, 50)}, p90 ${p(quietHybrid, 90)}; keyword p50 ${p(quietKeyword, 50)}`,
        { hybridP50Ms: percentile(quietHybrid, 50), hybridP90Ms: percentile(quietHybrid, 90), keywordP50Ms: percentile(quietKeyword, 50) },
      ),
      row(
        `tenant B's recall ${attackName}`,
        kind,
        `hybrid p50 ${p(hybrid, 50)}, p90 ${p(hybrid, 90)}, max ${p(hybrid, 100)} (${count(hybrid.length)} recalls); ` +
          `keyword p50 ${p(keyword, 50)}; A: ${count(hybridAttack.searches() / CHAT_SECONDS)} searches/s`,
        {
          hybridP50Ms: percentile(hybrid, 50),
          hybridP90Ms: percentile(hybrid, 90),
          keywordP50Ms: percentile(keyword, 50),
          searchesPerSecond: hybridAttack.searches() / CHAT_SECONDS,
        },
      ),
    ];
  });
}

await runAlone(import.meta.url, (kind) =>
  process.env.BENCH_ONLY === 'chat-search' ? benchChatSearchLoad(kind) : benchEmbeddingFairness(kind),
);
