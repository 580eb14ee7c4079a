// Fact kinds about a person's life: pets, work, trips. Each says a fact in one
// of several wordings and asks about it in others, so questions share some words with their turns, not all.
import { type FactKind, drafting } from './people.js';
import { split, table } from './text.js';

const SPECIES = table(
  ['species', 'young', 'alt', 'open', 'openAnswer'],
  'dog:puppy:pup:Does [p] have a pet that needs walking every day?:yes, a dog|' +
    'cat:kitten:kitty:Would [p] need a litter box at home?:yes, for the cat|' +
    'rabbit:bunny:bun:Does [p] keep a pet that eats hay?:yes, a rabbit|' +
    'parrot:baby parrot:bird:Does [p] have a pet that can learn to talk?:yes, a parrot|' +
    'hamster:baby hamster:furball:Does [p] own a small rodent?:yes, a hamster|' +
    'tortoise:baby tortoise:shell buddy:Is there a reptile living in [p] home?:yes, a tortoise|' +
    'guinea pig:baby guinea pig:piggy:Does [p] look after a rodent?:yes, a guinea pig|' +
    'ferret:ferret kit:fuzzball:Does [p] own an animal related to weasels?:yes, a ferret',
);
const PET_NAMES = split(
  'Biscuit|Luna|Pepper|Oscar|Maple|Ziggy|Nugget|Olive|Bruno|Mochi|Pickles|Juniper|Waffles|Sage|Rocket|Toby|Pumpkin|Kiwi|Bean',
);

const pet: FactKind = {
  name: 'pet',
  lineCount: 1,
  weight: 3,
  draft(rng, p, o, [date]) {
    const s = rng.pick(SPECIES);
    const name = rng.pick(PET_NAMES.filter((n) => !p.pets.some((x) => x.name === n)));
    const g = rng.chance(0.5) ? { pp: 'her', pq: 'her' } : { pp: 'him', pq: 'his' };
    const d = drafting(rng, p, o, { ...s, ...g, pet: name });
    const when = d.when(date!);
    p.pets.push({ name, species: s.species });
    const questions = [
      d.ask(
        'single-hop',
        ["What is the name of [p]'s [species]?", 'What did [p] name {[his]|the} new [young]?', "What is [p]'s [species] called?"],
        name,
      ),
    ];
    if (rng.chance(0.6))
      questions.push(
        d.ask(
          'temporal',
          ['When did [p] adopt [pet]?', 'When did [p] get {a|the|[his]} [species]?', "When did [pet] join [p]'s family?"],
          when,
        ),
      );
    if (rng.chance(0.2)) questions.push(d.ask('open-domain', [s.open.replace('[p] home', "[p]'s home")], s.openAnswer));
    return {
      lines: [
        d.say(
          '{We|I} {adopted|brought home|rescued} a [young] [when]! {We named [pp]|[Pq] name is|We are calling [pp]} [pet].',
          "Big news: there's a new [alt] in the house since [when]. Meet [pet], {our|my} [species] from {the shelter|a rescue|a neighbour's litter}.",
          '[When] [pet] {joined|became part of} the family, a {tiny|fluffy|very loud} little [young].',
          'I finally {caved|gave in} and got a [species] [when]. {The kids|My partner|My roommate|I} named [pp] [pet].',
        ),
      ],
      echoes: [
        d.say("{Aww|Oh my gosh|No way}, a [young]! {Send pics!|What breed?|How is [pet] settling in?|I'm so jealous.}"),
        d.say('[Pet] is such a cute name! {Is [pp] house-trained yet?|Does [pp] get along with everyone?}'),
        d.say("I've always wanted a [species]. {Enjoy the chaos!|They're so much work though.}"),
      ],
      followUps: [d.say('{[Pq] favourite thing is|[Pp] loves} {chewing socks|napping in the sun|the crinkly toy|sitting on my laptop}.')],
      callbacks: [
        d.say('[Pet] {knocked over|chewed up|destroyed} my {favourite mug|new shoes|houseplant} again, lol.'),
        d.say('Sorry, slow replies, [pet] wants attention.'),
        d.say('[Pet] says hi! {Just had dinner.|Currently asleep on the couch.}'),
      ],
      questions,
      group: { name: 'pet', value: name, extra: s.species },
    };
  },
};

