// Fact kinds about how people spend their time: meals cooked, books, volunteering, courses, concerts.
import { type FactKind, drafting } from './people.js';
import { split, table } from './text.js';

const DISHES = table(
  ['dish', 'cuisine'],
  'lasagna:Italian|pad thai:Thai|tamales:Mexican|ramen:Japanese|paella:Spanish|butter chicken:Indian|pierogi:Polish|' +
    'jollof rice:West African|moussaka:Greek|bibimbap:Korean|shakshuka:North African|gumbo:Creole',
);
const OCCASIONS = split(
  "my dad's birthday|the potluck at work|Sunday dinner|our anniversary|a friend's housewarming|game night|my book club|my niece's graduation",
);

const cooking: FactKind = {
  name: 'cooking',
  lineCount: 1,
  weight: 1.5,
  draft(rng, p, o, [date]) {
    const di = rng.pick(DISHES);
    const occasion = rng.pick(OCCASIONS);
    const d = drafting(rng, p, o, { ...di, occasion, occasionq: occasion.replace(/^(my|our) /, `${p.slots.his} `) });
    d.when(date!);
    const questions = [
      d.ask(
        'single-hop',
        ['What did [p] cook for [occasionq]?', 'What dish did [p] make for [occasionq]?', 'What did [p] bring to [occasionq]?'],
        di.dish,
      ),
    ];
    if (rng.chance(0.25))
      questions.push(
        d.ask(
          'open-domain',
          ['What cuisine did [p] cook for [occasionq]?', "Which country's food did [p] serve at [occasionq]?"],
          di.cuisine,
        ),
      );
    return {
      lines: [
        d.say(
          'I made [dish] from scratch for [occasion] [when], {it was a hit|nothing was left|it took all afternoon}.',
          '[When] I cooked [dish] for [occasion]. {Everyone asked for the recipe!|Not bad for a first try.}',
          'For [occasion] I {whipped up|attempted} [dish]. {Turned out great!|A little too spicy, haha.}',
        ),
      ],
      echoes: [d.say('{Yum|Oh man|Mmm}, [dish]! {Save me some next time.|Can you send me the recipe?}'), 'You are such a good cook!'],
      followUps: ['My kitchen was a disaster afterwards though.'],
      callbacks: ['I have leftovers for days.'],
      questions,
      group: { name: 'dish', value: di.dish },
    };
  },
};

const BOOKS = table(
  ['title', 'author', 'genre'],
  'The Night Circus:Erin Morgenstern:fantasy|Educated:Tara Westover:memoir|Project Hail Mary:Andy Weir:science fiction|' +
    'Gone Girl:Gillian Flynn:thriller|Where the Crawdads Sing:Delia Owens:mystery|Sapiens:Yuval Noah Harari:history|' +
    'Becoming:Michelle Obama:memoir|Little Women:Louisa May Alcott:classic|Dune:Frank Herbert:science fiction|' +
    'Circe:Madeline Miller:mythology|Atomic Habits:James Clear:self-help|The Silent Patient:Alex Michaelides:thriller',
);

const book: FactKind = {
  name: 'book',
  lineCount: 1,
  weight: 1.2,
  draft(rng, p, o, [date]) {
    const b = rng.pick(BOOKS);
    const d = drafting(rng, p, o, b);
    d.when(date!);
    const v = d.variant(
      [
        'I just finished [title] by [author]. {Could not put it down.|The ending got me.|Highly recommend.}',
        'What did [p] just finish reading?',
      ],
      ['[When] I stayed up way too late finishing [title], {so good|what a ride}.', 'What book kept [p] up way too late?'],
      [
        'My book club picked [title] this month, {loving it so far|not sure about it yet}. [Author] is a great writer.',
        "What did [p]'s book club pick?",
      ],
    );
    const questions = [
      rng.chance(0.5)
        ? { kind: 'single-hop' as const, q: v.question, answer: b.title, lines: [0] }
        : rng.chance(0.6)
          ? d.ask(
              'single-hop',
              ['What book did [p] read recently?', 'Which novel has [p] been reading?', 'What is [p] reading these days?'],
              b.title,
            )
          : d.ask('single-hop', ['Who wrote the book [p] was reading?', 'Who is the author of the book [p] mentioned?'], b.author),
    ];
    if (rng.chance(0.25))
      questions.push(
        d.ask('open-domain', ['What genre of books might [p] enjoy?', 'What kind of stories does [p] like to read?'], b.genre),
      );
    return {
      lines: [v.line],
      echoes: [
        d.say('{Ooh|Oh nice}, [title]! {Is it worth reading?|I have that on my shelf.|No spoilers please!}'),
        'I need a good book, add it to my list.',
      ],
      followUps: ['I read it in like three sittings.'],
      callbacks: ['Looking for my next book, any suggestions?'],
      questions,
    };
  },
};

const VOLUNTEER = table(
  ['place', 'cause'],
  "animal shelter:animal welfare|food bank:fighting hunger|soup kitchen:homelessness|community garden:the environment|children's hospital:sick children|" +
    'beach cleanup:ocean conservation|literacy program:education|retirement home:the elderly',
);

