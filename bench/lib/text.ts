// Memory-like text: words drawn with Zipf's law (as in natural text, a few words are very common)
// from a 10,000-word vocabulary whose head is real English and whose tail is rarer made-up words.
// Seeded, so runs compare.

const COMMON = `the of and to in is it you that he was for on are with as his they be at one have this from
or had by hot word but what some we can out other were all there when up use your how said an each she
which do their time if will way about many then them write would like so these her long make thing see
him two has look more day could go come did number sound no most people my over know water than call
first who may down side been now find any new work part take get place made live where after back little
only round man year came show every good me give our under name very through just form sentence great
think say help low line differ turn cause much mean before move right boy old too same tell does set
three want air well also play small end put home read hand port large spell add even land here must big
high such follow act why ask men change went light kind off need house picture try us again animal point
mother world near build self earth father head stand own page should country found answer school grow
study still learn plant cover food sun four between state keep eye never last let thought city tree cross
farm hard start might story saw far sea draw left late run while press close night real life few north
project meeting deadline prefers coffee python deploy server database invoice customer report budget
review draft email calendar friday monday weekly release bug feature test docs design client contract
password backup laptop office travel flight hotel dinner birthday family doctor appointment gym recipe`.split(/\s+/);

const VOCABULARY = [...new Set(COMMON)];
for (let i = 0; VOCABULARY.length < 10_000; i++) VOCABULARY.push(`${VOCABULARY[i % 200]}${(i * 7919).toString(36).slice(-3)}`);

const cumulative: number[] = [];
{
  const total = VOCABULARY.reduce((sum, _, i) => sum + 1 / (i + 1), 0);
  let running = 0;
  for (let i = 0; i < VOCABULARY.length; i++) {
    running += 1 / (i + 1) / total;
    cumulative.push(running);
  }
}

export class TextGenerator {
  constructor(private seed = 42) {}

  random(): number {
    this.seed = (this.seed * 1103515245 + 12345) % 2 ** 31;
    return this.seed / 2 ** 31;
  }

  word(): string {
    const r = this.random();
    let lo = 0;
    let hi = cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cumulative[mid]! < r) lo = mid + 1;
      else hi = mid;
    }
    return VOCABULARY[lo]!;
  }

  words(n: number): string {
    return Array.from({ length: n }, () => this.word()).join(' ');
  }

  /** A memory-sized sentence: 15 to 44 words. */
  sentence(): string {
    return this.words(15 + Math.floor(this.random() * 30));
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.random() * items.length)]!;
  }
}

export const CATEGORIES = ['identity', 'preference', 'fact', 'project', 'skill', 'mistake', 'context', 'note'] as const;
