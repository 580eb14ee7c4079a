// Fact kinds about things that happen: purchases, plans, feelings, injuries.
import { type FactKind, drafting } from './people.js';
import { futureTime, split, table } from './text.js';

const ITEMS = table(
  ['item', 'reason', 'reasonq', 'open'],
  'electric bike:so I can ride to work:to get to the office:Does [p] try to avoid driving to work?|' +
    'espresso machine:because the coffee at work is awful:for coffee:Does [p] probably drink coffee every morning?|' +
    'used piano:to finally learn some Chopin:to learn music:Does [p] play a musical instrument?|' +
    'standing desk:because my back was killing me:for back pain:Does [p] likely work at a computer all day?|' +
    'camper van:for weekend road trips:for traveling:Does [p] enjoy sleeping outdoors on the road?|' +
    "telescope:to look at Saturn's rings:to see planets:Is [p] interested in astronomy?|" +
    'kayak:to paddle around the lake:for the water:Does [p] enjoy water sports?|' +
    'air fryer:because everyone kept raving about it:for the kitchen:|' +
    "record player:to play my dad's old vinyl:for music:Does [p] collect albums?|" +
    'sewing machine:to make my own clothes:for making clothes:Is [p] a crafty person?|' +
    '3D printer:to print parts for my projects:for projects:Is [p] into technology and making things?|' +
    'hybrid car:because gas prices are insane:to save on fuel:Does [p] care about fuel costs?|' +
    'drone:to film the coastline:for aerial videos:Is [p] into filmmaking?|' +
    'rowing machine:to work out at home:for exercise:Does [p] care about staying fit?|' +
    'pair of hiking boots:for the trail season:for hiking:Does [p] enjoy the outdoors?',
);

const purchase: FactKind = {
  name: 'purchase',
  lineCount: 1,
  weight: 2,
  draft(rng, p, o, [date]) {
    const it = rng.pick(ITEMS);
    const d = drafting(rng, p, o, it);
    const when = d.when(date!);
    const v = d.variant(
      [
        'I finally {bought|splurged on|treated myself to} a [item] [when], [reason]. {Best purchase ever.|My wallet hurts.}',
        'What did [p] finally {buy|splurge on}?',
      ],
      ['Guess what arrived [when]? My new [item]! Got it [reason].', 'What new thing arrived for [p]?'],
      ['[When] I picked up a {second-hand|brand new|shiny} [item] [reason].', 'What did [p] pick up [reasonq]?'],
    );
    const questions = [
      rng.chance(0.6)
        ? { kind: 'single-hop' as const, q: v.question, answer: it.item, lines: [0] }
        : d.ask('single-hop', ['What did [p] buy [reasonq]?', 'What did [p] purchase recently?', 'What did [p] get [reasonq]?'], it.item),
    ];
    if (rng.chance(0.5))
      questions.push(
        d.ask(
          'temporal',
          ['When did [p] buy the [item]?', 'When did [p] get [his] [item]?', 'When did [p] buy something [reasonq]?'],
          when,
        ),
      );
    if (it.open && rng.chance(0.25))
      questions.push(d.ask('open-domain', [it.open], `likely yes: ${p.slots.he} bought a ${it.item} ${it.reason}`));
    return {
      lines: [v.line],
      echoes: [d.say('Ooh, a [item]! {Was it expensive?|Where did you find it?|I want one too.}'), 'Treat yourself, you deserve it!'],
      followUps: ['Took me forever to decide which one to get.', 'I read about a hundred reviews first, haha.'],
      callbacks: [d.say('Used the [item] again today, {still love it|no regrets}.')],
      questions,
    };
  },
};

const PLANS = split(
  'half marathon|job interview at a design studio|piano recital|camping trip to Yosemite|housewarming party|talk at a tech conference|' +
    "cousin's wedding|driving test|knee surgery|final exams|art show|charity bake sale|family reunion|first triathlon",
);

