// The lexicons the transcript generator writes calls from. A turn is an opener (hedge, politeness, tone) + a
// core phrasing + a tail, and every `{synonym}` in them is drawn per turn from SYNONYMS, so each phenomenon has
// hundreds of distinct phrasings; `{data}` placeholders are filled from the call's own rows (names, amounts,
// dates, products). Plan-suite fact phrases ('cheaper offer', 'brief hold', …) stay among the core phrasings.
// Nothing here decides a label: the slot a phrasing belongs to is chosen from the call's facts first.

/** Per-turn synonym draws: `{key}` in a phrasing becomes one of these. */
export const SYNONYMS: Record<string, readonly string[]> = {
  bill: ['bill', 'statement', 'invoice', 'monthly bill', 'account statement'],
  charge: ['charge', 'fee', 'payment', 'line item', 'transaction'],
  cancel: ['cancel', 'close', 'terminate', 'shut down', 'end'],
  service: ['service', 'account', 'contract', 'subscription', 'plan'],
  supervisor: ['supervisor', 'manager', 'team lead', 'floor manager', 'supervisor or a manager'],
  fix: ['fix', 'sort out', 'resolve', 'take care of', 'deal with'],
  fixed: ['fixed', 'sorted', 'resolved', 'taken care of', 'all set'],
  check: ['check', 'look into', 'take a look at', 'review', 'pull up'],
  sorry: ['sorry', 'really sorry', 'so sorry', 'very sorry'],
  thanks: ['thanks', 'thank you', 'thanks a lot', 'thank you very much', 'cheers'],
  money: ['money', 'funds', 'cash'],
  internet: ['internet', 'wifi', 'connection', 'broadband', 'data'],
  device: ['phone', 'device', 'handset', 'tablet', 'hotspot'],
  order: ['order', 'package', 'parcel', 'delivery', 'shipment'],
  login: ['log in', 'sign in', 'get into my account', 'access my account'],
  website: ['website', 'app', 'online portal', 'customer portal'],
  today: ['today', 'right now', 'on this call', 'this time'],
  upset: ['upset', 'annoyed', 'frustrated', 'fed up', 'angry'],
  happy: ['happy', 'pleased', 'glad', 'relieved', 'delighted'],
  really: ['really', 'honestly', 'seriously', 'genuinely', 'truly'],
  colleague: ['colleague', 'specialist', 'team member', 'coworker'],
  department: ['department', 'team', 'desk', 'group'],
  wait: ['one moment', 'a moment', 'a minute', 'a couple of minutes', 'just a second'],
};

