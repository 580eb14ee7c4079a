import { readFileSync } from 'node:fs';
import type { MemoryCategory } from '@mindservice/contract';

/** A fact with a question that means the same in other words, and the fact's own key words as a query. */
export interface Fact {
  id: string;
  category: MemoryCategory;
  fact: string;
  question: string;
  keywords: string;
}

export interface Doc {
  id: string;
  category: MemoryCategory;
  content: string;
}

const read = <T>(name: string) => JSON.parse(readFileSync(new URL(name, import.meta.url), 'utf8')) as T;

/** The facts and distractors as one collection, in a fixed interleaved order (the last is the newest). */
export function loadEvalSet() {
  const facts = read<Fact[]>('./facts.json');
  const distractors = read<Doc[]>('./distractors.json');
  const docs: Doc[] = [...distractors];
  // Every ~10th memory is a fact, so facts are neither all old nor all new in the keyword tail order.
  facts.forEach((f, i) => {
    docs.splice(Math.floor(((i + 0.5) * docs.length) / facts.length) + i, 0, { id: f.id, category: f.category, content: f.fact });
  });
  return { facts, distractors, docs };
}
