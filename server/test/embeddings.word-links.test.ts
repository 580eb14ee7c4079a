import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { asksAdvice, asksSummary, asksWhen, holdsTime, statesPreference } from '../src/embeddings/answer-type.js';
import { buildWordLinks, LINKS_CACHE_FILE, loadWordLinks, wordnetSource } from '../src/embeddings/word-links.js';

describe('word links (WordNet)', () => {
  const words = ['mom', 'mother', 'sertraline', 'antidepressant', 'operation', 'surgery', 'apple', 'fruit', 'dog', 'cat', 'object', 'qwzx'];
  const row = (word: string) => words.indexOf(word);
  const links = buildWordLinks(words, wordnetSource().dict);
  const dir = mkdtempSync(join(tmpdir(), 'mind-links-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  test('synonyms and a word two steps under another are linked, both ways', () => {
    for (const [a, b] of [
      ['mom', 'mother'],
      ['operation', 'surgery'],
      ['sertraline', 'antidepressant'],
      ['apple', 'fruit'],
    ] as const) {
      assert.equal(links.linked(row(a), row(b)), true, `${a}/${b}`);
      assert.equal(links.linked(row(b), row(a)), true, `${b}/${a}`);
    }
  });

  test('siblings in the hierarchy, senses near its top and unknown words link nothing', () => {
    assert.equal(links.linked(row('dog'), row('cat')), false, 'two kinds of one thing');
    assert.equal(links.linked(row('dog'), row('object')), false, '"object" is too general to link');
    assert.equal(links.linked(row('qwzx'), row('dog')), false);
    assert.equal(links.rows, words.length);
  });

  test('the cache is written once and read after; a damaged one is rebuilt', async () => {
    const first = await loadWordLinks(dir, words);
    const file = join(dir, LINKS_CACHE_FILE);
    const written = readFileSync(file);
    // Read from the cache: a database that is not there is never opened.
    const cached = await loadWordLinks(dir, words, { dict: join(dir, 'no-such-dict'), version: wordnetSource().version });
    assert.equal(cached.linked(row('mom'), row('mother')), true);
    assert.deepEqual(cached.arrays(), first.arrays());
    // Other words: the cache is not theirs, so they are built.
    await assert.rejects(loadWordLinks(dir, ['dog'], { dict: join(dir, 'no-such-dict'), version: wordnetSource().version }), /ENOENT/);
    const damaged = Buffer.from(written);
    damaged[damaged.length - 1] ^= 0xff;
    writeFileSync(file, damaged);
    const rebuilt = await loadWordLinks(dir, words);
    assert.deepEqual(rebuilt.arrays(), first.arrays());
    assert.deepEqual(readFileSync(file), written, 'the damaged file was replaced');
  });

  test('a cache that cannot be read or written still gives the links', async () => {
    // A folder where the file should be: reading it fails, and so does renaming a file onto it.
    const blocked = mkdtempSync(join(dir, 'blocked-'));
    mkdirSync(join(blocked, LINKS_CACHE_FILE, 'inside'), { recursive: true });
    const got = await loadWordLinks(blocked, words);
    assert.equal(got.linked(row('mom'), row('mother')), true);
    assert.equal(statSync(join(blocked, LINKS_CACHE_FILE)).isDirectory(), true);
    assert.deepEqual(readdirSync(blocked), [LINKS_CACHE_FILE], 'no temporary file left behind');
  });
});

/** `reads` is true for every text of `yes` and false for every one of `no`. */
function splits(reads: (text: string) => boolean, yes: string[], no: string[]): void {
  for (const text of yes) assert.equal(reads(text), true, text);
  for (const text of no) assert.equal(reads(text), false, text);
}

describe('answer types', () => {
  test('a question asks when by its opening words, or ends asking "and when"', () => {
    splits(
      asksWhen,
      [
        'When is the weekly counseling session?',
        'what time is the standup',
        'Which days is she home instead of at the office?',
        'How often must the aquarium be cleaned?',
        'Where is she staying in Portugal and when?',
      ],
      ['What is her role and employer?', 'Who is his boss?', 'Where does she live?', 'Why did the build fail when deployed?'],
    );
  });

  test('a question asks for a summary by its words: summary, summarize, overview, recap, sum up', () => {
    splits(
      asksSummary,
      [
        'Can you give me a comprehensive summary of how my budget tracker progressed?',
        'Summarise what we decided about the move.',
        'Could you summarize how I handled the security issues?',
        'Give me an overview of the garden project.',
        'Quick recap of the trip plans?',
        'Sum it up: where does the renovation stand?',
      ],
      ['What did I say about the summit?', 'Where is the sump pump?', 'What is the sum of the two invoices?'],
    );
  });

  test('a question asks for advice when it asks for suggestions, recommendations, tips or what one should do', () => {
    splits(
      asksAdvice,
      [
        'Can you suggest some good audiobooks for me to listen to?',
        'What would you recommend for a weekend in Lisbon?',
        'Any tips for keeping the basil alive?',
        'Which laptop should I buy for travel?',
        "What's the best way to speed up my app on the current setup?",
      ],
      ['When is the dentist appointment?', 'Which laptop did I buy?', 'How old did I say I am?'],
    );
  });

  test('a text states a preference when it says what someone prefers, likes or avoids, or a rule: always, never', () => {
    splits(
      statesPreference,
      [
        'I prefer e-books for their portability.',
        "I'd rather take the train than fly.",
        'The user prefers aisle seats on long flights.',
        'Always include version numbers when I ask about dependencies.',
        'Never schedule meetings before 10.',
        "I don't like spicy food.",
      ],
      ['The flight leaves at 9:40 from gate 12.', 'Bought the Ultraboost on March 30.', 'The preferred stock paid a dividend.'],
    );
  });

  test('a text holds a time when it names a clock time, a date, a day, a month, a year or a recurrence', () => {
    splits(
      holdsTime,
      [
        "The user's team has a daily standup at 9:30.",
        'The user hates being called before 9 am.',
        "The user's wedding anniversary is October 3.",
        'The user works remotely on Tuesdays and Thursdays.',
        'The user is preparing for a promotion review in Q3.',
        'The goldfish tank needs its filter changed every two weeks.',
        "The user's in-laws visit every Christmas.",
        'Passport expires in 2026.',
        'The hotel is booked from the 3rd to the 7th.',
      ],
      ['The user is lactose intolerant.', 'The user may prefer tea.', 'The team tracks bugs in Linear, not Jira.', 'Room 42 is free.'],
    );
  });
});
