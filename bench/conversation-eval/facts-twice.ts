// Fact kinds told over two sessions (multi-hop): a pet named in one, its vet visit in a later one; a child's
// activity, then the child's success.
import { type FactKind, drafting, nameFor } from './people.js';
import { split, table } from './text.js';

const TWO_SESSION_PETS = table(['species', 'pr'], 'dog:he|dog:she|cat:she|cat:he|rabbit:he|parrot:she');
const AILMENTS = split('ate a sock|hurt a paw|had a bad ear infection|swallowed part of a toy|stopped eating for a day|had a tooth pulled');

const vet: FactKind = {
  name: 'vet',
  lineCount: 2,
  weight: 1.5,
  draft(rng, p, o, [dateA, dateB]) {
    const s = rng.pick(TWO_SESSION_PETS);
    const name = rng.pick(split('Rex|Cleo|Milo|Daisy|Hugo|Poppy|Ollie|Lola|Zeus|Fern').filter((n) => !p.pets.some((x) => x.name === n)));
    const d = drafting(rng, p, o, { ...s, pet: name, ailment: rng.pick(AILMENTS) });
    p.pets.push({ name, species: s.species });
    d.when(dateA!);
    const lineA = d.say(
      'Our [species] [pet] is {three|five|eight} now and {still acts like a baby|is the laziest animal alive}.',
      'Have to get home soon to feed [pet], my [species].',
    );
    const when = d.when(dateB!);
    const lineB = d.say(
      'Had to take [pet] to the vet [when], [pr] [ailment]. {All fine now.|Poor thing.}',
      '[When] was a scary day, [pet] [ailment] and we rushed to the vet.',
    );
    return {
      lines: [lineA, lineB],
      echoes: [d.say('Aw, give [pet] a hug from me.'), 'Pets are family, seriously.'],
      followUps: ['Vet bills are no joke though.'],
      callbacks: [d.say('[Pet] is snoring next to me right now.')],
      questions: [
        d.ask(
          'multi-hop',
          [
            "Why did [p]'s [species] go to the vet?",
            "What was wrong with [p]'s {[species]|pet}?",
            "What health problem did [p]'s pet have?",
          ],
          d.all.ailment!,
          [0, 1],
        ),
        ...(rng.chance(0.5)
          ? [d.ask('temporal', ['When did [pet] go to the vet?', 'When did [p] rush [pet] to the vet?'], when, [1])]
          : []),
      ],
      group: { name: 'pet', value: name, extra: s.species },
    };
  },
};

const KID_ACTIVITIES = table(
  ['activity', 'win'],
  'soccer:scored the winning goal in the final|piano lessons:played a solo at the spring recital|chess club:won the school tournament|' +
    'swimming:made the regional swim team|the science fair:took first prize with a volcano|ballet:got a lead role in the winter show|' +
    'the debate team:won the state debate championship|karate:earned a brown belt',
);

const kid: FactKind = {
  name: 'kid',
  lineCount: 2,
  weight: 1.5,
  draft(rng, p, o, [dateA, dateB]) {
    const a = rng.pick(KID_ACTIVITIES);
    const word = rng.pick(['son', 'daughter']);
    const d = drafting(rng, p, o, {
      ...a,
      word,
      kn: rng.pick(nameFor(word === 'son' ? 'he' : 'she').filter((n) => !p.kids.some((k) => k.name === n))),
    });
    p.kids.push({ name: d.all.kn!, word });
    d.when(dateA!);
    const lineA = d.say(
      'My [word] [kn] just started [activity], {so cute|[kn] is obsessed already}.',
      '[When] we signed [kn] up for [activity], my [word] begged for months.',
    );
    const when = d.when(dateB!);
    const lineB = d.say('[Kn] [win] [when]! {Proud parent moment.|I screamed so loud.}', 'Big day [when]: [kn] [win].');
    return {
      lines: [lineA, lineB],
      echoes: [d.say('{Go [kn]!|That is adorable.} {Kids grow up so fast.|You must be so proud.}')],
      followUps: ['We went out for ice cream to celebrate.'],
      callbacks: [d.say('[Kn] wants to know if you are coming to visit.')],
      questions: [
        d.ask(
          'multi-hop',
          ["What did [p]'s {[word]|child|kid} {achieve|accomplish} recently?", "What was [p]'s {[word]|child} proud of lately?"],
          a.win,
          [0, 1],
        ),
        ...(rng.chance(0.5)
          ? [d.ask('single-hop', ["What activity did [p]'s [word] start?", "What is [p]'s [word] [kn] into?"], a.activity)]
          : []),
        ...(rng.chance(0.4)
          ? [d.ask('temporal', ["When was [kn]'s big moment in [activity]?", 'When did [p] have a proud parent moment?'], when, [1])]
          : []),
      ],
    };
  },
};
export const TWICE_KINDS: FactKind[] = [vet, kid];
