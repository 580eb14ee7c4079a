// Fact kinds about a person's life: hobbies, homes, family (told over two sessions). As in facts-life.ts, each
// says its fact in several wordings and asks in others.
import { type FactKind, drafting, nameFor } from './people.js';
import { split, table } from './text.js';

const HOBBIES = table(
  ['hobby', 'doing', 'related'],
  'pottery:throwing pots on the wheel:a ceramics exhibition|rock climbing:bouldering at the climbing gym:a trip to the mountains|' +
    'watercolor painting:painting landscapes:an art museum|sourdough baking:baking bread from scratch:a bakery tour|' +
    'knitting:knitting scarves:a yarn festival|salsa dancing:dancing salsa:a Latin music night|birdwatching:spotting birds at the lake:a nature reserve|' +
    'chess:playing chess online:a strategy board game night|film photography:shooting rolls of film:a photo gallery|' +
    'trail running:running trails on the weekend:a mountain race|gardening:growing tomatoes and herbs:a farmers market|' +
    'woodworking:building furniture in the garage:a furniture workshop|surfing:catching waves at the beach:a beach holiday|' +
    'guitar:practising chords:a live music gig|Spanish:studying Spanish every morning:a trip to Mexico|yoga:doing yoga before work:a wellness retreat|' +
    'calligraphy:practising brush lettering:a stationery shop|archery:shooting arrows at the range:a medieval fair|beekeeping:looking after two beehives:a honey tasting',
);

const hobby: FactKind = {
  name: 'hobby',
  lineCount: 1,
  weight: 3,
  draft(rng, p, o, [date]) {
    const h = rng.pick(HOBBIES);
    const d = drafting(rng, p, o, h);
    const when = d.when(date!);
    const v = d.variant(
      [
        "I {signed up for|joined|started} a [hobby] class [when], {it's so relaxing|I'm hooked already|it's harder than it looks}.",
        'What class did [p] {sign up for|join}?',
      ],
      ['Been getting into [hobby] lately, started [when]. I love [doing].', 'What has [p] been getting into lately?'],
      [
        "My new obsession is [hobby]! Since [when] I've been [doing] {every evening|whenever I can|nonstop}.",
        "What is [p]'s new obsession?",
      ],
      [
        '[When] I tried [hobby] for the first time and {loved it|was terrible but had fun|want to keep going}.',
        'What did [p] try for the first time?',
      ],
    );
    const questions = [
      rng.chance(0.6)
        ? { kind: 'single-hop' as const, q: v.question, answer: h.hobby, lines: [0] }
        : d.ask('single-hop', ['What new hobby did [p] {take up|pick up}?', 'What does [p] do to unwind these days?'], h.hobby),
    ];
    if (rng.chance(0.6))
      questions.push(
        d.ask('temporal', ['When did [p] start [hobby]?', 'When did [p] first try [hobby]?', 'When did [p] take up a new hobby?'], when),
      );
    if (rng.chance(0.2))
      questions.push(
        d.ask(
          'open-domain',
          ['Would [p] likely enjoy [related]?', 'Would [p] be interested in [related]?'],
          `yes, ${p.slots.he} does ${h.hobby}`,
        ),
      );
    return {
      lines: [v.line],
      echoes: [
        d.say("[Hobby]? {That's so cool!|I tried that once, it's tough.|You'll have to show me sometime.}"),
        d.say("Love that you're picking up new things! {Is it expensive to get started?|Do you go with anyone?}"),
      ],
      followUps: [d.say("{My instructor|The teacher} says I'm a natural, haha."), 'It really helps me switch off after work.'],
      callbacks: [d.say('Skipped [hobby] this week, too tired.'), d.say("I'm getting better at [hobby], slowly.")],
      questions,
      group: { name: 'hobby', value: h.hobby },
    };
  },
};

const HOMES = split(
  'a tiny studio apartment|a house with a big garden|a two-bedroom condo|a cabin near the woods|a townhouse|a loft above a bakery|a farmhouse',
);
const AREAS = split('downtown|in the suburbs|near the lake|by the river|across town|closer to my parents|on the east side');

