import type { MemoryCategory } from '@mindservice/contract';

/**
 * Templates for the distractor notes: everyday agent memories in the facts' style and domains
 * (family, work, health, schedule, home, money, tools, travel), with slot words chosen so that none
 * answers an evaluation question (no instruments, coffee, nut allergies, hiring, bikes, visas, ...;
 * no name or city a fact uses). `{slot}` is filled from the template's lists.
 */
export interface Template {
  category: MemoryCategory;
  text: string;
  slots: Record<string, readonly string[]>;
}

const NAMES = [
  'Jordan',
  'Alicia',
  'Marcus',
  'Hannah',
  'Raj',
  'Sofia',
  'Ben',
  'Chloe',
  'Diego',
  'Fatima',
  'Greg',
  'Irene',
  'Jamal',
  'Kenji',
];
const MORE_NAMES = ['Laura', 'Mateo', 'Nadia', 'Oscar', 'Paula', 'Rachel', 'Samir', 'Tessa', 'Umar', 'Vera', 'Wes', 'Yuki', 'Zoe', 'Elena'];
const CITIES = ['Seattle', 'Chicago', 'Toronto', 'Madrid', 'Dublin', 'Phoenix', 'Atlanta', 'Minneapolis', 'Vancouver', 'Edinburgh'];
const MORE_CITIES = ['Melbourne', 'Nashville', 'Pittsburgh', 'Amsterdam', 'Montreal', 'San Diego', 'Copenhagen', 'Prague'];
const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday'];
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const TIMES = ['10:00', '11:30', '1:00 pm', '2:30 pm', '4:00 pm', '8:45'];

