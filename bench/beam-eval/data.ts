// BEAM's conversations in the conversation set's shape (conversation-eval/data.ts), from the gzipped
// files convert.ts wrote: which chats, which half each belongs to, and the kinds of question.
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import type { Conversation } from '../conversation-eval/data.js';

/** BEAM's memory abilities that name answering turns (abstention names none). */
export const BEAM_KINDS = [
  'information_extraction',
  'multi_session_reasoning',
  'temporal_reasoning',
  'knowledge_update',
  'event_ordering',
  'contradiction_resolution',
  'summarization',
  'instruction_following',
  'preference_following',
] as const;

/** The 20 chats of 128K tokens and the first 10 of 500K; alternate ones for tuning and reporting. */
export const SOURCES = [
  ...Array.from({ length: 20 }, (_, i) => ({ id: `s${String(i + 1).padStart(2, '0')}`, size: '100K', chat: i + 1 })),
  ...Array.from({ length: 10 }, (_, i) => ({ id: `m${String(i + 1).padStart(2, '0')}`, size: '500K', chat: i + 1 })),
];
export const BEAM_TUNING = SOURCES.flatMap((_, i) => (i % 2 === 0 ? [i] : []));
export const BEAM_REPORT = SOURCES.flatMap((_, i) => (i % 2 === 1 ? [i] : []));

export const setDir = new URL('./conversations/', import.meta.url);

export function loadBeam(): Conversation[] {
  return SOURCES.map(({ id }) => JSON.parse(gunzipSync(readFileSync(new URL(`${id}.json.gz`, setDir))).toString('utf8')) as Conversation);
}