const move: FactKind = {
  name: 'move',
  lineCount: 1,
  weight: 1,
  draft(rng, p, o, [date]) {
    const d = drafting(rng, p, o, { home: rng.pick(HOMES), area: rng.pick(AREAS) });
    const when = d.when(date!);
    const v = d.variant(
      ['We {finally moved|moved} into [home] [area] [when]!', 'What did [p] finally move into?'],
      ['[When] we got the keys to [home] [area]. {Boxes everywhere.|So much unpacking.}', 'What did [p] get the keys to?'],
      ["Moving day was [when]: [home] [area]. {It's small but cozy.|I love it already.}", 'Where did [p] go on moving day?'],
    );
    const answer = `${d.all.home} ${d.all.area}`;
    const questions = [
      rng.chance(0.6)
        ? { kind: 'single-hop' as const, q: v.question, answer, lines: [0] }
        : d.ask('single-hop', ['Where did [p] move?', 'What kind of place did [p] move into?', 'Where does [p] live now?'], answer),
    ];
    if (rng.chance(0.7))
      questions.push(
        d.ask(
          'temporal',
          ['When did [p] move into the new place?', 'When did [p] move [area]?', 'When did [p] get the keys to [his] new home?'],
          when,
        ),
      );
    return {
      lines: [v.line],
      echoes: [
        d.say('A new place! {Congrats!|Housewarming party when?|How is the neighbourhood?}'),
        'Moving is the worst, I hope you got help with the boxes.',
      ],
      followUps: ['Still living out of boxes, haha.', 'The neighbours brought cookies, so sweet.'],
      callbacks: ['Finally hung some pictures in the new place.', 'Still unpacking, I swear the boxes multiply.'],
      questions,
    };
  },
};

const RELATIVES = table(
  ['rel', 'rp', 'relq'],
  'sister:she:{sister|sibling|sis}|brother:he:{brother|sibling|bro}|cousin:she:cousin|cousin:he:cousin|mom:she:{mom|mother}|dad:he:{dad|father}|' +
    'grandma:she:{grandma|grandmother}|aunt:she:aunt|uncle:he:uncle|best friend:she:{best friend|closest friend|bestie}|best friend:he:{best friend|closest friend|buddy}',
);
const PLACES = split('Denver|Austin|Boston|Portland|Chicago|Toronto|Dublin|Seattle|Atlanta|Phoenix|Melbourne|Manchester');
const EVENTS = table(
  ['event', 'eventq'],
  'got engaged:get engaged|ran a full marathon:run a marathon|graduated from nursing school:graduate|had a baby girl:have a baby|' +
    'opened a little bakery:open a business|got promoted to manager:get promoted|won a local cooking contest:win a contest|' +
    'bought a sailboat:buy a boat|finished writing a novel:finish a book|adopted two cats:adopt pets',
);

const family: FactKind = {
  name: 'family',
  lineCount: 2,
  weight: 3,
  draft(rng, p, o, [dateA, dateB]) {
    const r = rng.pick(RELATIVES);
    const name = rng.pick(nameFor(r.rp).filter((n) => !p.relatives.some((x) => x.name === n)));
    const e = rng.pick(EVENTS);
    const d = drafting(rng, p, o, { ...r, rq: r.rp === 'she' ? 'her' : 'him', rn: name, place: rng.pick(PLACES), ...e });
    d.when(dateA!);
    const lineA = d.say(
      'My [rel] [rn] {just moved to|lives in} [place], {I miss [rq] so much|we talk every day|we are super close}.',
      '[Rn], my [rel], {came down|visited} from [place] [when]. {We had not seen each other in ages.|[Rp] always cheers me up.}',
      "Had a long call with my [rel] [rn] [when], [rp]'s loving life in [place].",
    );
    const whenB = d.when(dateB!);
    const lineB = d.say(
      '[Rn] {just|finally} [event] [when]! {So proud!|I cried a little.|We are celebrating this weekend.}',
      'Huge news from [rn]: [rp] [event] [when].',
    );
    p.relatives.push({ rel: r.rel, name });
    const questions = [
      d.ask(
        'multi-hop',
        ["What did [p]'s [relq] {do|achieve} recently?", "What big news did [p]'s [relq] share?", "What milestone did [p]'s [relq] reach?"],
        e.event,
        [0, 1],
      ),
    ];
    if (rng.chance(0.5))
      questions.push(d.ask('single-hop', ["Where does [p]'s [relq] live?", "Which city is [p]'s [relq] [rn] from?"], d.all.place!));
    if (rng.chance(0.6)) questions.push(d.ask('temporal', ['When did [rn] [eventq]?'], whenB, [1]));
    return {
      lines: [lineA, lineB],
      echoes: [d.say('Aw, family is everything. {How is [rn] doing?|Tell [rn] I said hi!}'), d.say('[Place] is so far though!')],
      followUps: ['We should plan a family dinner soon.'],
      callbacks: [d.say('[Rn] sent me the funniest video today.')],
      questions,
    };
  },
};

export const HOME_KINDS: FactKind[] = [hobby, move, family];
