// Writes conversations/c0.json ... c9.json: 10 long chats between two people over months, each with questions and the
// turns that answer them, in the shape of LoCoMo. Seeded: the same file every run.
//
//   node --import tsx bench/conversation-eval/generate.ts
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Conversation, ConversationSet, Question, Session, Turn } from './data.js';
import { conversationUrl, setDir } from './data.js';
import { EVENT_KINDS } from './facts-events.js';
import { HOME_KINDS } from './facts-home.js';
import { LIFE_KINDS } from './facts-life.js';
import { PASTIME_KINDS } from './facts-pastimes.js';
import { TWICE_KINDS } from './facts-twice.js';
import { filler, handOver } from './filler.js';
import { type Draft, type DraftQuestion, type FactKind, type Person, twoPeople } from './people.js';
import { addDays, fill, formatDate, type Rng, seeded } from './text.js';

export const SEED = 20230508;
const KINDS_ALL = [...LIFE_KINDS, ...HOME_KINDS, ...EVENT_KINDS, ...PASTIME_KINDS, ...TWICE_KINDS];

function pickKind(rng: Rng, allowTwo: boolean): FactKind {
  const kinds = KINDS_ALL.filter((k) => allowTwo || k.lineCount === 1);
  let r = rng.next() * kinds.reduce((s, k) => s + k.weight, 0);
  for (const k of kinds) {
    r -= k.weight;
    if (r < 0) return k;
  }
  return kinds[kinds.length - 1]!;
}

/** A fact to tell: who, what, and where each of its lines goes (session index), then which turn. */
interface Told {
  owner: 0 | 1;
  draft: Draft;
  sessions: number[];
  turnIds: string[];
}

/** Questions over several facts of one person: all hobbies, all trips, all pets... */
function groupQuestions(rng: Rng, person: Person, told: Told[]): DraftQuestionWithTurns[] {
  const out: DraftQuestionWithTurns[] = [];
  const by = (name: string) => told.filter((t) => t.draft.group?.name === name);
  const ask = (name: string, templates: string[], answer: (ts: Told[]) => string) => {
    const ts = by(name);
    if (ts.length < 2) return;
    const q = fill(rng, rng.pick(templates), person.slots);
    out.push({ kind: 'multi-hop', q, answer: answer(ts), evidence: ts.flatMap((t) => t.turnIds) });
  };
  const values = (ts: Told[]) => ts.map((t) => t.draft.group!.value).join(', ');
  ask(
    'hobby',
    ['What hobbies does [p] have?', 'What activities does [p] do in [his] free time?', 'What has [p] been learning outside work?'],
    values,
  );
  ask('trip', ['Which countries has [p] traveled to?', 'Where has [p] been on vacation?', 'What places has [p] visited?'], (ts) =>
    ts.map((t) => `${t.draft.group!.value} (${t.draft.group!.extra})`).join(', '),
  );
  ask(
    'pet',
    ['How many pets does [p] have?', "What are the names of [p]'s pets?", 'What animals does [p] have at home?'],
    (ts) => `${ts.length}: ${values(ts)}`,
  );
  ask('volunteer', ['Where has [p] volunteered?', 'What volunteer work has [p] done?'], values);
  ask('dish', ['What dishes has [p] cooked?', 'What has [p] made in the kitchen lately?'], values);
  return out;
}
type DraftQuestionWithTurns = Omit<DraftQuestion, 'lines'> & { evidence: string[] };

