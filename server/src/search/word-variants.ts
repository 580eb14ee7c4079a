/**
 * Light English normalisation for recall: a query word also finds its plural or singular and its
 * British or American spelling ("tires" finds "tyres", "colour" finds "colors"). Done on the query
 * side only (the index keeps every word as written), so no memory needs indexing again and an exact
 * word is never lost; BM25 counts a word and its variants as one term (fts5-engine.ts, tsvector-engine.ts).
 */

/** Whole-word spelling pairs no rule below covers. */
const SPELLING_PAIRS: Array<[british: string, american: string]> = [
  ['tyre', 'tire'],
  ['grey', 'gray'],
  ['mum', 'mom'],
  ['programme', 'program'],
  ['cheque', 'check'],
  ['aluminium', 'aluminum'],
  ['jewellery', 'jewelry'],
  ['pyjamas', 'pajamas'],
  ['plough', 'plow'],
  ['catalogue', 'catalog'],
  ['dialogue', 'dialog'],
  ['defence', 'defense'],
  ['offence', 'offense'],
  ['licence', 'license'],
  ['practise', 'practice'],
  ['enrol', 'enroll'],
  ['fulfil', 'fulfill'],
  ['storey', 'story'],
  ['draught', 'draft'],
  ['maths', 'math'],
  ['holiday', 'vacation'],
];

const PAIRED = new Map<string, string>(SPELLING_PAIRS.flatMap(([gb, us]) => [[gb, us] as [string, string], [us, gb] as [string, string]]));

/** Spelling rules by ending: British -our, -ise, -yse, -tre, doubled l before -ed/-ing, and back. */
const SPELLING_RULES: Array<[RegExp, string]> = [
  [/^(colo|favo|flavo|harbo|hono|humo|labo|neighbo|behavio|rumo|vapo|savo|endeavo|armo|odo)ur(s|ed|ing|ite|ites|able)?$/, '$1r$2'],
  [/^(colo|favo|flavo|harbo|hono|humo|labo|neighbo|behavio|rumo|vapo|savo|endeavo|armo|odo)r(s|ed|ing|ite|ites|able)?$/, '$1ur$2'],
  [/^(\w{3,})is(e|es|ed|ing|ation|ations)$/, '$1iz$2'],
  [/^(\w{3,})iz(e|es|ed|ing|ation|ations)$/, '$1is$2'],
  [/^(anal|paral|catal)ys(e|es|ed|ing)$/, '$1yz$2'],
  [/^(anal|paral|catal)yz(e|es|ed|ing)$/, '$1ys$2'],
  [/^(cen|thea|me|li|fib|calib|lus|somb)tre(s|d)?$/, '$1ter$2'],
  [/^(cen|thea|me|li|fib|calib|lus|somb)ter(s|ed)?$/, '$1tre$2'],
  [/^(trave|cance|labe|mode|signa|fue|dia|marve|channe|tunne|jewe|quarre)ll(ed|ing|er|ers)$/, '$1l$2'],
  [/^(trave|cance|labe|mode|signa|fue|dia|marve|channe|tunne|jewe|quarre)l(ed|ing|er|ers)$/, '$1ll$2'],
];

const VOWEL = /[aeiou]/;
/** Words ending in s that are not plurals of a word without it. */
const NOT_PLURAL = new Set(['news', 'series', 'species', 'physics', 'maths', 'always', 'perhaps', 'towards', 'afterwards', 'lens']);

/** The singular and plural forms of a word (itself included), by the regular English rules. */
function numberForms(word: string): string[] {
  if (word.length < 3 || /\d/.test(word) || NOT_PLURAL.has(word) || /(ed|ing|ly)$/.test(word)) return [word];
  const forms = [word];
  if (word.endsWith('ies') && word.length > 4) forms.push(`${word.slice(0, -3)}y`);
  else if (/(x|ch|sh|ss|zz)es$/.test(word)) forms.push(word.slice(0, -2));
  else if (word.endsWith('s') && word.length > 3 && !/(ss|us|is)$/.test(word)) forms.push(word.slice(0, -1));
  else if (word.endsWith('y') && !VOWEL.test(word.at(-2)!)) forms.push(`${word.slice(0, -1)}ies`);
  else if (/(x|ch|sh|ss|zz)$/.test(word)) forms.push(`${word}es`);
  else if (!word.endsWith('s')) forms.push(`${word}s`);
  return forms;
}

/** The spellings of a word: itself, and its British or American form where one is known. */
function spellings(word: string): string[] {
  const forms = new Set([word]);
  const paired = PAIRED.get(word);
  if (paired) forms.add(paired);
  for (const [pattern, replacement] of SPELLING_RULES) if (pattern.test(word)) forms.add(word.replace(pattern, replacement));
  return [...forms];
}

/** A query word and the words it also finds, the word itself first; at most 8. */
export function wordVariants(word: string): string[] {
  let variants = new Set<string>([word]);
  // Twice: "tires" -> "tire" -> "tyre" -> "tyres".
  for (let round = 0; round < 2; round++) {
    variants = new Set([...variants].flatMap((v) => [v, ...numberForms(v).flatMap(spellings)]));
  }
  return [...variants].slice(0, 8);
}
