// The categorical values of the contact-center warehouse and their generating weights. The generator
// turns these into SQL; the column docs and the planted patterns quote the same constants, so a value
// renamed here is renamed everywhere.

/** [value, weight] pairs; weights need not sum to 1. */
export type Weighted = ReadonlyArray<readonly [string, number]>;

export const TEAMS = ['Aurora', 'Borealis', 'Cascade', 'Delta', 'Ember', 'Fjord'] as const;
export const SITES: Weighted = [
  ['Austin', 0.4],
  ['Manila', 0.35],
  ['Krakow', 0.25],
];
/** Shift follows from an agent's number (residue of (n - 1) mod 10) so calls can be routed to on-shift agents. */
export const SHIFT_RESIDUES = { day: [0, 1, 2, 3, 4], evening: [5, 6, 7], night: [8, 9] } as const;

export const TIME_ZONES: Weighted = [
  ['America/New_York', 0.34],
  ['America/Chicago', 0.24],
  ['America/Denver', 0.1],
  ['America/Los_Angeles', 0.26],
  ['Pacific/Honolulu', 0.06],
];
export const CHANNELS: Weighted = [
  ['voice', 0.6],
  ['chat', 0.3],
  ['callback', 0.1],
];
export const SEGMENTS: Weighted = [
  ['consumer', 0.6],
  ['small_business', 0.2],
  ['enterprise', 0.1],
  ['premium', 0.1],
];

/** Call drivers: weight, queue, base first-contact resolution, base talk time (s). What customers say is in transcript-lexicon.ts. */
export const CALL_DRIVERS = [
  { driver: 'billing_dispute', weight: 0.14, queue: 'billing', resolution: 0.62, talk: 540 },
  { driver: 'payment_arrangement', weight: 0.08, queue: 'billing', resolution: 0.86, talk: 420 },
  { driver: 'outage', weight: 0.1, queue: 'technical_support', resolution: 0.7, talk: 380 },
  { driver: 'device_setup', weight: 0.12, queue: 'technical_support', resolution: 0.84, talk: 720 },
  { driver: 'plan_change', weight: 0.12, queue: 'sales', resolution: 0.9, talk: 480 },
  { driver: 'cancellation', weight: 0.08, queue: 'retention', resolution: 0.5, talk: 600 },
  { driver: 'password_reset', weight: 0.1, queue: 'general', resolution: 0.96, talk: 210 },
  { driver: 'shipping_delay', weight: 0.09, queue: 'general', resolution: 0.78, talk: 330 },
  { driver: 'refund_request', weight: 0.09, queue: 'billing', resolution: 0.8, talk: 450 },
  { driver: 'new_service', weight: 0.08, queue: 'sales', resolution: 0.92, talk: 520 },
] as const;

export const RUBRIC_ITEMS = [
  { item: 'greeting', base: 4.4 },
  { item: 'verification', base: 4.2 },
  { item: 'empathy', base: 3.9 },
  { item: 'compliance_disclosure', base: 3.0 },
  { item: 'resolution', base: 3.9 },
] as const;

export const KEY_MOMENTS = ['cancellation_threat', 'hold_placed', 'refund_offer', 'transfer', 'escalation_request', 'resolution_confirmed'] as const;

export const FIRST_NAMES = ['Maria', 'James', 'Aisha', 'Chen', 'Liam', 'Sofia', 'Noah', 'Priya', 'Mateo', 'Olga', 'Kwame', 'Emma', 'Diego', 'Hana', 'Lucas', 'Fatima', 'Ethan', 'Ines', 'Tomasz', 'Grace', 'Rafael', 'Yuki', 'Omar', 'Clara', 'Jonas', 'Leila', 'Marco', 'Nadia', 'Paolo', 'Zoe'] as const;
export const LAST_NAMES = ['Santos', 'Smith', 'Khan', 'Wang', 'Murphy', 'Rossi', 'Kim', 'Patel', 'Garcia', 'Nowak', 'Mensah', 'Brown', 'Lopez', 'Sato', 'Silva', 'Haddad', 'Miller', 'Costa', 'Kowalski', 'Reyes'] as const;

/** The calendar the calls span (local wall-clock dates). */
export const FIRST_DAY = '2026-01-01';
export const DAYS = 181;
/** Relative call volume per ISO day of week (1 = Monday). */
export const WEEKDAY_WEIGHTS = { 1: 1.4, 2: 1.0, 3: 1.0, 4: 1.0, 5: 1.0, 6: 0.5, 7: 0.35 } as const;
/** Relative call volume per local hour 0–23. */
export const HOUR_WEIGHTS = [0.3, 0.2, 0.2, 0.2, 0.2, 0.3, 0.6, 1.0, 2.0, 2.6, 3.0, 3.0, 2.8, 2.6, 2.6, 2.4, 2.2, 2.0, 1.6, 1.2, 1.0, 0.8, 0.6, 0.4] as const;