const JOBS = table(
  ['job', 'org', 'field', 'industry'],
  "nurse:St. Mary's Hospital:nursing:health care|software developer:a fintech startup:computer science:tech|" +
    'third-grade teacher:Lincoln Elementary:education:education|accountant:a small accounting firm:accounting:finance|' +
    'sous chef:a tapas restaurant downtown:culinary arts:restaurants|graphic designer:a branding agency:graphic design:advertising|' +
    'physical therapist:a sports clinic:physical therapy:health care|electrician:a local contractor:an electrical apprenticeship:construction|' +
    'librarian:the public library:library science:public service|pharmacist:a neighbourhood pharmacy:pharmacy:health care|' +
    'architect:an architecture studio:architecture:design and construction|reporter:the city newspaper:journalism:media|' +
    'veterinary technician:an animal clinic:veterinary science:animal care|data analyst:an insurance company:statistics:insurance|' +
    'paramedic:the county ambulance service:emergency medicine:emergency services|paralegal:a law firm downtown:law:legal services|' +
    'marketing coordinator:a sneaker brand:marketing:retail|social worker:a family services nonprofit:social work:social services',
);

const job: FactKind = {
  name: 'job',
  lineCount: 1,
  weight: 1.5,
  draft(rng, p, o, [date]) {
    const j = rng.pick(JOBS);
    const d = drafting(rng, p, o, j);
    const when = d.when(date!);
    const v = d.variant(
      ['I {started|began} my new job as a [job] at [org] [when]!', 'Where did [p] {start|begin} [his] new job?'],
      ["Guess who's officially a [job]? My first day at [org] was [when].", 'Where did [p] have [his] first day of work?'],
      [
        'So I {accepted|took} the [job] position at [org], I started [when]. {Nervous but excited.|Still can not believe it.|Wish me luck!}',
        'What position did [p] {accept|take}?',
      ],
      [
        '[When] was my first {shift|day} as a [job]. [Org] {seems great so far|is a bit chaotic but fun}.',
        'What did [p] work [his] first shift as?',
      ],
    );
    const answer = `${j.job} at ${j.org}`;
    const questions = [
      rng.chance(0.6)
        ? { kind: 'single-hop' as const, q: v.question, answer, lines: [0] }
        : d.ask('single-hop', ["What is [p]'s new job?", 'What does [p] do for a living these days?', 'Where did [p] get hired?'], answer),
    ];
    if (rng.chance(0.6))
      questions.push(
        d.ask(
          'temporal',
          [
            'When did [p] start working at [org]?',
            'When did [p] begin [his] new role as a [job]?',
            'When did [p] change jobs?',
            'When did [p] start the new job?',
          ],
          when,
        ),
      );
    if (rng.chance(0.35))
      questions.push(
        rng.chance(0.5)
          ? d.ask('open-domain', ['What might [p] have studied in school?', 'What degree might [p] have?'], j.field)
          : d.ask('open-domain', ['Which industry does [p] work in?', 'What sector is [p] employed in?'], j.industry),
      );
    return {
      lines: [v.line],
      echoes: [
        d.say('Congrats on the new {job|gig|role}! {How are your coworkers?|Is the commute okay?|You must be thrilled.}'),
        d.say('A [job]? That suits you so well.'),
        d.say("Wow, [org]! {That's huge.|I've heard good things about them.}"),
      ],
      followUps: [d.say('{The team|My manager} seems {really nice|super supportive}.'), 'Still figuring out where everything is, haha.'],
      callbacks: [
        d.say('Long day at work again, {the new place|[org]} is keeping me busy.'),
        'Work has been intense, but I am learning a lot.',
      ],
      questions,
    };
  },
};

