// The generator's seeded randomness and its small template language: `{a|b|c}` picks one of the
// choices, `[slot]` is replaced by the slot's value (`[Slot]` capitalises it).

/** mulberry32: small, fast, and the same sequence on every machine for a seed. */
export function seeded(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (lo: number, hi: number) => lo + Math.floor(next() * (hi - lo + 1)),
    chance: (p: number) => next() < p,
    pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!,
    shuffle<T>(items: readonly T[]): T[] {
      const out = [...items];
      for (let i = out.length - 1; i > 0; i--) {
        const j = Math.floor(next() * (i + 1));
        [out[i], out[j]] = [out[j]!, out[i]!];
      }
      return out;
    },
  };
}
export type Rng = ReturnType<typeof seeded>;

export type Slots = Record<string, string>;

export const capitalise = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** Fills a template: slots first (a value may hold choices), then choices; tidies spaces. */
export function fill(rng: Rng, template: string, slots: Slots): string {
  const filled = template.replace(/\[(\w+)\]/g, (_, name: string) => {
    const value = slots[name.toLowerCase()] ?? slots[name];
    if (value === undefined) throw new Error(`template slot [${name}] has no value: ${template}`);
    return name[0] === name[0]!.toUpperCase() ? capitalise(value) : value;
  });
  const chosen = filled.replace(/\{([^{}]*)\}/g, (_, options: string) => rng.pick(options.split('|')));
  return capitalise(
    chosen
      .replace(/\s+/g, ' ')
      .replace(/\s([,.!?])/g, '$1')
      .trim(),
  );
}

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** "8 May 2023", as in the turns' prefix. */
export const formatDate = (d: Date) => `${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()}`;
export const monthName = (d: Date) => MONTHS[d.getUTCMonth()]!;
export const addDays = (d: Date, days: number) => new Date(d.getTime() + days * 86_400_000);
const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

/** A past time said in a turn, and what it means given the session's date. */
export function pastTime(rng: Rng, date: Date): { phrase: string; answer: string } {
  const d = formatDate(date);
  const options = [
    { phrase: 'yesterday', answer: `${formatDate(addDays(date, -1))} (the day before ${d})` },
    { phrase: 'last week', answer: `the week before ${d}` },
    { phrase: 'last weekend', answer: `the weekend before ${d}` },
    { phrase: 'a couple of days ago', answer: `about ${formatDate(addDays(date, -2))}` },
    { phrase: 'this morning', answer: d },
    { phrase: 'today', answer: d },
    { phrase: 'last month', answer: `${monthName(addDays(date, -30))} (the month before ${d})` },
    { phrase: 'two weeks ago', answer: `about ${formatDate(addDays(date, -14))}` },
    { phrase: 'the other day', answer: `a few days before ${d}` },
    { phrase: `last ${WEEKDAYS[(date.getUTCDay() + 7 - rng.int(2, 5)) % 7]}`, answer: `the week before ${d}` },
    { phrase: 'earlier this week', answer: `the week of ${d}` },
    { phrase: 'on Saturday', answer: `the Saturday before ${d}` },
  ];
  return rng.pick(options);
}

/** A future time said in a turn (a plan), and the date it means. */
export function futureTime(rng: Rng, date: Date): { phrase: string; answer: string } {
  const days = rng.int(3, 60);
  const at = addDays(date, days);
  const options = [
    { phrase: `on ${at.getUTCDate()} ${monthName(at)}`, answer: formatDate(at) },
    { phrase: `next ${WEEKDAYS[at.getUTCDay()]}`, answer: `the ${WEEKDAYS[addDays(date, 9).getUTCDay()]} after ${formatDate(date)}` },
    { phrase: 'next month', answer: `${monthName(addDays(date, 31))} ${addDays(date, 31).getUTCFullYear()}` },
    { phrase: `in ${monthName(at)}`, answer: `${monthName(at)} ${at.getUTCFullYear()}` },
    { phrase: 'in two weeks', answer: `about ${formatDate(addDays(date, 14))}` },
    { phrase: 'this weekend', answer: `the weekend after ${formatDate(date)}` },
  ];
  return rng.pick(options);
}

/** A list written compactly ("a|b|{c|d}"), so the formatter keeps it on a few lines: split at `|` outside braces. */
export function split(list: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < list.length; i++) {
    if (list[i] === '{') depth++;
    else if (list[i] === '}') depth--;
    else if (list[i] === '|' && depth === 0) {
      out.push(list.slice(start, i));
      start = i + 1;
    }
  }
  out.push(list.slice(start));
  return out;
}

/** A table written compactly ("a:b:c|d:e:f"): one record per `|`, fields by `:`. */
export function table<K extends string>(fields: readonly K[], list: string): Array<Record<K, string>> {
  return split(list).map((entry) => {
    const values = entry.split(':');
    if (values.length !== fields.length) throw new Error(`"${entry}" needs ${fields.length} fields: ${fields.join(':')}`);
    return Object.fromEntries(fields.map((f, i) => [f, values[i]!])) as Record<K, string>;
  });
}