export const TEMPLATES: Template[] = [
  {
    category: 'context',
    text: '{name} moved the {meeting} to {weekday} at {time}.',
    slots: {
      name: NAMES,
      meeting: [
        'vendor call',
        'design review',
        'budget check-in',
        'onboarding session',
        'quarterly planning',
        'client demo',
        'retrospective',
      ],
      weekday: WEEKDAYS,
      time: TIMES,
    },
  },
  {
    category: 'note',
    text: 'Add {grocery} and {grocery2} to the shopping list.',
    slots: {
      grocery: ['paper towels', 'lemons', 'rice', 'dish soap', 'tomatoes', 'olive oil', 'batteries', 'frozen peas', 'yogurt'],
      grocery2: ['sponges', 'garlic', 'pasta', 'laundry detergent', 'apples', 'trash bags', 'honey', 'canned beans'],
    },
  },
  {
    category: 'fact',
    text: "The user's cousin {name} lives in {city} and works in {industry}.",
    slots: { name: MORE_NAMES, city: CITIES, industry: ['insurance', 'logistics', 'real estate', 'publishing', 'retail', 'construction'] },
  },
  {
    category: 'preference',
    text: 'The user enjoys {genre} movies, mostly on {when}.',
    slots: {
      genre: ['science fiction', 'documentary', 'horror', 'romantic comedy', 'animated', 'heist', 'western'],
      when: ['Friday nights', 'long flights', 'rainy Sundays', 'holidays', 'weeknights after dinner'],
    },
  },
  {
    category: 'project',
    text: 'The {project} needs {thing} from {team} before {milestone}.',
    slots: {
      project: ['customer portal', 'onboarding flow', 'data warehouse', 'employee handbook', 'office move', 'newsletter', 'partner API'],
      thing: ['sign-off', 'budget approval', 'test data', 'two more reviewers', 'a security review', 'updated screenshots', 'load testing'],
      team: ['legal', 'the platform team', 'procurement', 'IT', 'the design group', 'operations'],
      milestone: ['the launch', 'the board meeting', 'the end of the quarter', 'the pilot', 'the holiday freeze'],
    },
  },
  {
    category: 'context',
    text: 'Went for a {distance} hike at {place} with {name} on {weekday}.',
    slots: {
      distance: ['6 km', '10 km', '12 km', '4 mile', '8 mile'],
      place: ['Eagle Ridge', 'the state park', 'Cedar Falls', 'the river trail', 'Pine Hollow', 'the botanical reserve'],
      name: NAMES,
      weekday: ['Saturday', 'Sunday', 'the long weekend'],
    },
  },
  {
    category: 'note',
    text: 'Paid the {bill} bill of {amount} on {month} {day}.',
    slots: {
      bill: ['water', 'internet', 'gas', 'home insurance', 'property tax', 'parking permit', 'cleaning service', 'lawn care'],
      amount: ['$48', '$62.50', '$85', '$120', '$214', '$390'],
      month: MONTHS,
      day: ['2', '9', '14', '21', '28'],
    },
  },
  {
    category: 'fact',
    text: 'Updated {software} to version {version} on the {device}.',
    slots: {
      software: ['Firefox', 'Zoom', 'Spotify', 'Docker Desktop', 'Photoshop', 'Excel', 'the printer driver', 'Audacity'],
      version: ['3.2', '11.4', '124', '5.0.1', '2.8', '17'],
      device: ['work laptop', 'home desktop', 'tablet', 'office workstation', 'old netbook'],
    },
  },
  {
    category: 'fact',
    text: '{name} from {company} prefers to be reached by {channel}.',
    slots: {
      name: MORE_NAMES,
      company: ['Globex', 'Initech', 'Northwind', 'Umbrella Logistics', 'Stark Supplies', 'Blue Harbor', 'Wayfield'],
      channel: ['phone', 'a Teams message', 'LinkedIn', 'their assistant', 'a calendar invite'],
    },
  },
  {
    category: 'note',
    text: "Finished reading '{book}'; {verdict}.",
    slots: {
      book: [
        'The Overstory',
        'Atomic Habits',
        'Project Hail Mary',
        'Sapiens',
        'The Midnight Library',
        'Educated',
        'Dune',
        'Thinking, Fast and Slow',
      ],
      verdict: [
        'would recommend it to Jordan',
        'slow in the middle but worth it',
        'the ending was disappointing',
        'gave it four stars',
        'wants the sequel next',
      ],
    },
  },
  {
    category: 'note',
    text: 'Idea for a blog post: {topic}.',
    slots: {
      topic: [
        'lessons from a failed product launch',
        'how to run shorter meetings',
        'a beginner guide to composting',
        'why small teams ship faster',
        'notes on negotiating a salary',
        'the case for boring technology',
        'what a year of journaling taught me',
        'estimating projects without guessing',
      ],
    },
  },
  {
    category: 'context',
    text: "The user's friend {name} is throwing a {party} in {city} on {month} {day}.",
    slots: {
      name: NAMES,
      party: ['housewarming party', 'retirement party', 'fortieth birthday dinner', 'game night', 'barbecue'],
      city: MORE_CITIES,
      month: MONTHS,
      day: ['6', '13', '20', '27'],
    },
  },
  {
    category: 'fact',
    text: "{name}'s birthday is {month} {day}; {pronoun} would like {gift}.",
    slots: {
      name: MORE_NAMES,
      month: MONTHS,
      day: ['3', '11', '17', '24', '30'],
      pronoun: ['they'],
      gift: ['a board game', 'concert tickets', 'a scented candle', 'a cookbook', 'a plant for the desk', 'a nice notebook'],
    },
  },
  {
    category: 'mistake',
    text: 'When drafting {doc}; the last one ran long and {consequence}.',
    slots: {
      doc: [
        'a project brief, keep it under two pages',
        'a status update, keep it under half a page',
        'the board memo, keep it to one page',
        'a proposal, keep it under five hundred words',
        'a conference talk, keep it under twenty slides',
        'a quarterly summary, keep it under three slides',
      ],
      consequence: ['nobody read it', 'the director skimmed it', 'it had to be cut in half', 'the review was postponed'],
    },
  },
  {
    category: 'note',
    text: 'Volunteer shift at the {place} is on {weekday} {hours}.',
    slots: {
      place: ['food bank', 'animal shelter front desk', 'public library', 'community kitchen', 'thrift store', 'school fair'],
      weekday: ['Saturday', 'Sunday', ...WEEKDAYS],
      hours: ['from 8:00 to noon', 'from 9:00 to 3:00 pm', 'from 1:00 pm to 5:00 pm', 'morning, 7:30 to 11:00', 'evening, 6 to 9 pm'],
    },
  },
  {
    category: 'note',
    text: 'The {fixture} needs {repair}; get quotes from {count} contractors.',
    slots: {
      fixture: [
        'garage door',
        'back fence',
        'porch light',
        'basement window',
        'deck railing',
        'front gate',
        'hallway ceiling fan',
        'gutter',
      ],
      repair: ['new hinges', 'repainting', 'a new motor', 'replacing', 'sealing before the rain'],
      count: ['two', 'three', 'a couple of'],
    },
  },
  {
    category: 'context',
    text: '{name} is out of the office until {month} {day}; {other} is covering {area}.',
    slots: {
      name: NAMES,
      month: MONTHS,
      day: ['2', '10', '19', '25'],
      other: MORE_NAMES,
      area: ['vendor questions', 'approvals', 'the on-call rota', 'client emails', 'purchase orders'],
    },
  },
  {
    category: 'fact',
    text: 'The {team} team uses {tool} for {purpose}.',
    slots: {
      team: ['design', 'marketing', 'sales', 'support', 'data', 'HR'],
      tool: ['Figma', 'Miro', 'Zoom', 'DocuSign', 'Typeform', 'Calendly', 'Looker', 'Mailchimp', 'Loom'],
      purpose: ['workshops', 'customer surveys', 'recorded walkthroughs', 'contract signatures', 'campaign mailings', 'weekly reporting'],
    },
  },
  {
    category: 'note',
    text: 'Recipe to try: {dish} with {ingredient}.',
    slots: {
      dish: [
        'shakshuka',
        'mushroom risotto',
        'lentil soup',
        'stuffed peppers',
        'gnocchi',
        'chickpea curry',
        'roasted cauliflower',
        'paella',
      ],
      ingredient: ['smoked paprika', 'fresh thyme', 'feta', 'brown butter', 'lemon zest', 'a splash of white wine'],
    },
  },
  {
    category: 'note',
    text: 'The {plant} on the {spot} needs watering {frequency}.',
    slots: {
      plant: ['fiddle leaf fig', 'snake plant', 'basil pot', 'orchid', 'tomato seedlings', 'monstera', 'succulent tray'],
      spot: ['windowsill', 'balcony', 'landing', 'bookshelf', 'porch'],
      frequency: ['twice a week', 'every ten days', 'only when the soil is dry', 'every morning in July'],
    },
  },
  {
    category: 'context',
    text: 'The user is reading up on {topic} {reason}.',
    slots: {
      topic: ['heat pumps', 'index funds', 'home composting', 'negotiation tactics', 'sleep hygiene', 'electric cars', 'stoic philosophy'],
      reason: [
        'out of curiosity',
        'for a talk next month',
        'after a chat with a colleague',
        'before deciding anything',
        'for a work project',
      ],
    },
  },
  {
    category: 'project',
    text: 'Planning the {event}: venue booked at {venue}, about {count} guests expected.',
    slots: {
      event: ['team offsite', 'charity run', 'launch party', 'alumni reunion', 'neighborhood cleanup', 'holiday party'],
      venue: ['the Grand Hall', 'Riverside Pavilion', 'the old brewery', 'a rooftop bar', 'the rowing club', 'the city museum'],
      count: ['40', '60', '85', '120', '200'],
    },
  },
  {
    category: 'fact',
    text: "The user's {service} account was set up with the {kind} address.",
    slots: {
      service: ['Spotify', 'Duolingo', 'Strava', 'Goodreads', 'Audible', 'Eventbrite', 'Meetup', 'Zillow'],
      kind: ['work', 'old university', 'family', 'secondary'],
    },
  },
  {
    category: 'note',
    text: 'Return the {item} to {store} before {month} {day}; the receipt is in the {place}.',
    slots: {
      item: ['extra rug', 'blender', 'wrong size jacket', 'duplicate charger', 'desk lamp', 'hiking boots'],
      store: ['Target', 'IKEA', 'the outdoor shop', 'Best Buy', 'the department store'],
      month: MONTHS,
      day: ['5', '15', '22'],
      place: ['glovebox', 'top desk drawer', 'blue folder', 'email inbox'],
    },
  },
  {
    category: 'mistake',
    text: 'The agent suggested a {place} that was closed on {weekday}s; check opening hours first.',
    slots: {
      place: ['museum', 'bakery', 'hardware store', 'pharmacy', 'library branch', 'farmers market', 'post office'],
      weekday: WEEKDAYS,
    },
  },
  {
    category: 'identity',
    text: "{name} is the user's {relation} and lives in {city}.",
    slots: {
      name: NAMES,
      relation: ['college roommate', 'old neighbor', 'mentor', 'climbing partner', 'childhood friend', 'tennis partner'],
      city: [...CITIES, ...MORE_CITIES],
    },
  },
  {
    category: 'note',
    text: 'Parking at the {place} is {detail}.',
    slots: {
      place: ['stadium', 'downtown office', 'airport garage', 'hospital annex', 'train station', 'convention center', 'mall'],
      detail: ['free after 6 pm', 'cheaper if booked online', 'on level three', 'validated at the front desk', 'cash only'],
    },
  },
  {
    category: 'context',
    text: 'Back from {city}; the {thing} was {verdict}.',
    slots: {
      city: [...CITIES, ...MORE_CITIES],
      thing: ['conference', 'food tour', 'museum pass', 'rental apartment', 'walking tour', 'weather'],
      verdict: ['excellent', 'overpriced', 'better than expected', 'a bit disappointing', 'worth repeating'],
    },
  },
  {
    category: 'note',
    text: 'Documentary to watch: {title}, recommended by {name}.',
    slots: {
      title: ['a series on deep sea life', 'a film about the Apollo program', 'a history of the printing press', 'one about urban farming'],
      name: MORE_NAMES,
    },
  },
  {
    category: 'fact',
    text: 'The office {amenity} is on the {floor} floor, next to {landmark}.',
    slots: {
      amenity: ['printer', 'mail room', 'quiet room', 'supply closet', 'lockers', 'first floor kitchenette'],
      floor: ['second', 'third', 'fifth', 'ground'],
      landmark: ['the elevators', 'reception', 'the large conference room', 'the stairwell'],
    },
  },
  {
    category: 'skill',
    text: 'The user is good at {skill} but rusty at {other}.',
    slots: {
      skill: ['public speaking', 'negotiating contracts', 'woodworking', 'spreadsheets', 'photo editing', 'gardening'],
      other: ['sewing', 'juggling', 'tennis', 'map reading', 'ice skating', 'knitting'],
    },
  },
  {
    category: 'note',
    text: 'The {appliance} {part} was replaced on {month} {day}.',
    slots: {
      appliance: ['furnace', 'air purifier', 'vacuum', 'humidifier', 'range hood', 'water heater'],
      part: ['filter', 'belt', 'fuse', 'cartridge', 'heating element'],
      month: MONTHS,
      day: ['1', '8', '16', '23'],
    },
  },
  {
    category: 'context',
    text: "{name}'s team at work is switching offices to the {building} in {month}.",
    slots: { name: NAMES, building: ['north tower', 'riverside campus', 'downtown annex', 'new co-working space'], month: MONTHS },
  },
  {
    category: 'preference',
    text: 'For {liking}.',
    slots: {
      liking: [
        'long drives, the user likes audiobooks',
        'rainy afternoons, the user likes jigsaw puzzles',
        'birthday dinners, the user likes a quiet table by the wall',
        'work lunches, the user likes salad bars',
        'lazy Sundays, the user likes crossword puzzles',
        'road trips, the user likes true crime audiobooks',
        'family gatherings, the user likes to host at home',
        'weeknight dinners, the user likes one-pot meals',
        'date nights, the user likes trying a new neighborhood',
        'flights, the user likes downloading a few films',
        'gifts, the user likes experiences more than things',
        'holidays, the user likes renting a cabin',
      ],
    },
  },
  {
    category: 'note',
    text: 'Sign up for the {activity} at the {place} before registration closes in {month}.',
    slots: {
      activity: ['5k fun run', 'photography walk', 'first-time homebuyer seminar', 'cooking demo', 'trivia league', 'tax workshop'],
      place: ['rec center', 'public library', 'town hall', 'university extension', 'church hall'],
      month: MONTHS,
    },
  },
  {
    category: 'project',
    text: 'The {project} report is {status}; {name} owes the {part}.',
    slots: {
      project: ['customer satisfaction', 'vendor audit', 'accessibility', 'office energy', 'user research', 'security awareness'],
      status: ['half done', 'in review', 'waiting on data', 'ready except for charts'],
      name: MORE_NAMES,
      part: ['summary', 'survey results', 'cost estimate', 'interview notes', 'final charts'],
    },
  },
  {
    category: 'fact',
    text: "The user's {relative} {name} is visiting from {city} {when}.",
    slots: {
      relative: ['aunt', 'uncle', 'godfather', 'cousin', 'stepbrother', 'old school friend'],
      name: MORE_NAMES,
      city: MORE_CITIES,
      when: ['next weekend', 'at the end of the month', 'for three days in May', 'for a long weekend in October'],
    },
  },
  {
    category: 'note',
    text: 'Ask {name} about {topic} at the next one-on-one.',
    slots: {
      name: NAMES,
      topic: [
        'the conference budget',
        'moving to the platform team',
        'the vendor contract renewal',
        'training options',
        'the onboarding checklist',
        'the roadmap for next year',
      ],
    },
  },
  {
    category: 'preference',
    text: "The user's favourite {thing} is {value}.",
    slots: {
      thing: ['season', 'ice cream flavour', 'flower', 'holiday', 'museum', 'sports team'],
      value: ['autumn', 'pistachio', 'peonies', 'the Fourth of July', 'the natural history museum', 'the local hockey team'],
    },
  },
  {
    category: 'fact',
    text: 'The {room} was painted {colour} in {month}.',
    slots: {
      room: ['guest bedroom', 'hallway', 'home office', 'nursery', 'downstairs bathroom', 'laundry room'],
      colour: ['sage green', 'off-white', 'pale blue', 'warm grey', 'terracotta'],
      month: MONTHS,
    },
  },
  {
    category: 'project',
    text: 'The {deliverable} for {client} is in {stage}; next step is {step}.',
    slots: {
      deliverable: ['brand guidelines', 'training video', 'pricing study', 'store layout', 'annual survey'],
      client: ['Globex', 'Northwind', 'Blue Harbor', 'the city council', 'the hospital foundation'],
      stage: ['first draft', 'client review', 'final edits', 'planning'],
      step: ['a review call', 'collecting feedback', 'booking the print run', 'a workshop with their team'],
    },
  },
  {
    category: 'mistake',
    text: 'The agent quoted the {thing} in {wrong}; always use {right} for this user.',
    slots: {
      thing: ['hotel price', 'contractor estimate', 'conference fee', 'furniture total'],
      wrong: ['euros', 'pounds', 'Canadian dollars'],
      right: ['US dollars'],
    },
  },
  {
    category: 'context',
    text: 'The user is mentoring {name}, a junior {role}, every other {weekday}.',
    slots: { name: MORE_NAMES, role: ['analyst', 'designer', 'product manager', 'accountant', 'researcher'], weekday: WEEKDAYS },
  },
  {
    category: 'note',
    text: 'The library books are due back on {month} {day}; {extra}.',
    slots: {
      month: MONTHS,
      day: ['4', '12', '19', '26'],
      extra: [
        'renew online if not finished',
        'one of them is on hold for someone else',
        'the fine is small but adds up',
        'drop box is by the side entrance',
      ],
    },
  },
  {
    category: 'fact',
    text: 'The {items} are stored in the {place}.',
    slots: {
      items: ['winter coats', 'camping gear', 'holiday decorations', 'old tax records', 'spare blankets', 'photo albums', 'paint cans'],
      place: ['attic', 'basement closet', 'garage loft', 'storage unit on Maple Road', 'hall cupboard'],
    },
  },
  {
    category: 'note',
    text: '{name} recommended {place} in {city} for {purpose}.',
    slots: {
      name: NAMES,
      place: ['a small hotel near the harbour', 'a co-working space', 'a walking tour company', 'a family-run bakery', 'a vintage market'],
      city: [...CITIES, ...MORE_CITIES],
      purpose: ['the next visit', 'a weekend away', 'an anniversary trip', 'client meetings'],
    },
  },
  {
    category: 'context',
    text: 'The neighbours are {work} until {month}, so {effect}.',
    slots: {
      work: ['renovating their kitchen', 'building an extension', 'replacing their roof', 'redoing the driveway'],
      month: MONTHS,
      effect: [
        'mornings are noisy',
        'street parking is hard to find',
        'calls are better taken in the back room',
        'there is a skip on the street',
      ],
    },
  },
  {
    category: 'fact',
    text: "The user's {service} subscription costs {amount} a month.",
    slots: {
      service: ['newspaper', 'meal kit', 'meditation app', 'cloud photo storage', 'fitness class pass', 'language tutoring'],
      amount: ['$4', '$9.99', '$12', '$15', '$29', '$60'],
    },
  },
  {
    category: 'identity',
    text: 'The user studied {subject} at {university} and {detail}.',
    slots: {
      subject: ['economics', 'chemistry', 'history', 'architecture', 'statistics', 'philosophy'],
      university: ['a state university', 'a small liberal arts college', 'the local community college', 'a university abroad'],
      detail: [
        'still keeps in touch with classmates',
        'rowed on the college team',
        'worked in the campus library',
        'graduated with honours',
      ],
    },
  },
  {
    category: 'context',
    text: 'The user volunteers as {role} for {org}.',
    slots: {
      role: ['a reading tutor', 'a treasurer', 'a tour guide', 'a coach', 'a driver', 'a mentor'],
      org: ['the neighbourhood association', 'a literacy charity', 'the historical society', 'a youth sports league', 'the local hospice'],
    },
  },
  {
    category: 'project',
    text: 'The {team} retrospective raised {issue}; {name} owns the follow-up.',
    slots: {
      team: ['platform', 'support', 'marketing', 'data', 'mobile'],
      issue: [
        'too many late changes',
        'unclear ownership of alerts',
        'slow code reviews',
        'meetings running over',
        'flaky test environments',
      ],
      name: MORE_NAMES,
    },
  },
  {
    category: 'note',
    text: 'Take the {item} to the {shop} for {service}.',
    slots: {
      item: ['wool coat', 'watch', 'leather boots', 'suit jacket', 'rug', 'knife set'],
      shop: ['dry cleaner', 'jeweller', 'cobbler', 'tailor', 'repair shop downtown'],
      service: ['cleaning', 'a new battery', 'resoling', 'hemming', 'sharpening', 'a quick fix'],
    },
  },
  {
    category: 'note',
    text: 'Holiday card list: add {name} and {name2}, {why}.',
    slots: {
      name: NAMES,
      name2: MORE_NAMES,
      why: ['new neighbours', 'met at the conference', 'from the hiking group', 'they sent one last year'],
    },
  },
  {
    category: 'fact',
    text: 'The {place} farmers market runs {day} mornings from {start} to {end}.',
    slots: {
      place: ['downtown', 'riverside', 'Oak Street', 'university'],
      day: ['Saturday', 'Sunday', 'Wednesday'],
      start: ['April', 'May', 'June'],
      end: ['October', 'November', 'September'],
    },
  },
  {
    category: 'skill',
    text: 'The user has {done} and wants to try {next}.',
    slots: {
      done: [
        'built two bookshelves',
        'done three escape rooms',
        'taught a workshop on spreadsheets',
        'planted a vegetable bed',
        'organised a charity auction',
      ],
      next: ['a standing desk', 'a harder puzzle room', 'a longer course', 'growing herbs indoors', 'running a raffle'],
    },
  },
  {
    category: 'context',
    text: '{name} from the {team} team is leaving at the end of {month}; {plan}.',
    slots: {
      name: NAMES,
      team: ['finance', 'legal', 'design', 'sales', 'facilities'],
      month: MONTHS,
      plan: [
        'a farewell lunch is being planned',
        'the handover doc is in progress',
        'a card is going around',
        'the replacement starts right after',
      ],
    },
  },
  {
    category: 'mistake',
    text: 'The agent rounded the {figure} in the {doc}; keep exact numbers in financial documents.',
    slots: {
      figure: ['tax estimate', 'invoice total', 'quarterly spend', 'mortgage rate', 'travel reimbursement'],
      doc: ['board summary', 'email to the accountant', 'expense claim', 'budget memo'],
    },
  },
  {
    category: 'note',
    text: 'Weekend plan: {first} on Saturday, {second} on Sunday.',
    slots: {
      first: ['clean out the garage', 'visit the flea market', 'see the new exhibit', 'help Jordan move', 'the farmers market'],
      second: ['a slow brunch', 'meal prep for the week', 'a drive to the lake', 'catching up on paperwork', 'a movie at home'],
    },
  },
  {
    category: 'note',
    text: 'Check whether {store} price-matches the {item} before buying it.',
    slots: {
      store: ['Target', 'Best Buy', 'the outdoor shop', 'Costco', 'the furniture outlet'],
      item: ['air fryer', 'standing desk', 'tent', 'vacuum cleaner', 'office chair', 'speaker'],
    },
  },
  {
    category: 'context',
    text: "The user's sleep has been {state} since {event}.",
    slots: {
      state: ['poor', 'restless', 'better', 'irregular'],
      event: ['the clocks changed', 'the new project started', 'the heat wave', 'the move', 'cutting out late screens'],
    },
  },
  {
    category: 'note',
    text: 'Meeting notes ({topic}): {decision}.',
    slots: {
      topic: ['vendor review', 'space planning', 'holiday schedule', 'quarterly goals', 'customer feedback'],
      decision: [
        'decided to wait until next quarter',
        'two options shortlisted',
        'Jordan to send a summary',
        'budget approved with changes',
        'follow-up in two weeks',
      ],
    },
  },
];