const plan: FactKind = {
  name: 'plan',
  lineCount: 1,
  weight: 2,
  draft(rng, p, o, [date]) {
    const t = futureTime(rng, date!);
    const d = drafting(rng, p, o, { plan: rng.pick(PLANS), fut: t.phrase });
    const v = d.variant(
      ['{Mark your calendar|Heads up|Guess what}: my [plan] is [fut]!', 'What did [p] tell [o] to mark on the calendar?'],
      ["I'm so nervous about the [plan] [fut].", 'What is [p] nervous about?'],
      ['Counting down to my [plan], it is [fut].', 'What is [p] counting down to?'],
      ['So the [plan] is happening [fut], {I have so much to prepare|can not wait}.', 'What is happening for [p] [fut]?'],
    );
    return {
      lines: [v.line],
      echoes: [
        d.say("{You'll do great!|How exciting!|Good luck!} {Are you ready?|What's left to do?}"),
        d.say('Oh wow, the [plan]! Keep me posted.'),
      ],
      followUps: ['I made a whole checklist for it.', 'Trying not to think about it too much.'],
      callbacks: [d.say('Getting ready for the [plan] is eating all my free time.')],
      questions: [
        d.ask(
          'temporal',
          ["When is [p]'s [plan]?", 'When {will|does} [p] have {the|[his]} [plan]?', 'When is the [plan] [p] mentioned?'],
          t.answer,
        ),
        ...(rng.chance(0.5)
          ? [
              rng.chance(0.6)
                ? { kind: 'single-hop' as const, q: v.question, answer: d.all.plan!, lines: [0] }
                : d.ask(
                    'single-hop',
                    ['What is [p] {getting ready for|preparing for}?', 'What event does [p] have coming up?'],
                    d.all.plan!,
                  ),
            ]
          : []),
      ],
    };
  },
};

const WORRIES = split(
  "a huge deadline at work|my mom's health|all the wedding planning|money, the rent went up again|my thesis defense|" +
    'fighting with my roommate|the layoffs at my company|my grandpa being in the hospital|the move across the country',
);

const feeling: FactKind = {
  name: 'feeling',
  lineCount: 1,
  weight: 1.5,
  draft(rng, p, o) {
    const d = drafting(rng, p, o, { worry: rng.pick(WORRIES) });
    const v = d.variant(
      [
        "Honestly I've been {so stressed|really anxious|totally overwhelmed} {lately|this month} because of [worry].",
        'Why has [p] been {so stressed|anxious|overwhelmed} lately?',
      ],
      ['Not gonna lie, [worry] has me {losing sleep|on edge|in a funk}.', 'What has [p] {losing sleep|on edge}?'],
      ["I can't stop worrying about [worry], {it's all I think about|it's exhausting}.", 'What can [p] not stop worrying about?'],
    );
    return {
      lines: [v.line],
      echoes: [
        "I'm sorry, that sounds really hard. {I'm here if you need to talk.|Be kind to yourself.}",
        'Sending you a big hug. {Anything I can do?|Hang in there.}',
      ],
      followUps: ['Thanks, talking about it helps.', 'Trying to go for walks to clear my head.'],
      callbacks: ['Feeling a bit better this week, thanks for asking.'],
      questions: [
        rng.chance(0.6)
          ? { kind: 'single-hop' as const, q: v.question, answer: d.all.worry!, lines: [0] }
          : d.ask(
              'single-hop',
              ['Why has [p] been feeling {stressed|anxious|overwhelmed}?', 'What is keeping [p] up at night?'],
              d.all.worry!,
            ),
      ],
    };
  },
};

const INJURIES = table(
  ['injury', 'part', 'doing'],
  'sprained my ankle:ankle:playing basketball|broke my wrist:wrist:ice skating|pulled a muscle in my back:back:moving furniture|' +
    'twisted my knee:knee:skiing|cut my hand pretty badly:hand:chopping onions|hurt my shoulder:shoulder:playing tennis|' +
    'burned my arm:arm:taking a pizza out of the oven|bruised my ribs:ribs:falling off my bike',
);

const injury: FactKind = {
  name: 'injury',
  lineCount: 1,
  weight: 1,
  draft(rng, p, o, [date]) {
    const i = rng.pick(INJURIES);
    const d = drafting(rng, p, o, i);
    const when = d.when(date!);
    const questions = [
      d.ask(
        'single-hop',
        ['How did [p] hurt [his] [part]?', 'What was [p] doing when [he] got injured?', 'How did [p] get hurt?'],
        i.doing,
      ),
    ];
    if (rng.chance(0.6))
      questions.push(
        d.ask('temporal', ['When did [p] injure [his] [part]?', 'When did [p] get hurt [doing]?', 'When did [p] have an accident?'], when),
      );
    return {
      lines: [
        d.say(
          'I [injury] [doing] [when], {ugh|so dumb|it hurts like crazy}.',
          '[When] I [injury] while [doing]. {Never again.|Doctor says two weeks of rest.}',
        ),
      ],
      echoes: ['Oh no! {Are you okay?|Did you see a doctor?|Rest up!}', d.say('Ouch, your [part]! {Take it easy.|That sounds painful.}')],
      followUps: ['It looks worse than it is, I think.'],
      callbacks: [d.say('My [part] is finally feeling better.')],
      questions,
    };
  },
};

export const EVENT_KINDS: FactKind[] = [purchase, plan, feeling, injury];