/** The company the agents work for, drawn per call. */
export const COMPANY_NAMES = ['Northwind Mobile', 'Brightline', 'Crestel', 'Lumen Wireless', 'Telvio', 'Orbit Connect'] as const;
export const DEVICES = ['Pixel 8', 'Galaxy S24', 'iPhone 15', 'Moto G Power', 'Nokia X30', 'OnePlus 12', 'Galaxy Tab A9', 'iPad Air', 'Netgear Nighthawk', 'Arris Surfboard', 'Eero Pro', 'TP-Link Archer'] as const;
export const PLANS = ['Unlimited Plus', 'Essentials', 'Family Share', 'Basic Talk', 'Premium Unlimited', 'Starter 5GB', 'Go Flex', 'Business Pro', 'Prepaid Value', 'Student Saver'] as const;
export const ADD_ONS = ['international calling', 'premium streaming', 'device protection', 'cloud storage', 'roaming pass', 'hotspot boost', 'music bundle', 'sports package'] as const;
export const CITIES = ['Springfield', 'Riverside', 'Fairview', 'Madison', 'Georgetown', 'Clinton', 'Salem', 'Greenville', 'Franklin', 'Bristol', 'Oakland', 'Arlington', 'Dayton', 'Lexington', 'Milton', 'Ashland', 'Burlington', 'Dover', 'Hudson', 'Kingston', 'Manchester', 'Newport', 'Oxford', 'Plymouth', 'Auburn', 'Bedford', 'Chester', 'Jackson', 'Marion', 'Troy'] as const;
export const STREETS = ['Maple', 'Oak', 'Cedar', 'Pine', 'Elm', 'Walnut', 'Willow', 'Birch', 'Lake', 'Hill', 'Park', 'River', 'Sunset', 'Highland', 'Meadow', 'Church', 'Mill', 'Spring', 'Forest', 'Washington', 'Lincoln', 'Jefferson', 'Chestnut', 'Poplar', 'Magnolia', 'Dogwood', 'Hickory', 'Sycamore', 'Laurel', 'Aspen'] as const;
export const STREET_KINDS = ['Street', 'Avenue', 'Road', 'Lane', 'Drive', 'Court', 'Boulevard', 'Way', 'Place', 'Terrace'] as const;
export const CARRIERS = ['UPS', 'FedEx', 'the postal service', 'DHL', 'the courier', 'the delivery company'] as const;
export const COMPETITORS = ['Verizon', 'T-Mobile', 'AT&T', 'Mint Mobile', 'Visible', 'Cricket', 'Comcast', 'Spectrum', 'a local provider', 'another carrier'] as const;
/** Customers' names (customers have no name column: drawn from the customer id, so a customer keeps one name). */
export const CUSTOMER_FIRST_NAMES = ['Maria', 'James', 'Aisha', 'Chen', 'Liam', 'Sofia', 'Noah', 'Priya', 'Mateo', 'Olga', 'Kwame', 'Emma', 'Diego', 'Hana', 'Lucas', 'Fatima', 'Ethan', 'Ines', 'Tomasz', 'Grace', 'Rafael', 'Yuki', 'Omar', 'Clara', 'Jonas', 'Leila', 'Marco', 'Nadia', 'Paolo', 'Zoe', 'Patricia', 'Robert', 'Jennifer', 'Michael', 'Linda', 'William', 'Elizabeth', 'David', 'Barbara', 'Richard', 'Susan', 'Joseph', 'Jessica', 'Thomas', 'Sarah', 'Charles', 'Karen', 'Christopher', 'Nancy', 'Daniel', 'Lisa', 'Matthew', 'Betty', 'Anthony', 'Margaret', 'Mark', 'Sandra', 'Donald', 'Ashley', 'Steven', 'Kimberly', 'Paul', 'Emily', 'Andrew', 'Donna', 'Joshua', 'Michelle', 'Kenneth', 'Dorothy', 'Kevin', 'Carol', 'Brian', 'Amanda', 'George', 'Melissa', 'Timothy', 'Deborah', 'Ronald', 'Stephanie', 'Jason', 'Rebecca', 'Edward', 'Sharon', 'Jeffrey', 'Laura', 'Ryan', 'Cynthia', 'Jacob', 'Kathleen', 'Gary', 'Amy', 'Nicholas', 'Angela', 'Eric', 'Shirley', 'Jonathan', 'Anna', 'Stephen', 'Brenda', 'Larry', 'Pamela', 'Justin', 'Emma', 'Scott', 'Nicole', 'Brandon', 'Helen', 'Benjamin', 'Samantha', 'Samuel', 'Katherine', 'Gregory', 'Christine', 'Alexander', 'Debra', 'Frank', 'Rachel', 'Patrick', 'Carolyn', 'Raymond', 'Janet', 'Jack', 'Catherine', 'Dennis', 'Maria', 'Jerry', 'Heather', 'Tyler', 'Diane', 'Aaron', 'Ruth', 'Jose', 'Julie', 'Adam', 'Olivia', 'Nathan', 'Joyce', 'Henry', 'Virginia', 'Douglas', 'Victoria', 'Zachary', 'Kelly', 'Peter', 'Lauren', 'Kyle', 'Christina', 'Ethan', 'Joan', 'Walter', 'Evelyn', 'Noah', 'Judith', 'Jeremy', 'Megan', 'Christian', 'Andrea', 'Keith', 'Cheryl', 'Roger', 'Hannah', 'Terry', 'Jacqueline', 'Gerald', 'Martha', 'Harold', 'Gloria', 'Sean', 'Teresa', 'Austin', 'Ann', 'Carl', 'Sara', 'Arthur', 'Madison', 'Lawrence', 'Frances', 'Dylan', 'Kathryn', 'Jesse', 'Janice', 'Jordan', 'Jean', 'Bryan', 'Abigail', 'Billy', 'Alice', 'Joe', 'Julia', 'Bruce', 'Judy', 'Gabriel', 'Sophia', 'Logan', 'Grace', 'Albert', 'Denise', 'Willie', 'Amber', 'Alan', 'Doris', 'Juan', 'Marilyn', 'Wayne', 'Danielle', 'Elijah', 'Beverly', 'Randy', 'Isabella', 'Roy', 'Theresa', 'Vincent', 'Diana', 'Ralph', 'Natalie', 'Eugene', 'Brittany', 'Russell', 'Charlotte', 'Bobby', 'Marie', 'Mason', 'Kayla', 'Philip', 'Alexis', 'Louis', 'Lori'] as const;
export const CUSTOMER_SURNAMES = ['Santos', 'Smith', 'Khan', 'Wang', 'Murphy', 'Rossi', 'Kim', 'Patel', 'Garcia', 'Nowak', 'Mensah', 'Brown', 'Lopez', 'Sato', 'Silva', 'Haddad', 'Miller', 'Costa', 'Kowalski', 'Reyes', 'Johnson', 'Williams', 'Jones', 'Davis', 'Rodriguez', 'Martinez', 'Hernandez', 'Gonzalez', 'Wilson', 'Anderson', 'Thomas', 'Taylor', 'Moore', 'Jackson', 'Martin', 'Lee', 'Perez', 'Thompson', 'White', 'Harris', 'Sanchez', 'Clark', 'Ramirez', 'Lewis', 'Robinson', 'Walker', 'Young', 'Allen', 'King', 'Wright', 'Scott', 'Torres', 'Nguyen', 'Hill', 'Flores', 'Green', 'Adams', 'Nelson', 'Baker', 'Hall', 'Rivera', 'Campbell', 'Mitchell', 'Carter', 'Roberts', 'Gomez', 'Phillips', 'Evans', 'Turner', 'Diaz', 'Parker', 'Cruz', 'Edwards', 'Collins', 'Stewart', 'Morris', 'Morales', 'Cook', 'Rogers', 'Gutierrez', 'Ortiz', 'Morgan', 'Cooper', 'Peterson', 'Bailey', 'Reed', 'Kelly', 'Howard', 'Ramos', 'Cox', 'Ward', 'Richardson', 'Watson', 'Brooks', 'Chavez', 'Wood', 'James', 'Bennett', 'Gray', 'Mendoza', 'Ruiz', 'Hughes', 'Price', 'Alvarez', 'Castillo', 'Sanders', 'Myers', 'Long', 'Ross', 'Foster', 'Jimenez', 'Powell', 'Jenkins', 'Perry', 'Russell', 'Sullivan', 'Bell', 'Coleman', 'Butler', 'Henderson', 'Barnes', 'Fisher', 'Vasquez', 'Simmons', 'Romero', 'Jordan', 'Patterson', 'Alexander', 'Hamilton', 'Graham', 'Reynolds', 'Griffin', 'Wallace', 'Moreno', 'West', 'Cole', 'Hayes', 'Bryant', 'Herrera', 'Gibson', 'Ellis', 'Tran', 'Medina', 'Aguilar', 'Stevens', 'Murray', 'Ford', 'Castro', 'Marshall', 'Owens', 'Harrison', 'Fernandez', 'McDonald', 'Woods', 'Washington', 'Kennedy', 'Wells', 'Vargas', 'Henry', 'Chen', 'Freeman', 'Webb', 'Tucker', 'Guzman', 'Burns', 'Crawford', 'Olson', 'Simpson', 'Porter', 'Hunter', 'Gordon', 'Mendez', 'Silva', 'Shaw', 'Snyder', 'Mason', 'Dixon', 'Munoz', 'Hunt', 'Hicks', 'Holmes', 'Palmer', 'Wagner', 'Black', 'Robertson', 'Boyd', 'Rose', 'Stone', 'Salazar', 'Fox', 'Warren', 'Mills', 'Meyer', 'Rice', 'Schmidt', 'Garza', 'Daniels', 'Ferguson', 'Nichols', 'Stephens', 'Soto', 'Weaver', 'Ryan', 'Gardner', 'Payne', 'Grant', 'Dunn', 'Kelley', 'Spencer', 'Hawkins', 'Arnold', 'Pierce', 'Vazquez', 'Hansen', 'Peters', 'Santiago'] as const;
export const RELATIVES = ['daughter', 'son', 'wife', 'husband', 'mother', 'father', 'partner', 'grandson', 'niece', 'roommate'] as const;

