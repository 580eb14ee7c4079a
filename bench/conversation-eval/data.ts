// The conversation set's shape, its loader, and how a turn becomes a memory.
import { readFileSync } from 'node:fs';
import type { Kind } from './people.js';

export type { Kind } from './people.js';
export { KINDS } from './people.js';

export interface Turn {
  /** `D<session>:<turn>`, both from 1, as in LoCoMo. */
  id: string;
  speaker: string;
  text: string;
}

export interface Session {
  /** "8 May 2023". */
  date: string;
  turns: Turn[];
}

export interface Question {
  id: string;
  kind: Kind;
  q: string;
  /** What a reader would answer; not scored here (only the evidence is). */
  answer: string;
  /** The turns that answer it: a hit is any of them among the first five. */
  evidence: string[];
}

export interface Conversation {
  id: string;
  speakers: [string, string];
  sessions: Session[];
  questions: Question[];
}

export interface ConversationSet {
  seed: number;
  conversations: Conversation[];
}

/** Conversations 0-4 are for tuning; 5-9 for reporting. */
export const TUNING = [0, 1, 2, 3, 4];
export const REPORT = [5, 6, 7, 8, 9];
export const CONVERSATION_COUNT = 10;

export const setDir = new URL('./conversations/', import.meta.url);
export const conversationUrl = (id: string) => new URL(`${id}.json`, setDir);

/** The 10 conversations, c0 to c9. */
export function loadConversations(): Conversation[] {
  return Array.from({ length: CONVERSATION_COUNT }, (_, i) => JSON.parse(readFileSync(conversationUrl(`c${i}`), 'utf8')) as Conversation);
}

/** A turn as it is stored: `"<speaker> (<date>): <text>"`. */
export interface StoredTurn {
  id: string;
  content: string;
}

export function storedTurns(conversation: Conversation): StoredTurn[] {
  return conversation.sessions.flatMap((s) => s.turns.map((t) => ({ id: t.id, content: `${t.speaker} (${s.date}): ${t.text}` })));
}
