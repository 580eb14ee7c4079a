// Writes distractors.json: the evaluation's distractor notes, filled in from distractor-templates.json
// with a seeded generator (the same file every run). Usage: node --import tsx bench/recall-eval/generate-distractors.ts
import { readFileSync, writeFileSync } from 'node:fs';
import type { MemoryCategory } from '@mindservice/contract';

/**
 * distractor-templates.json: everyday agent memories in the facts' style and domains (family,
 * work, health, schedule, home, money, tools, travel), with slot words chosen so that none answers
 * an evaluation question (no instruments, coffee, nut allergies, hiring, bikes, visas, ...; no name
 * or city a fact uses). `{slot}` is filled from the template's lists.
 */
interface Template {
  category: MemoryCategory;
  text: string;
  slots: Record<string, string[]>;
}
const TEMPLATES = JSON.parse(readFileSync(new URL('./distractor-templates.json', import.meta.url), 'utf8')) as Template[];

export const DISTRACTOR_COUNT = 1300;

/** mulberry32: small, seeded, good enough to pick slot words. */
function random(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const combinations = (t: Template) => Object.values(t.slots).reduce((n, words) => n * words.length, 1);

function fill(t: Template, next: () => number): string {
  const text = t.text.replace(/\{(\w+)\}/g, (_, slot: string) => {
    const words = t.slots[slot]!;
    return words[Math.floor(next() * words.length)]!;
  });
  return text.charAt(0).toUpperCase() + text.slice(1);
}

export function generateDistractors(count = DISTRACTOR_COUNT) {
  const next = random(20240601);
  // An even share per template, fewer where a template has fewer distinct fillings; the rest go round.
  const quota = TEMPLATES.map((t) => Math.min(combinations(t), Math.ceil(count / TEMPLATES.length)));
  for (let i = 0, total = quota.reduce((a, b) => a + b, 0); total < count; i = (i + 1) % TEMPLATES.length) {
    if (quota[i]! < Math.min(combinations(TEMPLATES[i]!), quota[i]! * 3)) {
      quota[i]!++;
      total++;
    }
  }
  const seen = new Set<string>();
  const notes: Array<{ id: string; category: string; content: string }> = [];
  TEMPLATES.forEach((t, i) => {
    for (let made = 0, tries = 0; made < quota[i]! && tries < 100_000; tries++) {
      const content = fill(t, next);
      if (seen.has(content)) continue;
      seen.add(content);
      made++;
      notes.push({ id: `d${String(notes.length + 1).padStart(4, '0')}`, category: t.category, content });
    }
  });
  return notes.slice(0, count);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const notes = generateDistractors();
  writeFileSync(new URL('./distractors.json', import.meta.url), `${JSON.stringify(notes, null, 2)}\n`);
  console.log(`${notes.length} distractors written`);
}