/** Tone openers for the customer's first words, by sentiment band. */
export const OPENERS = {
  negative: [
    'I am really frustrated.', 'Look, I have called about this before.', 'Honestly I am fed up.', 'This is the third time I am calling.',
    'I am not happy at all.', 'Finally, a person.', 'I have been waiting forever to get through.', 'I am pretty {upset} right now.',
    'Okay so I am {really} annoyed.', 'I will be honest, I am losing my patience.', 'Ugh, hi.', 'I have had a terrible week with you guys.',
  ],
  neutral: [
    'Hello.', 'Hi.', 'Hi, yes.', 'Hey there.', 'Good morning.', 'Good afternoon.', 'Yeah hi.', 'Hello, thanks for picking up.', 'Hi, so',
    'Okay, hi.', 'Hello, I hope you can help.', 'Hi, quick question.',
  ],
  positive: [
    'Hi there!', 'Hello, how are you doing today?', 'Hi, thanks so much for taking my call.', 'Good morning, hope your day is going well.',
    'Hey, great to get someone so fast.', 'Hi! Nice to talk to you.', 'Hello, I appreciate the help.', 'Hi, you guys are usually great.',
    'Morning! Thanks for answering.', 'Hello, lovely to speak to you.', 'Hi, I am sure this is an easy one.', 'Hey, hope you are well.',
  ],
} as const;

