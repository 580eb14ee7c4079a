// The two people of a conversation, and what a fact kind draws: the lines its owner says, the other
// person's echo, and the questions it answers.
import { fill, pastTime, type Rng, type Slots, split } from './text.js';

export type Kind = 'single-hop' | 'temporal' | 'multi-hop' | 'open-domain';
export const KINDS: readonly Kind[] = ['single-hop', 'temporal', 'multi-hop', 'open-domain'];

export interface Person {
  name: string;
  slots: Slots;
  pets: Array<{ name: string; species: string }>;
  relatives: Array<{ rel: string; name: string }>;
  kids: Array<{ name: string; word: string }>;
  /** Slot values this person already used where a repeat would make two questions alike (trip companions). */
  used: Set<string>;
}

export interface DraftQuestion {
  kind: Kind;
  q: string;
  answer: string;
  /** Indexes into the draft's lines. */
  lines: number[];
}

export interface Draft {
  /** Said by the owner; a second line is said in a later session (dates[1]). */
  lines: string[];
  /** What the other person may answer right after: the topic's words, answering nothing. */
  echoes: string[];
  /** What the owner may add after the echo (no answer in it either). */
  followUps: string[];
  /** What the owner may say in later sessions about it, in passing. */
  callbacks: string[];
  questions: DraftQuestion[];
  /** For questions over several facts ("What hobbies does X have?"). */
  group?: { name: 'hobby' | 'trip' | 'pet' | 'volunteer' | 'dish'; value: string; extra?: string };
}

export interface FactKind {
  name: string;
  /** 2: the second line is said in a later session (multi-hop). */
  lineCount: 1 | 2;
  /** Relative frequency. */
  weight: number;
  draft(rng: Rng, p: Person, o: Person, dates: Date[]): Draft | undefined;
}

/** Helpers bound to one draft: fill with the owner's, the other's and the fact's slots. */
export function drafting(rng: Rng, p: Person, o: Person, slots: Slots) {
  const all: Slots = { ...p.slots, o: o.name, ...slots };
  const say = (...templates: string[]) => fill(rng, rng.pick(templates), all);
  return {
    all,
    say,
    /** One question of `kind` in one of the given wordings. */
    ask: (kind: Kind, templates: string[], answer: string, lines: number[] = [0]): DraftQuestion => ({
      kind,
      q: say(...templates),
      answer,
      lines,
    }),
    /**
     * One of several wordings of a line, each with the question a person would ask remembering that
     * wording (it shares a word or two with it, as LoCoMo's questions mostly do).
     */
    variant(...pairs: Array<[line: string, question: string]>) {
      const [line, question] = rng.pick(pairs);
      return { line: fill(rng, line, all), question: fill(rng, question, all) };
    },
    /** A past time for the line said on `date`; sets [when]. */
    when(date: Date) {
      const t = pastTime(rng, date);
      all.when = t.phrase;
      return t.answer;
    },
  };
}

const PEOPLE = split(
  'Caroline:f|Melanie:f|Jon:m|Gina:f|John:m|Maria:f|Tim:m|Andrew:m|Audrey:f|James:m|Priya:f|Deborah:f|Nate:m|Joanna:f|Evan:m|Sam:m|' +
    'Calvin:m|Dave:m|Jolene:f|Tomás:m|Aisha:f|Kenji:m|Hannah:f|Rafael:m',
).map((s) => s.split(':') as [string, string]);

export const HER_NAMES = split('Mia|Ava|Zoe|Ruby|Isla|Nora|Lena|Clara|Rosa|Maya|Lucy|Iris|Hazel|Anya|Tessa|Wren');
export const HIS_NAMES = split('Leo|Noah|Eli|Omar|Theo|Felix|Max|Ivan|Ezra|Owen|Jonah|Caleb|Dev|Ben|Luis|Gus');
/** A name for someone referred to as she or he. */
export const nameFor = (pronoun: string) => (pronoun === 'she' ? HER_NAMES : HIS_NAMES);

/** The two people of conversation `index` (no one in two conversations, as long as there are names). */
export function twoPeople(order: Rng, index: number): [Person, Person] {
  const shuffled = order.shuffle(PEOPLE);
  const [a, b] = [shuffled[(2 * index) % shuffled.length], shuffled[(2 * index + 1) % shuffled.length]];
  const make = ([name, g]: readonly [string, string]): Person => ({
    name,
    slots: g === 'f' ? { p: name, he: 'she', his: 'her', him: 'her' } : { p: name, he: 'he', his: 'his', him: 'him' },
    pets: [],
    relatives: [],
    kids: [],
    used: new Set(),
  });
  return [make(a!), make(b!)];
}
