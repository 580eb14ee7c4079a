// Chit-chat between the facts: greetings, reactions, small talk and questions back, in many wordings.
// It carries no fact a question asks for, but it uses the same everyday words ("what", "when", "weekend",
// "work", "trip") as the questions do, as real chat does.
import { fill, type Rng, split } from './text.js';

const SLOTS = {
  food: split('tacos|leftover pizza|a huge salad|pho|a burrito|pancakes|sushi|grilled cheese|curry|a smoothie|dumplings|pasta'),
  show: split(
    'that baking show|a true crime documentary|the new detective series|an old sitcom|a nature documentary|some reality TV|a Korean drama|the football game',
  ),
  weather: split(
    'raining nonstop|so hot I can barely think|freezing|really windy|weirdly warm for this time of year|gray and gloomy|perfect, sunny and mild|snowing again',
  ),
  chore: split(
    'clean the garage|do my taxes|fix the leaky faucet|sort out my closet|mow the lawn|answer a mountain of emails|call the insurance company|repaint the bathroom',
  ),
  day: split('Monday|Tuesday|Wednesday|Thursday|Friday|weekend|week|morning|day'),
  drink: split('coffee|tea|iced latte|hot chocolate|green tea|lemonade'),
  place: split('the park|the farmers market|the mall|the library|the beach|the gym|a new cafe|my parents'),
};

function slots(rng: Rng, speaker: string, other: string): Record<string, string> {
  const out: Record<string, string> = { o: other, me: speaker };
  for (const [k, v] of Object.entries(SLOTS)) out[k] = rng.pick(v);
  return out;
}

const GREETINGS = split(
  "Hey [o]! {How have you been|What's new with you|Long time no chat|How's your [day] going}?|Hi [o], {good to hear from you|it's been a while|how are things}!|" +
    '{Hey|Hi|Hello} [o]! {Sorry I went quiet|I was just thinking about you|Hope your [day] is going well}.|' +
    "Morning, [o]! {Got my [drink], ready to chat.|What's up?}|Hey hey! {It's been ages.|How's life treating you?}",
);

const FAREWELLS = split(
  '{Gotta run|I should get going|Okay I have to go}, {talk soon|catch up later|chat soon}!|Take care, [o]! {Say hi to everyone for me.|Talk to you soon.}|' +
    "Bye for now! {Let's chat again soon.|Have a great [day].}|{Alright|Okay}, {dinner's ready|my battery is dying}, bye!|" +
    'Good talking to you, [o]. {Take it easy!|Keep me posted!}',
);

const REACTIONS = split(
  "That's {amazing|awesome|wonderful|so cool|incredible}!|Wow, {good for you|I love that|that's great news}!|Haha, {I love that|that's hilarious|classic}.|" +
    'Oh no, {that sounds rough|I am sorry|that is the worst}.|{Totally|Absolutely|Same here}, I know exactly what you mean.|I can imagine!|So true.|' +
    "Aw, {that's sweet|I'm so happy for you|that made my day}.|Oh really? {Tell me more!|I had no idea.}|{Ha|Lol}, same.|That makes sense.|" +
    'No way! {Seriously?|That is wild.}|Ugh, {I hate when that happens|that is so annoying}.|{Fair enough|Good point}, honestly.',
);

const QUESTIONS = split(
  'What about you?|How was your [day]?|Did you do anything fun {this weekend|lately|last night}?|What have you been up to?|' +
    "How's work {treating you|going|these days}?|How is the family doing?|When do you think things will calm down?|Any plans for the {summer|holidays|weekend}?|" +
    'What are you doing {tonight|this weekend|later}?|How did that go?|Did you ever {try|watch} [show]?|What did you have for {dinner|lunch}?|' +
    'When are we finally getting coffee?|How have you been sleeping?|Did you end up going to [place]?|What did you think of it?|' +
    'Why do you think that is?|How many times have I told you to rest, haha?|How do you do it all?|Where are you right now?',
);

const SMALL_TALK = split(
  "It's been [weather] here all [day].|I'm so tired today, {I need another [drink]|I barely slept}.|Work has been {busy|crazy|slow} but {fine|okay|manageable}.|" +
    'Nothing much this weekend, just {relaxing at home|catching up on sleep|running errands}.|I had [food] for lunch and now I want a nap.|' +
    'I should really [chore] this weekend.|Been binge-watching [show], {no regrets|send help}.|Traffic was {terrible|a nightmare} this morning.|' +
    "Went to [place] {yesterday|earlier} and it was {packed|empty|lovely}.|I'm trying to drink less [drink], it's not going well.|" +
    "Can't believe it's already {Thursday|the end of the month|almost summer|autumn}.|My phone screen cracked {again|this week}, ugh.|" +
    'I finally got around to doing laundry, big win.|Our neighbours are {renovating|having a party} and it is so loud.|' +
    'I keep meaning to call you and then the [day] just disappears.|Today was one of those days where nothing went right.|' +
    'I made a to-do list and then ignored it completely.|{Honestly|Lately} I just want to stay in with [food] and [show].|' +
    'The weather has been [weather], so I mostly stayed inside.|I was at [place] for hours today.|Just got home, long [day].',
);

const AGREEMENTS = split(
  "Yeah, {exactly|for sure|definitely}.|I know, right?|Thanks, [o], {that means a lot|you're the best|I appreciate it}.|" +
    "{Haha|Ha}, you're not wrong.|Same, honestly.|True, true.|I'll keep you posted!|Thank you! {It's been a ride.|Fingers crossed.}|" +
    'For real, it has been a lot.|Right? {I keep saying that.|Glad it is not just me.}',
);

type FillerKind = 'greeting' | 'farewell' | 'chat';

/** One line of chit-chat by `speaker` to `other`. */
export function filler(rng: Rng, kind: FillerKind, speaker: string, other: string): string {
  const s = slots(rng, speaker, other);
  const t = (list: string[]) => fill(rng, rng.pick(list), s);
  if (kind === 'greeting') return t(GREETINGS);
  if (kind === 'farewell') return t(FAREWELLS);
  const r = rng.next();
  if (r < 0.25) return `${t(REACTIONS)} ${t(QUESTIONS)}`;
  if (r < 0.5) return t(SMALL_TALK);
  if (r < 0.62) return `${t(SMALL_TALK)} ${t(QUESTIONS)}`;
  if (r < 0.77) return t(REACTIONS);
  if (r < 0.9) return t(AGREEMENTS);
  return t(QUESTIONS);
}

/** The question back that hands the turn to the other person ("What's new with you?"). */
export function handOver(rng: Rng, other: string): string {
  return fill(
    rng,
    rng.pick(
      split(
        "Anyway, enough about me. {What's new with you|How are you doing|What's going on in your world}?|" +
          "What about you, [o]? {Anything new?|How's everything?}|How are things on your end?|Okay your turn, what's new?",
      ),
    ),
    { o: other },
  );
}