/** Words a speaker puts in front of a sentence. */
export const HEDGES = ['', '', '', '', 'So ', 'Well, ', 'Basically ', 'Yeah so ', 'Okay so ', 'Right, ', 'Honestly ', 'I mean, ', 'Alright, ', 'Look, ', 'Actually '] as const;
/** Fillers and false starts spoken mid-sentence (the disfluency rate decides how often). */
export const FILLERS = ['um', 'uh', 'er', 'you know,', 'like,', 'I mean', 'sort of', 'kind of', 'hmm', 'well'] as const;

/** What the customer says first, by call driver: the reason for the call. */
export const ISSUES: Record<string, readonly string[]> = {
  billing_dispute: [
    'there is a charge on my bill that I do not recognise',
    'I have a {charge} on my {bill} that I never agreed to',
    'my {bill} is way higher than it should be this month',
    'I think I have been overcharged on my last {bill}',
    'there is a {amount} dollar {charge} I do not understand',
    'I got charged twice for the same thing',
    'why is my {bill} {amount} dollars more than usual',
    'I want to dispute a {charge} on my {bill}',
    'somebody needs to explain this {charge} from {date}',
    'my {bill} shows a fee for {addon} which I never ordered',
  ],
  payment_arrangement: [
    'I need to set up a payment plan for my balance',
    'I cannot pay the whole balance this month',
    'can I split my payment into a few installments',
    'I lost my job and I am behind on my {bill}',
    'I need a bit more time to pay, can you extend the due date',
    'my payment is going to be late this month',
    'is there any way to spread the {amount} dollars over a couple of months',
    'I missed the payment on {date} and I want to catch up',
    'I would like to arrange a payment schedule',
    'can I push my due date back a couple of weeks',
  ],
  outage: [
    'my service has been down since this morning',
    'my {internet} is not working at all',
    'there is no signal at my house since {day}',
    'I have had no {internet} for hours',
    'everything just went dead around lunchtime',
    'is there an outage in {city}, nothing is working',
    'my {internet} keeps dropping every few minutes',
    'I cannot make calls or get online',
    'the whole neighbourhood seems to have lost connection',
    'my {device} says no service and the lights on the router are red',
  ],
  device_setup: [
    'I cannot get my new device set up',
    'I just got the {product} and it will not activate',
    'my new {device} is stuck on the activation screen',
    'I need help setting up the {product} I bought',
    'the {product} says SIM not supported',
    'I am trying to move my number to my new {device} and it is not working',
    'my new {device} will not connect to the network',
    'I cannot transfer my contacts to the new {product}',
    'the setup keeps giving me an error code',
    'the eSIM on my {product} will not download',
  ],
  plan_change: [
    'I would like to change my plan',
    'I want to upgrade to {plan}',
    'can I move to a less expensive plan',
    'I am looking to move to {plan} instead of what I have',
    'I keep running out of data every month',
    'I want to downgrade, I do not use all my data',
    'what plans do you have with more data',
    'I would like to drop {addon} from my plan',
    'can you tell me what it would cost to go to {plan}',
    'my plan is too expensive for what I use',
  ],
  cancellation: [
    'I want to cancel my account',
    'I would like to {cancel} my {service}',
    'I am calling to {cancel} everything',
    'please {cancel} my {service} effective today',
    'I have decided to leave and go with {competitor}',
    'I want to end my contract',
    'I am moving and I need to {cancel} the {service}',
    'how do I close my account',
    'I need to terminate my {service}',
    'I no longer want your {service}',
  ],
  password_reset: [
    'I am locked out of my online account',
    'I cannot {login} on the {website}',
    'I forgot my password and the reset does not work',
    'my account got locked after too many attempts',
    'I keep getting an invalid password error',
    'I need to reset my password',
    'the {website} will not let me {login}',
    'I cannot remember my login details',
    'I changed my password and now I cannot {login}',
    'the verification code never comes to my phone',
  ],
  shipping_delay: [
    'my order has not arrived yet',
    'my {order} was supposed to be here on {date}',
    'where is my {order}, it is really late',
    'the {order} never showed up',
    'I ordered the {product} two weeks ago and nothing',
    'the {order} says delivered but I never got it',
    'I am still waiting on my {order}',
    '{carrier} has had my {order} for days',
    'my {product} still has not shipped',
    'I think my {order} got lost',
  ],
  refund_request: [
    'I want a refund for something I did not use',
    'I would like my {money} back for {addon}',
    'can I get a refund for the {amount} dollars',
    'I returned the {product} and I never got refunded',
    'I was billed for {addon} after I removed it and I want that back',
    'I need to be reimbursed for last month',
    'I paid for something I never received',
    'please refund the {charge} from {date}',
    'I want my {money} back',
    'I am owed a credit and it never came through',
  ],
  new_service: [
    'I want to add a new line to my account',
    'I would like to add a line for my {relative}',
    'I want to sign up for {plan}',
    'can I get {internet} installed at my new place',
    'I am interested in adding {addon}',
    'I would like to open a new account',
    'I want to add a tablet to my plan',
    'can I get another line on the family plan',
    'I want to get home {internet} too',
    'I am thinking of adding a second line',
  ],
};