const volunteer: FactKind = {
  name: 'volunteer',
  lineCount: 1,
  weight: 1.2,
  draft(rng, p, o, [date]) {
    const v = rng.pick(VOLUNTEER);
    const d = drafting(rng, p, o, v);
    const when = d.when(date!);
    const w = d.variant(
      [
        'I {volunteered|spent the day volunteering} at the [place] [when], {it was so rewarding|I want to go back every week}.',
        'Where did [p] spend the day volunteering?',
      ],
      ['[When] I helped out at the [place]. {Exhausting but worth it.|Met some amazing people.}', 'Where did [p] help out?'],
    );
    const questions = [
      rng.chance(0.6)
        ? { kind: 'single-hop' as const, q: w.question, answer: v.place, lines: [0] }
        : d.ask('single-hop', ['Where did [p] volunteer?', 'What kind of volunteer work did [p] do?'], v.place),
    ];
    if (rng.chance(0.5))
      questions.push(
        d.ask(
          'temporal',
          ['When did [p] volunteer at the [place]?', 'When did [p] help out at the [place]?', 'When did [p] do volunteer work?'],
          when,
        ),
      );
    if (rng.chance(0.25))
      questions.push(d.ask('open-domain', ['What cause does [p] care about?', 'What issue is [p] passionate about?'], v.cause));
    return {
      lines: [w.line],
      echoes: [
        "That's so kind of you. {How did you get involved?|I should do that too.}",
        d.say('The [place]? {What did you do there?|That must have been moving.}'),
      ],
      followUps: ['It puts everything in perspective, you know?'],
      callbacks: [d.say('Going back to the [place] this weekend.')],
      questions,
      group: { name: 'volunteer', value: v.place },
    };
  },
};

const COURSES = split(
  'night class in accounting|online course on machine learning|sign language class|first aid certification course|Italian class|' +
    'photography workshop|creative writing workshop|coding bootcamp|real estate licensing course|pastry course',
);

const course: FactKind = {
  name: 'course',
  lineCount: 1,
  weight: 1,
  draft(rng, p, o, [date]) {
    const d = drafting(rng, p, o, { course: rng.pick(COURSES) });
    const when = d.when(date!);
    const v = d.variant(
      ['I enrolled in a [course] [when]!', 'What did [p] enroll in?'],
      ['Started a [course] [when], homework again at my age, haha.', 'What gave [p] homework again?'],
      ['Signed up for a [course] [when], {first session was fun|lots of reading already}.', 'What did [p] sign up for?'],
    );
    return {
      lines: [v.line],
      echoes: ['Back to school! {How is it going?|Is it hard?}', 'Good for you, always learning something new.'],
      followUps: ['The instructor is really good.'],
      callbacks: [d.say('Had my [course] session tonight, brain is fried.')],
      questions: [
        rng.chance(0.6)
          ? { kind: 'single-hop' as const, q: v.question, answer: d.all.course!, lines: [0] }
          : d.ask('single-hop', ['What course is [p] taking?', 'What is [p] studying in the evenings?'], d.all.course!),
        ...(rng.chance(0.5)
          ? [
              d.ask(
                'temporal',
                ['When did [p] enroll in the [course]?', 'When did [p] start the [course]?', 'When did [p] go back to school?'],
                when,
              ),
            ]
          : []),
      ],
    };
  },
};

const BANDS = table(
  ['band', 'genre', 'venue'],
  'The Paper Lanterns:indie folk:the Fillmore|Midnight Static:synth pop:the arena downtown|Crimson Harbor:rock:an outdoor festival|' +
    'Ella and the Tides:soul:a tiny jazz club|Los Coyotes:mariachi:the county fair|Velvet Orchard:jazz:the riverside amphitheatre|' +
    'The Hollow Pines:bluegrass:a barn venue|Neon Fable:K-pop:the stadium|Marlow:house music:a warehouse party',
);

const concert: FactKind = {
  name: 'concert',
  lineCount: 1,
  weight: 1,
  draft(rng, p, o, [date]) {
    const b = rng.pick(BANDS);
    const d = drafting(rng, p, o, b);
    const when = d.when(date!);
    const questions = [
      d.ask(
        'single-hop',
        ['Which band did [p] see live?', 'What concert did [p] go to?', 'Where did [p] see [band]?'],
        `${b.band} at ${b.venue}`,
      ),
    ];
    if (rng.chance(0.5))
      questions.push(
        d.ask(
          'temporal',
          ['When did [p] see [band]?', 'When did [p] go to the [band] concert?', 'When did [p] go to a [genre] concert?'],
          when,
        ),
      );
    if (rng.chance(0.25))
      questions.push(d.ask('open-domain', ['What kind of music does [p] like?', 'What music genre is [p] into?'], b.genre));
    return {
      lines: [
        d.say(
          '[When] I saw [band] live at [venue], {best concert ever|my ears are still ringing|the crowd was wild}.',
          'Went to the [band] show at [venue] [when]! {They played all my favourites.|So loud, so good.}',
        ),
      ],
      echoes: [
        d.say('{No way|Oh cool}, [band]! {Were they good live?|I love them.|How were the seats?}'),
        'I have not been to a concert in forever.',
      ],
      followUps: ['I bought a t-shirt, obviously.'],
      callbacks: [d.say('Still listening to [band] on repeat.')],
      questions,
    };
  },
};

export const PASTIME_KINDS: FactKind[] = [cooking, book, volunteer, course, concert];