export function generateConversation(index: number, seed = SEED): Conversation {
  const rng = seeded(seed + index * 7919);
  const people = twoPeople(seeded(seed), index);
  const sessionCount = rng.int(16, 26);
  const dates: Date[] = [];
  for (let s = 0, d = addDays(new Date(Date.UTC(2022, 0, 1)), rng.int(0, 540)); s < sessionCount; s++, d = addDays(d, rng.int(3, 21)))
    dates.push(d);

  // Decide every fact first, in session order, so that each person's state (pets, relatives) grows in order.
  const told: Told[] = [];
  const bySession: Array<Array<{ fact: Told; line: number }>> = dates.map(() => []);
  for (let s = 0; s < sessionCount; s++) {
    for (let n = rng.int(4, 6); n > 0; n--) {
      const owner = rng.chance(0.5) ? 0 : 1;
      const kind = pickKind(rng, s < sessionCount - 1);
      const sessions = kind.lineCount === 2 ? [s, Math.min(sessionCount - 1, s + rng.int(1, 6))] : [s];
      const draft = kind.draft(
        rng,
        people[owner],
        people[1 - owner]!,
        sessions.map((i) => dates[i]!),
      );
      if (!draft) continue;
      const fact: Told = { owner, draft, sessions, turnIds: [] };
      told.push(fact);
      for (const [line, si] of sessions.entries()) bySession[si]!.push({ fact, line });
    }
  }

  const callbacks: Array<Array<string>> = [[], []];
  const sessions: Session[] = dates.map((date, s) => {
    const turns: Turn[] = [];
    let next: 0 | 1 = rng.chance(0.5) ? 0 : 1;
    const say = (who: 0 | 1, text: string) => {
      if (who !== next) say(next, handOver(rng, people[who].name));
      turns.push({ id: `D${s + 1}:${turns.length + 1}`, speaker: people[who].name, text });
      next = who === 0 ? 1 : 0;
      return turns[turns.length - 1]!.id;
    };
    const chat = (count: number) => {
      for (let i = 0; i < count; i++) {
        const own = callbacks[next]!;
        say(next, own.length && rng.chance(0.15) ? rng.pick(own) : filler(rng, 'chat', people[next].name, people[1 - next]!.name));
      }
    };
    const target = rng.int(12, 24);
    const items = rng.shuffle(bySession[s]!);
    say(next, filler(rng, 'greeting', people[next].name, people[1 - next]!.name));
    say(next, filler(rng, rng.chance(0.5) ? 'greeting' : 'chat', people[next].name, people[1 - next]!.name));
    for (const { fact, line } of items) {
      chat(rng.int(0, 2));
      fact.turnIds[line] = say(fact.owner, fact.draft.lines[line]!);
      const other = fact.owner === 0 ? 1 : 0;
      if (rng.chance(0.75)) say(other, fill(rng, rng.pick(fact.draft.echoes), {}));
      if (rng.chance(0.4)) say(fact.owner, fill(rng, rng.pick(fact.draft.followUps), {}));
      if (line === fact.draft.lines.length - 1) callbacks[fact.owner]!.push(...fact.draft.callbacks.map((c) => fill(rng, c, {})));
    }
    chat(Math.max(0, target - turns.length - 2));
    say(next, filler(rng, 'farewell', people[next].name, people[1 - next]!.name));
    say(next, filler(rng, 'farewell', people[next].name, people[1 - next]!.name));
    return { date: formatDate(date), turns };
  });

  const drafted: DraftQuestionWithTurns[] = told.flatMap((t) =>
    t.draft.questions.map(({ lines, ...q }) => ({ ...q, evidence: lines.map((l) => t.turnIds[l]!) })),
  );
  for (const who of [0, 1] as const)
    drafted.push(
      ...groupQuestions(
        rng,
        people[who],
        told.filter((t) => t.owner === who),
      ),
    );
  const questions: Question[] = drafted.map((q, i) => ({
    id: `c${index}-q${i + 1}`,
    kind: q.kind,
    q: q.q,
    answer: q.answer,
    evidence: q.evidence,
  }));
  return { id: `c${index}`, speakers: [people[0].name, people[1].name], sessions, questions };
}

export function generateSet(count = 10, seed = SEED): ConversationSet {
  return { seed, conversations: Array.from({ length: count }, (_, i) => generateConversation(i, seed)) };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const set = generateSet();
  mkdirSync(setDir, { recursive: true });
  const files = set.conversations.map((c) => {
    const file = fileURLToPath(conversationUrl(c.id));
    writeFileSync(file, `${JSON.stringify(c, null, 2)}\n`);
    return file;
  });
  // One file per conversation (the linter reads files up to 1 MiB), in the formatter's layout so that
  // `pnpm lint` passes on what this wrote.
  execFileSync(fileURLToPath(new URL('../../node_modules/.bin/biome', import.meta.url)), ['format', '--write', ...files], {
    stdio: 'ignore',
  });
  for (const c of set.conversations) {
    const turns = c.sessions.reduce((n, s) => n + s.turns.length, 0);
    const kinds = new Map<string, number>();
    for (const q of c.questions) kinds.set(q.kind, (kinds.get(q.kind) ?? 0) + 1);
    console.log(
      `${c.id} ${c.speakers.join(' & ')}: ${c.sessions.length} sessions, ${turns} turns, ${c.questions.length} questions`,
      Object.fromEntries(kinds),
    );
  }
}