/** The customer's detail after verification, by call driver. */
export const DETAILS: Record<string, readonly string[]> = {
  billing_dispute: [
    'the bill went up by about forty dollars this month',
    'it says {amount} dollars for something called {addon}',
    'it started on the {bill} from {date}',
    'I never signed up for anything new',
    'I checked and it is not a late fee either',
    'my {bill} is normally much lower than this',
    'it just appeared out of nowhere',
    'I already paid, so I do not get why there is more',
  ],
  payment_arrangement: [
    'I can pay half now and the rest at the end of the month',
    'I get paid on {date} so I can pay then',
    'I could do {amount} dollars now',
    'money has been tight since my hours got cut',
    'I have never missed a payment before',
    'I just need a few more weeks',
    'can we do it in two or three parts',
    'I do not want my line cut off',
  ],
  outage: [
    'nothing works, not even after restarting the router',
    'I already tried restarting the router twice',
    'restarting the router made no difference at all',
    'I have been restarting the router all morning',
    'I already unplugged the modem and plugged it back in',
    'my neighbours in {city} have the same problem',
    'it went down around {time} and never came back',
    'I work from home so this is a big problem',
    'the lights on the box are blinking orange',
    'I tried a different cable and a reboot, still nothing',
    'my {device} shows one bar and then nothing',
  ],
  device_setup: [
    'it keeps failing at the activation step',
    'I put the SIM card in and it says invalid',
    'it just spins on the setup screen',
    'I followed the instructions in the box twice',
    'my old {device} still has the number',
    'it says the IMEI is not recognised',
    'I restarted it three times already',
    'the store said it would just work',
  ],
  plan_change: [
    'I want something with more data for less money',
    'I only use about {gb} gigabytes a month',
    'my {relative} is always using up the data',
    'I saw an ad for {plan} online',
    'I do not need {addon} anymore',
    'I am paying {amount} dollars and it feels like too much',
    'I travel a lot now so I need more',
    'I would like the change to start next month',
  ],
  cancellation: [
    'I found a cheaper offer with another provider',
    '{competitor} is giving me a better deal',
    'the {service} has just been unreliable',
    'I am moving to {city} and you do not cover it',
    'it is simply too expensive for me now',
    'I have had too many problems this year',
    'I do not use it enough to justify the price',
    'my contract is up on {date}',
  ],
  password_reset: [
    'the reset email never arrives',
    'I checked spam and there is nothing',
    'the link says it has expired',
    'it keeps asking for a code I never get',
    'my email address on file is an old one',
    'it says my account is temporarily locked',
    'I tried on my {device} and on the computer',
    'I have not logged in since {date}',
  ],
  shipping_delay: [
    'the tracking page has not changed in a week',
    'the tracking number just says label created',
    'the order number is {order_no}',
    'it was meant to come by {day}',
    '{carrier} says they never received it',
    'I paid extra for faster shipping',
    'I need it for work on {date}',
    'nobody has emailed me any update',
  ],
  refund_request: [
    'I was charged for the premium add-on after I removed it',
    'I cancelled {addon} on {date} but you kept charging me',
    'it was {amount} dollars in total',
    'I sent the {product} back with the return label',
    'I never used it, not even once',
    'the promise was a full refund',
    'I have the confirmation number from the return',
    'it has been more than thirty days',
  ],
  new_service: [
    'it is for my daughter, she needs a phone plan',
    'my {relative} just started college',
    'we are moving to {street} in {city}',
    'I would like to keep it on the same {bill}',
    'I want the same plan I have',
    'I will bring my own {device}',
    'I saw the offer for a free line',
    'can it start before {date}',
  ],
};

