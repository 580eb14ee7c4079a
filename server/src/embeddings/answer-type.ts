// What a question asks for and whether a text could answer it, read from their words: the
// re-ranking's priors (rerank-options.ts timeWeight, preferenceWeight) and its weights for a
// question that asks for a summary (RERANK_SUMMARY).

const MONTHS =
  'January|February|March|April|May|June|July|August|September|October|November|December|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sept?|Oct|Nov|Dec';
const DAYS = 'Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday|Mon|Tues?|Wed|Thu|Thur|Thurs|Fri|Sat|Sun';
const HOLIDAYS = 'Christmas|Thanksgiving|Easter|Hanukkah|Passover|Ramadan|Eid|Diwali|Halloween|New Year';
const SPANS = 'day|week|fortnight|month|quarter|year|morning|evening|afternoon|night|weekend|spring|summer|autumn|fall|winter|season';

/** Months, days and holidays by name, with their capital ("May", "March" and "Sun" are words too). */
const NAMED_TIME = new RegExp(`\\b(${MONTHS}|${DAYS}|${HOLIDAYS})s?\\b`);

/** Clock times, years, quarters, ordinal days and recurrences, in any case. */
const TIME = new RegExp(
  [
    `\\b\\d{1,2}(:\\d{2})?\\s?(am|pm|a\\.m\\.|p\\.m\\.)`,
    `\\b\\d{1,2}:\\d{2}\\b`,
    `\\b(1[89]|20)\\d\\d\\b`,
    `\\bQ[1-4]\\b`,
    `\\b\\d{1,2}(st|nd|rd|th)\\b`,
    `\\b(weekdays?|weekends?|tonight|tomorrow|yesterday|today|daily|weekly|monthly|yearly|annually|nightly|hourly|biweekly|fortnightly)\\b`,
    `\\b(every|each|next|last|this|per|a)\\s+(\\w+\\s+)?(${SPANS})s?\\b`,
    `\\b(mornings|evenings|afternoons|nights)\\b`,
    `\\b(in|on|since|until|by|before|after)\\s+(${SPANS})\\b`,
  ].join('|'),
  'i',
);

/** Opens with when (or what time, which day, how often), or ends asking "and when?". */
const ASKS_WHEN = /^\s*(when\b|(what|which) (time|day|date|week|month|year)s?\b|how (often|long)\b)|\band when\b/i;

/** The question asks when something is, was or recurs. */
export function asksWhen(question: string): boolean {
  return ASKS_WHEN.test(question);
}

/** The text names a time of day, a date, a day, a month, a year or a recurrence. */
export function holdsTime(text: string): boolean {
  return NAMED_TIME.test(text) || TIME.test(text);
}

/** Asks for a summary, an overview or a recap ("Can you summarize how my project developed?"). */
const ASKS_SUMMARY = /\b(summar(y|ies|ize|ise|ized|ised|izing|ising)|recaps?|overview|sum (it |this |that |everything |things )?up)\b/i;

/** The question asks for a summary of what was said about its subject, not for one fact. */
export function asksSummary(question: string): boolean {
  return ASKS_SUMMARY.test(question);
}

/** Asks for advice: a suggestion, a recommendation, tips, what one should do or the best way. */
const ASKS_ADVICE =
  /\b(suggest|suggestions?|recommend|recommendations?|advice|advise|tips?|should I|what would you|ideas? for|best way)\b/i;

/** The question asks what to do or choose: the user's own preferences and standing rules answer it. */
export function asksAdvice(question: string): boolean {
  return ASKS_ADVICE.test(question);
}

/**
 * A preference or a standing rule, said by the user ("I prefer", "I'd rather", "I don't like") or
 * of them ("prefers", "dislikes"), or as a rule ("always", "never").
 */
const PREFERENCE =
  /\b(I (really )?(prefer|like|love|enjoy|hate|dislike|avoid|want to avoid|don't like|do not like)|I('d| would) (rather|prefer)|prefers|likes|loves|enjoys|hates|dislikes|avoids|my preference|preferences?|always|never)\b/i;

/** The text states a preference or a standing rule. */
export function statesPreference(text: string): boolean {
  return PREFERENCE.test(text);
}
