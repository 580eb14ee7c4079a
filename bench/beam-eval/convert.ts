// Converts BEAM's chats (github: mohammadtavakoli78/BEAM, `chats/<size>/<n>/chat.json` and
// `probing_questions/probing_questions.json`) into the conversation set's shape
// (conversation-eval/data.ts): sessions of turns, questions with the ids of the turns that answer them.
// Abstention questions have no answering turn and are left out; so are questions whose evidence ids
// name no turn. Writes one gzipped JSON per conversation (the chats' text is large).
//
//   node --import tsx bench/beam-eval/convert.ts <BEAM checkout>
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Conversation, Question, Session } from '../conversation-eval/data.js';
import { SOURCES, setDir } from './data.js';

interface BeamMessage {
  role: 'user' | 'assistant';
  id: number;
  content: string;
  time_anchor?: string;
}
interface BeamBatch {
  batch_number: number;
  time_anchor?: string;
  turns: BeamMessage[][];
}
type ProbingQuestions = Record<
  string,
  Array<{ question: string; answer?: string; ideal_answer?: string; ideal_summary?: string; source_chat_ids?: unknown }>
>;

const MONTHS = 'January February March April May June July August September October November December'.split(' ');

/** "March-15-2024" -> "15 March 2024" (the set's date form); anything else as it is. */
function dateOf(anchor: string): string {
  const m = /^([A-Za-z]+)-(\d{1,2})-(\d{4})$/.exec(anchor.trim());
  return m && MONTHS.includes(m[1]!) ? `${Number(m[2])} ${m[1]} ${m[3]}` : anchor;
}

/** The evidence ids wherever BEAM put them: a list, a record of lists, nested. */
function idsIn(value: unknown): number[] {
  if (typeof value === 'number') return [value];
  if (Array.isArray(value)) return value.flatMap(idsIn);
  if (value && typeof value === 'object') return Object.values(value).flatMap(idsIn);
  return [];
}

/** A memory holds at most 65,536 characters; two of BEAM's messages (generated runaways) are longer. */
const MAX_TEXT = 60_000;

/** BEAM marks a user message's place in its plan at the end ("... ->-> 1,1"); not said by anyone. */
const spoken = (content: string) =>
  content
    .replace(/\s*->->\s*[\d,\s]+$/, '')
    .trim()
    .slice(0, MAX_TEXT);

export function convert(chat: BeamBatch[], probing: ProbingQuestions, id: string): Conversation {
  const turnId = new Map<number, string>();
  let date = 'an unknown date';
  const sessions: Session[] = chat.map((batch) => {
    const messages = batch.turns.flat();
    date = dateOf(batch.time_anchor ?? messages.find((m) => m.time_anchor)?.time_anchor ?? date);
    return {
      date,
      turns: messages.map((m) => {
        const tid = `D${batch.batch_number}:${m.id}`;
        turnId.set(m.id, tid);
        return { id: tid, speaker: m.role === 'user' ? 'User' : 'Assistant', text: spoken(m.content) };
      }),
    };
  });
  const questions: Question[] = [];
  for (const [kind, list] of Object.entries(probing)) {
    list.forEach((q, n) => {
      const evidence = [...new Set(idsIn(q.source_chat_ids).flatMap((i) => turnId.get(i) ?? []))];
      if (evidence.length === 0) return;
      const answer = q.answer ?? q.ideal_answer ?? q.ideal_summary ?? '';
      questions.push({ id: `${id}-${kind}-${n + 1}`, kind: kind as Question['kind'], q: q.question, answer, evidence });
    });
  }
  return { id, speakers: ['User', 'Assistant'], sessions, questions };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const root = process.argv[2];
  if (!root) throw new Error('usage: convert.ts <BEAM checkout>');
  mkdirSync(setDir, { recursive: true });
  for (const { id, size, chat } of SOURCES) {
    const dir = join(root, 'chats', size, String(chat));
    const conversation = convert(
      JSON.parse(readFileSync(join(dir, 'chat.json'), 'utf8')) as BeamBatch[],
      JSON.parse(readFileSync(join(dir, 'probing_questions', 'probing_questions.json'), 'utf8')) as ProbingQuestions,
      id,
    );
    writeFileSync(new URL(`${id}.json.gz`, setDir), gzipSync(JSON.stringify(conversation), { level: 9 }));
    const turns = conversation.sessions.reduce((n, s) => n + s.turns.length, 0);
    console.log(`${id}: ${conversation.sessions.length} sessions, ${turns} turns, ${conversation.questions.length} questions`);
  }
}