export const GREETINGS = [
  'Thank you for calling {company}, this is {agent}. How can I help you today?',
  'Thanks for calling {company}, my name is {agent}, what can I do for you?',
  '{company} customer care, {agent} speaking. How may I help?',
  'Hi, you have reached {company}, I am {agent}. What can I help you with today?',
  'Good {part_of_day}, {agent} here at {company}. How can I help?',
  'Hello and thank you for contacting {company}. My name is {agent}. What is the reason for your call?',
  'Hi, this is {agent} with {company} support. How are you today?',
  'Welcome to {company}, you are speaking with {agent}. How can I assist?',
  '{company}, this is {agent}. What can I do for you today?',
  'Thanks for holding, this is {agent} at {company}. How can I help?',
] as const;
export const CHAT_GREETINGS = [
  'Hi, you are chatting with {agent} from {company}. How can I help you today?',
  'Hello! {agent} here from {company}. What can I help with?',
  'Hi there, my name is {agent}. How can I help you today?',
  'Welcome to {company} chat, {agent} here. What brings you in today?',
  'Hi, thanks for reaching out to {company}. I am {agent}, how can I help?',
] as const;

export const VERIFICATIONS = [
  'I can help with that. Can you confirm the name and the last four digits on the account?',
  'Sure, let me pull up your account. Can I get your full name please?',
  'I am {sorry} to hear that. Could you verify the account holder name for me?',
  'No problem. Can you confirm your date of birth and the address on file?',
  'Let us get that {fixed}. What is the phone number on the account?',
  'Okay, I will need to verify a few details first. What is your name?',
  'I can {check} that for you. Could you give me the account number or the billing zip code?',
  'Absolutely. For security, can you confirm the email address on the account?',
  'Happy to help. Who am I speaking with today?',
  'Got it. Before I {check} it, can you confirm your PIN or the last four of your social?',
] as const;

/** The customer's answer to the verification, before the detail. */
export const VERIFY_ANSWERS = [
  'Sure, it is under my name.',
  'Yes, it is {customer} {surname}.',
  'It is {customer} {surname}, {number} {street} in {city}.',
  'My name is {customer}, the last four are {last_four}.',
  'Yeah, {customer} {surname}. Zip is {zip}.',
  'It is {customer}. The address is {number} {street}.',
  'Okay, {customer} {surname}, and the PIN is {last_four}.',
  'It should be under {customer} {surname}.',
  'The account is in my name, {customer}.',
  'It is {customer} {surname}, I have been with you for {years} years.',
] as const;

export const CANCELLATION_THREATS = [
  'Honestly, if this is not sorted out today I am going to cancel my service.',
  'If you cannot {fix} this {today} I am switching to {competitor}.',
  'I am this close to cancelling my whole {service}.',
  'Fix this or I am leaving, I mean it.',
  'I will take my business elsewhere if this keeps happening.',
  'Another problem like this and I am done with {company}.',
  'Seriously, I am ready to {cancel} my {service} and go to {competitor}.',
  'If this is not {fixed} I want to {cancel} my {service}.',
  'I have been a customer for {years} years but I will walk away over this.',
  'At this point I am thinking about switching providers.',
] as const;

