/** A word of a text for the local embedder. */
export interface Token {
  /** Lower-cased, accents folded, letters only. */
  word: string;
  /** Capitalised inside a sentence: most likely a name ("Mia", "Chase"), weighed less (see sif.ts). */
  name: boolean;
}

/**
 * Words that say little about what a memory is about: function words and, in memory language,
 * "user" and "agent", which work as pronouns ("The user prefers..."). SIF's frequency weights
 * lower the very common ones already; these get weight 0.
 */
export const STOP_WORDS: ReadonlySet<string> = new Set(
  `a an the of to in on at for by with from and or but it its this that these those they them their he she his her him
   i we you my me your our there here what which when where who whom why how does do did is are was were be been can
   could should would will user users agent`.split(/\s+/),
);

/**
 * The words of `text`: runs of letters (GloVe's vocabulary is lower-case; digits carry little
 * meaning in a 100-d word space), a possessive or contraction's tail ("user's", "don't") dropped
 * with its apostrophe.
 */
export function tokens(text: string): Token[] {
  const folded = text.normalize('NFKD').replace(/\p{M}+/gu, '');
  const out: Token[] = [];
  let sentenceStart = true;
  let last = 0;
  for (const match of folded.matchAll(/\p{L}+(?:['’]\p{L}+)?/gu)) {
    if (/[.!?;:\n]/.test(folded.slice(last, match.index))) sentenceStart = true;
    last = match.index + match[0].length;
    const raw = match[0].replace(/['’](s|t|d|ll|re|ve|m)$/i, '');
    const name = !sentenceStart && /^\p{Lu}/u.test(raw);
    sentenceStart = false;
    for (const word of raw.toLowerCase().split(/['’]/)) if (word) out.push({ word, name });
  }
  return out;
}

/**
 * Other forms to look a word up by when the table lacks it, most likely first: plural and verb
 * endings taken off (light stemming: "lessons" -> "lesson", "studies" -> "study", "hiking" -> "hike").
 */
export function baseForms(word: string): string[] {
  const forms: string[] = [];
  const add = (stem: string) => {
    if (stem.length >= 3 && stem !== word && !forms.includes(stem)) forms.push(stem);
  };
  if (word.length <= 3) return forms;
  if (word.endsWith('ies')) add(`${word.slice(0, -3)}y`);
  if (/(ches|shes|sses|xes|zes|oes)$/.test(word)) add(word.slice(0, -2));
  if (word.endsWith('s') && !/(ss|us|is)$/.test(word)) add(word.slice(0, -1));
  for (const ending of ['ing', 'ed']) {
    if (!word.endsWith(ending) || word.length <= ending.length + 2) continue;
    const stem = word.slice(0, -ending.length);
    if (/(.)\1$/.test(stem) && !/(ll|ss|zz)$/.test(stem)) add(stem.slice(0, -1)); // "running" -> "run"
    add(`${stem}e`);
    add(stem);
  }
  if (word.endsWith('ied')) add(`${word.slice(0, -3)}y`);
  return forms;
}

/** Whether a text names someone or somewhere: a capitalised word inside a sentence ("Jolene", "Portugal"; not "I"). */
export const namesSomeone = (text: string): boolean => tokens(text).some((t) => t.name && t.word.length > 1);