const CITIES = table(
  ['city', 'country', 'continent', 'sight'],
  'Lisbon:Portugal:Europe:old yellow trams|Kyoto:Japan:Asia:temples and the bamboo forest|Barcelona:Spain:Europe:Sagrada Familia|' +
    'Reykjavik:Iceland:Europe:hot springs|Marrakech:Morocco:Africa:souks|Vancouver:Canada:North America:seawall in Stanley Park|' +
    'Prague:the Czech Republic:Europe:castle and the bridges|Cusco:Peru:South America:ruins up in the mountains|' +
    'Edinburgh:Scotland:Europe:castle on the hill|Hanoi:Vietnam:Asia:street food stalls|Buenos Aires:Argentina:South America:tango shows|' +
    'Cape Town:South Africa:Africa:view from Table Mountain|Sydney:Australia:Oceania:harbour and the beaches|Istanbul:Turkey:Europe:Grand Bazaar|' +
    'Oaxaca:Mexico:North America:markets and the mole|Copenhagen:Denmark:Europe:colourful harbour houses|Santorini:Greece:Europe:sunsets|' +
    'Banff:Canada:North America:turquoise lakes|Seoul:South Korea:Asia:night markets|Amsterdam:the Netherlands:Europe:canals|' +
    'New Orleans:the United States:North America:jazz bars|Queenstown:New Zealand:Oceania:bungee jump',
);
const COMPANIONS = split('my sister|my partner|some college friends|the kids|my mom|two coworkers|my best friend|my cousin');

const trip: FactKind = {
  name: 'trip',
  lineCount: 1,
  weight: 2.5,
  draft(rng, p, o, [date]) {
    const c = rng.pick(CITIES);
    const unused = COMPANIONS.filter((x) => !p.used.has(x));
    const comp = rng.pick(unused.length ? unused : COMPANIONS);
    p.used.add(comp);
    const d = drafting(rng, p, o, { ...c, comp, compq: comp.replace(/^my /, `${p.slots.his} `) });
    const when = d.when(date!);
    const questions = [
      rng.chance(0.7)
        ? d.ask('single-hop', ['Where did [p] {travel|go} with [compq]?', 'Which city did [p] visit with [compq]?'], c.city)
        : d.ask('single-hop', ['What did [p] see in [city]?', 'Who did [p] go to [city] with?'], `${c.sight}, with ${comp}`),
    ];
    if (rng.chance(0.6))
      questions.push(
        d.ask(
          'temporal',
          [
            'When did [p] go to [city]?',
            "When was [p]'s trip to [city]?",
            'When did [p] {visit|travel to} [country]?',
            'When did [p] take a trip with [compq]?',
          ],
          when,
        ),
      );
    if (rng.chance(0.25))
      questions.push(
        d.ask(
          'open-domain',
          ['Which country did [p] visit with [compq]?', 'Has [p] ever been to [continent]?', 'In which country did [p] see the [sight]?'],
          `${c.country} (${c.city})`,
        ),
      );
    return {
      lines: [
        d.say(
          'Just got back from [city] [when]! {Went|Traveled} with [comp] and we {saw|explored} the [sight].',
          '[When] I was in [city] with [comp]. The [sight] {blew me away|made the whole trip}.',
          'We got back [when] from {a week|five days|a long weekend} in [city], [comp] and me. {Still dreaming about|Can not stop thinking about} the [sight].',
          'Finally crossed [city] off my bucket list [when]! [Comp] {came along|joined me}.',
        ),
      ],
      echoes: [
        d.say("[City]! {I've always wanted to go.|How was the food?|Was it crowded?}"),
        d.say('Sounds like an amazing trip. {Did you take lots of photos?|How was the flight?}'),
        "Oh I'm so jealous, I need a vacation.",
      ],
      followUps: ['{The flight back was rough though.|Jet lag is hitting hard.|We walked like 20,000 steps a day.}'].map((t) => d.say(t)),
      callbacks: [d.say('Still looking at my photos from [city].'), d.say('I miss [city] already, honestly.')],
      questions,
      group: { name: 'trip', value: c.city, extra: c.country },
    };
  },
};

export const LIFE_KINDS: FactKind[] = [pet, job, trip];