export const HOLDS = [
  'Let me place you on a brief hold while I look into this.',
  'Can I put you on hold for {wait} while I {check} your account?',
  'I am going to place you on hold for {wait}, is that okay?',
  'Bear with me, I need to put you on a short hold.',
  'Would you mind holding for {wait}?',
  'Please hold while I {check} this with the billing system.',
  'Give me {wait}, I will put you on hold and be right back.',
  'I need to {check} something, I will just put the call on hold.',
  'Let me {check} this, please stay on hold for {wait}.',
  'I am placing you on hold, I will be back shortly.',
] as const;
export const HOLD_RETURNS = [
  'Thank you for holding.', 'Thanks for waiting.', 'Sorry about the wait.', 'Thanks for your patience.', 'I am back, thanks for holding on.',
  'Okay, thank you for waiting.', 'Sorry that took a while.', 'Thanks for bearing with me.',
] as const;
/** The agent's return from a hold longer than EFFECTS.longHoldSeconds. */
export const LONG_HOLD_RETURNS = [
  'I am so sorry for the long wait.', 'Apologies, that hold took much longer than I expected.', 'Thank you for waiting so long, I really appreciate it.',
  'Sorry to keep you on hold for so long.', 'I know that was a long hold, thank you for staying on.', 'Sorry about the lengthy hold.',
  'Thanks for hanging on, I know that took ages.', 'I apologise for the long hold time.',
] as const;
export const FINDINGS = [
  'I have your account open and I can see what happened.',
  'I can see the issue on my side now.',
  'Okay, I found the problem.',
  'I have gone through your account and I see what is going on.',
  'It looks like there was an error on our end.',
  'I see the {charge} you are talking about.',
  'I can see the ticket history here.',
  'Alright, your account shows the change from {date}.',
  'I can confirm what you are seeing.',
  'I see it, let me explain what happened.',
] as const;

export const REFUND_OFFERS = [
  'I can offer you a refund of {refund} dollars as a credit on your next bill.',
  'I can put a {refund} dollar credit on your account for the trouble.',
  'What I can do is refund {refund} dollars to your {bill}.',
  'I will apply a credit of {refund} dollars, you will see it next month.',
  'I can give you {refund} dollars back as a goodwill gesture.',
  'Let me waive {refund} dollars off your next {bill}.',
  'I am able to credit you {refund} dollars today.',
  'How about a {refund} dollar discount on the next three bills?',
  'I can reimburse you {refund} dollars for that.',
  'I would like to offer a {refund} dollar refund to make up for it.',
  'I am {sorry} about this, so I will credit {refund} dollars to your {service}.',
  'To make it right I can take {refund} dollars off your next {bill}.',
  'I can send {refund} dollars back to the card on file.',
  'Let me give you a {refund} dollar credit, it will show on your next {bill}.',
  'Since this was our mistake, I am refunding the {refund} dollars {today}.',
  'Would a {refund} dollar credit help? I can apply it {today}.',
] as const;

export const TRANSFERS = [
  'I am going to transfer you to a colleague who specialises in this, please stay on the line.',
  'Let me transfer you to our {department_name} {department}, they can {fix} this.',
  'I will connect you with a {colleague} in {department_name}.',
  'This needs the {department_name} {department}, I am transferring you now.',
  'I am going to pass you over to a {colleague} who handles this.',
  'Please stay on the line while I put you through to {department_name}.',
  'I need to route you to another {department} for this one.',
  'I am moving your call to a {colleague}, one moment please.',
  'Let me get you over to {department_name}, they will take it from here.',
  'I will transfer the call, the next {colleague} will have my notes.',
] as const;
/** What the agent says first when the call has already been transferred before (two transfers or more). */
export const REPEAT_TRANSFER_OPENERS = [
  'I am sorry you have been passed around so much today.', 'I know you have already been transferred once, I apologise.',
  'I realise this is not your first transfer today.', 'Sorry for bouncing you between departments.',
  'I understand you have been transferred a few times already.', 'Apologies for all the transfers on this call.',
] as const;
export const DEPARTMENT_NAMES = ['billing', 'technical support', 'retention', 'sales', 'accounts', 'customer relations', 'the network', 'logistics'] as const;

export const ESCALATION_REQUESTS = [
  'I want to speak to a supervisor about this, please.',
  'Can I talk to your {supervisor}?',
  'Get me a {supervisor}, please.',
  'I would like to escalate this.',
  'Is there someone above you I can speak to?',
  'Put me through to your {supervisor}, I am done with this.',
  'I need to talk to someone more senior.',
  'I want this escalated to a {supervisor} right now.',
  'Let me talk to whoever is in charge.',
  'Can you get your {supervisor} on the line?',
] as const;
export const ESCALATION_ANSWERS = [
  'I understand. I am escalating this to my supervisor now.',
  'Of course, let me get my {supervisor} for you.',
  'I understand your frustration, I will bring in my {supervisor}.',
  'Sure, I am escalating the case, please hold for my {supervisor}.',
  'No problem, I will have a {supervisor} join the call.',
  'Okay, I am raising this with my {supervisor} right away.',
  'Let me escalate this to a senior agent for you.',
  'I hear you, I am passing this up to my {supervisor}.',
  'Understood, my {supervisor} will take over from here.',
  'I will escalate it, someone senior will be with you shortly.',
] as const;

export const RESOLVED = [
  'That is all fixed now, you should see the change right away.',
  'Okay, that is {fixed} now.',
  'Everything is {fixed} on your account.',
  'I have taken care of it, you are all set.',
  'Done, the issue is resolved.',
  'That should be working for you now.',
  'Great news, that is sorted out.',
  'I have updated it, you are good to go.',
  'It is done, you will get a confirmation email.',
  'All done, that problem is {fixed}.',
] as const;
export const UNRESOLVED = [
  'I am sorry, I was not able to resolve this today. I have opened a ticket and someone will follow up.',
  'Unfortunately I cannot {fix} this {today}, I have raised a ticket.',
  'I am {sorry}, this is not something I can {fix} on this call.',
  'I could not get it {fixed}, a technician will call you back.',
  'It is still not working on my side, I have escalated a ticket for follow up.',
  'I was unable to {fix} it, you will get an email within {days} days.',
  'I am afraid this is not {fixed} yet, the team will contact you.',
  'I wish I could do more but I cannot {fix} it right now.',
  'It is not resolved yet, I have logged a case number for you.',
  'We will need more time on this one, it is still open.',
] as const;

export const CLOSINGS = {
  positive: [
    'Great, thank you so much for your help!',
    '{thanks}, you have been really helpful.',
    'That is perfect, I really appreciate it.',
    'Wonderful, {thanks} {agent}!',
    'Awesome, I am so {happy} that is done.',
    'You are a lifesaver, {thanks}.',
    'Brilliant, that is exactly what I needed.',
    'Amazing service, {thanks} again.',
    'Oh great, I appreciate you sorting that out.',
    'Fantastic, you made my day.',
  ],
  neutral: [
    'Okay, thanks.',
    'Alright, {thanks}.',
    'Fine, I guess that works.',
    'Okay, I will wait and see then.',
    'Sure, that is fine.',
    'Got it, {thanks} for the info.',
    'Right, okay.',
    'I see, okay then.',
    'Alright, we will see.',
    'Okay, noted.',
  ],
  negative: [
    'This is unacceptable. I am very disappointed with your service.',
    'I am {really} {upset} about how this was handled.',
    'This is ridiculous, I expected better.',
    'Honestly this has been a waste of my time.',
    'I am not happy with this at all.',
    'Terrible service, I am going to leave a complaint.',
    'I cannot believe it is still not {fixed}.',
    'This is the worst experience I have had with {company}.',
    'Unbelievable. Nobody seems to care.',
    'I am extremely disappointed, this is not okay.',
  ],
} as const;

export const GOODBYES = [
  'Thank you for contacting us. Have a good day.',
  'Is there anything else I can help with? No? Have a great {part_of_day}.',
  'Thanks for calling {company}, take care.',
  'You are welcome, {customer}. Have a nice day.',
  'Thank you for your patience today, goodbye.',
  'Glad I could help, enjoy the rest of your day.',
  'Thanks {customer}, you will get a short survey after this call.',
  'Alright, thank you for being a {company} customer.',
  'Take care {customer}, bye now.',
  'Thanks for your time today, have a good one.',
] as const;

/** Speech-recognition confusions (voice and callback): a word is heard as one of its alternatives. */
export const ASR_CONFUSIONS: Record<string, string> = {
  there: 'their', their: 'there', to: 'two', too: 'to', for: 'four', your: 'you are', you: 'u', know: 'no', right: 'write',
  hear: 'here', here: 'hear', bill: 'build', charge: 'charged', cancel: 'council', account: 'a count', refund: 're fund', router: 'rooter',
  supervisor: 'super visor', manager: 'manage her', hold: 'old', transfer: 'transfers', password: 'pass word', service: 'services',
  internet: 'inter net', plan: 'plant', data: 'dater', line: 'lying', order: 'border', credit: 'credits', fixed: 'fix', month: 'mouth',
  would: 'wood', weight: 'wait', wait: 'weight', by: 'buy', new: 'knew', one: 'won', four: 'for', then: 'than', we: 'wee', it: 'that',
};
