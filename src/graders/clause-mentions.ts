import { termPositions } from './subject-terms.ts';

/** What kind of quantity a number is stated as, from its suffix or the words around it. */
export type QuantityClass = 'percent' | 'fraction' | 'rank' | 'ratio' | 'sigma' | 'seconds' | 'minutes' | 'hours' | 'days' | 'months' | 'years' | 'clock' | 'plain';

/** Seconds per unit of each duration class: a duration stated in one unit is converted exactly to the item's. */
export const DURATION_SECONDS: Partial<Record<QuantityClass, number>> = { seconds: 1, minutes: 60, hours: 3600, days: 86_400 };

export interface NumberMention {
  kind: 'number';
  value: number;
  /** Decimals written ("4.20" → 2). */
  decimals: number;
  quantity: QuantityClass;
  /** Written with an explicit sign ("-15 %", "+3"). */
  signed: boolean;
  /** A year-like integer or a fraction read as a percentage: may support, never contradicts. */
  weak: boolean;
  /** A point of comparison, not the value stated: "from A (to B)", "than A", "vs A", "the peers' mean of A". */
  reference: boolean;
  /** rank: "lowest"/"shortest"/… or "highest"/"longest"/… next to it. */
  orientation?: 'highest' | 'lowest';
  start: number;
  end: number;
}

export interface WordMention {
  kind: 'direction';
  direction: 'up' | 'down' | 'same' | 'improved' | 'worsened';
  start: number;
  end: number;
}

export interface ChoiceMention {
  kind: 'choice';
  /** The choice as listed by the item (lower case, underscores as spaces). */
  choice: string;
  start: number;
  end: number;
}

export type Mention = NumberMention | WordMention | ChoiceMention;

const MULTIPLIERS: Record<string, number> = { k: 1e3, thousand: 1e3, m: 1e6, mn: 1e6, million: 1e6, millions: 1e6, b: 1e9, bn: 1e9, billion: 1e9, billions: 1e9 };
const ORDINAL_WORDS: Record<string, number> = { first: 1, second: 2, third: 3, fourth: 4, fifth: 5, sixth: 6, seventh: 7, eighth: 8, ninth: 9, tenth: 10 };
const HIGH = 'highest|longest|largest|biggest|greatest|most|slowest|best|top|busiest';
const LOW = 'lowest|shortest|smallest|fewest|least|fastest|worst|bottom|quietest';
// A number not inside an identifier ("P-0042", "A12", "2026-04-01"), with thousands separators, an optional sign and
// currency, an optional ordinal suffix, multiplier or percent sign.
const NUMBER =
  /(?<![\w.]|\w-)(#\s?)?([-−+]?)\$?(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?(st|nd|rd|th)?(?:\s?(%|percent\b|pp\b|percentage points?\b|k\b|thousand\b|mn\b|m\b|millions?\b|bn\b|b\b|billions?\b))?/g;
const ORDINAL_WORD = new RegExp(`\\b(the\\s+)?(${Object.keys(ORDINAL_WORDS).join('|')})[-\\s](${HIGH}|${LOW})\\b`, 'g');
// Not "the most": paraphrases fold "most frequent", "largest", "top" into it, and those name a mode, not a rank.
const SUPERLATIVE = new RegExp(`\\bthe\\s+(highest|longest|greatest|slowest|busiest|${LOW})\\b`, 'g');
const REFERENCE_BEFORE = /(\bfrom|\bthan|\bvs\.?|\bversus|\bcompared (with|to)|\bagainst|\b(peers?|others|baseline|benchmark|norm)\b[^.\d]{0,25})\s*\$?$/;
const MONTH = '(jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\\.?';
const MONTH_BEFORE = new RegExp(`\\b${MONTH}\\s*$`);
const MONTH_AFTER = new RegExp(`^(st|nd|rd|th)?\\s+(of\\s+)?${MONTH}\\b`);
const PEER_GROUP = /\b(among|of all|of the \d+|across all|in (its|their|the) (sector|team|site|group|queue|peers?))\b/;
const UNIT_AFTER: Array<[RegExp, QuantityClass]> = [
  [/^\s?(x\b|×|-fold\b|fold\b|times (as|higher|lower|longer|shorter|larger|more|less|greater|the|that|what)\b)/, 'ratio'],
  [/^\s?(σ|sd\b|deviation)/, 'sigma'],
  [/^\s?(s|sec|secs|seconds?)\b/, 'seconds'],
  [/^\s?(min|mins|minutes?)\b/, 'minutes'],
  [/^\s?(h|hrs?|hours?)\b/, 'hours'],
  [/^\s?days?\b/, 'days'],
  [/^\s?months?\b/, 'months'],
  [/^\s?years?\b/, 'years'],
];

const DIRECTION_WORDS: Record<WordMention['direction'], string[]> = {
  improved: ['improved', 'improving', 'improvement', 'improves', 'better'],
  worsened: ['worsened', 'worsening', 'worsens', 'deteriorated', 'deteriorating', 'deterioration', 'worse'],
  same: ['unchanged', 'stable', 'flat', 'steady', 'no change', 'no significant change', 'about the same', 'roughly the same', 'the same', 'held steady', 'did not change', 'barely moved', 'stayed level'],
  up: ['increased', 'increasing', 'increase', 'increases', 'rose', 'risen', 'rising', 'rises', 'grew', 'grown', 'growth', 'growing', 'higher', 'upward', 'upwards', 'climbed', 'went up', 'above', 'longer', 'larger', 'gained', 'jumped', 'exceeds', 'exceeded'],
  down: ['decreased', 'decreasing', 'decrease', 'decreases', 'fell', 'fallen', 'falling', 'falls', 'dropped', 'drop', 'declined', 'declining', 'decline', 'lower', 'downward', 'downwards', 'went down', 'below', 'shorter', 'fewer', 'shrank', 'reduced', 'reduction', 'smaller', 'slipped'],
};
const DIRECTION_PATTERN = new RegExp(
  `(?<![\\p{L}\\p{N}])(${Object.values(DIRECTION_WORDS).flat().sort((a, b) => b.length - a.length).join('|')})(?![\\p{L}\\p{N}])`,
  'gu',
);
const DIRECTION_OF = new Map(Object.entries(DIRECTION_WORDS).flatMap(([direction, words]) => words.map((word) => [word, direction as WordMention['direction']])));

/** Words that present a value as a guess: a hedged statement does not state a fact, it covers several. */
const HEDGE = /(?<![\p{L}])(maybe|perhaps|possibly|might|may be|may have|could be|could have|not sure|unsure|uncertain|unclear|i think|i guess|i believe|probably|presumably|either|somewhere between|or so|give or take|hard to say|cannot tell|can't tell|not certain|if not|or rather|rather than that|i mean|make that|scratch that|no wait|or was it)(?![\p{L}])/u;
/** Words that order several named values ("A, followed by B"), so that the first one named is the one stated. */
const ORDERING = /(?<![\p{L}])(followed by|then|ahead of|second|next|before|than|rather than|compared|versus|vs|while|whereas|runner-up|after it|behind)(?![\p{L}])/u;

export function isHedged(clause: string): boolean {
  return HEDGE.test(clause);
}

export function ordersValues(clause: string): boolean {
  return ORDERING.test(clause);
}

function orientationNear(clause: string, start: number, end: number): 'highest' | 'lowest' | undefined {
  const around = clause.slice(Math.max(0, start - 25), Math.min(clause.length, end + 30));
  const high = new RegExp(`\\b(${HIGH})\\b`).test(around);
  const low = new RegExp(`\\b(${LOW})\\b`).test(around);
  return high === low ? undefined : high ? 'highest' : 'lowest';
}

/** The numbers of a normalised clause, with what they are stated as. */
export function numberMentions(clause: string): NumberMention[] {
  const mentions: NumberMention[] = [];
  // Clock times and durations in several units are read whole first; their digits are then not read again.
  let masked = clause;
  for (const mention of [...durationRuns(clause), ...clockMentions(clause)]) {
    if (mentions.some((other) => mention.start < other.end && mention.end > other.start)) continue;
    mentions.push(mention);
    masked = masked.slice(0, mention.start) + ' '.repeat(mention.end - mention.start) + masked.slice(mention.end);
  }
  for (const match of masked.matchAll(NUMBER)) {
    const [text, hash, sign, whole, fraction, ordinal, suffix] = match;
    const start = match.index;
    const end = start + text.length;
    const before = masked.slice(Math.max(0, start - 24), start);
    const after = clause.slice(end, end + 16);
    // "of 40" / "out of 40" after a rank names the peer count, not a value.
    if (/\b(out of|of|among)(\s+the)?\s*$/.test(before) && mentions.some((mention) => mention.quantity === 'rank' && start - mention.end < 30)) continue;
    // A day of a month ("April 1", "1 April") is a date, not a value.
    if (!fraction && !suffix && (MONTH_BEFORE.test(before) || MONTH_AFTER.test(after))) continue;
    let value = Number(`${whole!.replaceAll(',', '')}${fraction ?? ''}`) * (sign === '-' || sign === '−' ? -1 : 1);
    const unit = (suffix ?? '').toLowerCase();
    let quantity: QuantityClass = 'plain';
    if (unit === '%' || unit === 'percent' || unit === 'pp' || unit.startsWith('percentage point')) quantity = 'percent';
    else if (unit) value *= MULTIPLIERS[unit] ?? 1;
    else if (ordinal || hash || /\b(rank|no\.|number|#)\s*$/.test(before)) quantity = 'rank';
    else quantity = UNIT_AFTER.find(([pattern]) => pattern.test(after))?.[1] ?? (/\b(deviation|z)\s*(of|at|=|:)?\s*$/.test(before) ? 'sigma' : 'plain');
    const yearLike = !fraction && !unit && !ordinal && /^(19|20)\d\d$/.test(whole!);
    mentions.push({
      kind: 'number',
      value,
      decimals: fraction ? fraction.length - 1 : 0,
      quantity,
      signed: sign !== '',
      weak: yearLike,
      reference: REFERENCE_BEFORE.test(before),
      orientation: quantity === 'rank' ? orientationNear(clause, start, end) : undefined,
      start,
      end,
    });
  }
  for (const pattern of [ORDINAL_WORD, SUPERLATIVE]) {
    for (const match of clause.matchAll(pattern)) {
      // "the largest segment" is not a rank; "the highest escalation rate of all agents" is.
      // "The most frequent model among its trips" names a mode, not a rank.
      if (pattern === SUPERLATIVE && (!PEER_GROUP.test(clause.slice(match.index, match.index + 60)) || /^\s+(frequent|common|usual|typical|often|popular)/.test(clause.slice(match.index + match[0].length)))) continue;
      if (mentions.some((mention) => mention.quantity === 'rank' && Math.abs(mention.start - match.index) < 30)) continue;
      const rank = pattern === ORDINAL_WORD ? ORDINAL_WORDS[match[2]!]! : 1;
      const orientation = new RegExp(`^(${HIGH})$`).test(match[pattern === ORDINAL_WORD ? 3 : 1]!) ? 'highest' : 'lowest';
      mentions.push({ kind: 'number', value: rank, decimals: 0, quantity: 'rank', signed: false, weak: false, reference: false, orientation, start: match.index, end: match.index + match[0].length });
    }
  }
  return mentions;
}

const CLOCK = /(?<![\w.:])(\d{1,2})(?::(\d{2}))?(?::\d{2})?\s?(a\.m\.|p\.m\.|am|pm|o'clock|h(?=[\s.,;)]|$))?(?![\w:])/g;

/**
 * Times of day: "17:00", "5 p.m.", "5pm", "9:30 am", "5 o'clock", "17h" (value: the hour, minutes as a fraction).
 * A bare hour without a colon or a suffix is not a clock time here (it is a plain number, which an hour-of-day item
 * also accepts).
 */
function clockMentions(clause: string): NumberMention[] {
  const mentions: NumberMention[] = [];
  for (const match of clause.matchAll(CLOCK)) {
    const [text, hourText, minuteText, suffix] = match;
    if (minuteText === undefined && suffix === undefined) continue;
    // "17h" is a clock time only as an hour of the day; "5 h" is a duration.
    if (suffix === 'h' && (minuteText !== undefined || /\s/.test(text))) continue;
    let hour = Number(hourText);
    const minute = minuteText === undefined ? 0 : Number(minuteText);
    if (minute >= 60) continue;
    const meridiem = suffix?.replaceAll('.', '');
    if (meridiem === 'am' || meridiem === 'pm') {
      if (hour < 1 || hour > 12) continue;
      hour = (hour % 12) + (meridiem === 'pm' ? 12 : 0);
    } else if (hour > 24) continue;
    mentions.push({ kind: 'number', value: hour + minute / 60, decimals: minute === 0 ? 0 : 2, quantity: 'clock', signed: false, weak: false, reference: false, start: match.index, end: match.index + text.length });
  }
  return mentions;
}

const DURATION_PART = /(\d+(?:\.\d+)?)\s?(days?|d|hours?|hrs?|h|minutes?|mins?|m|seconds?|secs?|s)\b/g;
const PART_CLASS: Array<[RegExp, QuantityClass]> = [[/^d/, 'days'], [/^h/, 'hours'], [/^m/, 'minutes'], [/^s/, 'seconds']];

/**
 * A duration written in several units ("28 min 54 s", "1h 5m", "1 day 2 hours"): one mention in its largest unit,
 * the parts summed exactly. Parts must go from larger to smaller units, separated by spaces, a comma or "and".
 */
function durationRuns(clause: string): NumberMention[] {
  const parts = [...clause.matchAll(DURATION_PART)].map((match) => ({
    value: Number(match[1]),
    quantity: PART_CLASS.find(([pattern]) => pattern.test(match[2]!))![1],
    start: match.index,
    end: match.index + match[0].length,
  }));
  const mentions: NumberMention[] = [];
  let index = 0;
  while (index < parts.length) {
    let last = index;
    while (
      last + 1 < parts.length &&
      DURATION_SECONDS[parts[last + 1]!.quantity]! < DURATION_SECONDS[parts[last]!.quantity]! &&
      /^\s*(,|and)?\s*$/.test(clause.slice(parts[last]!.end, parts[last + 1]!.start))
    ) last += 1;
    if (last > index) {
      const unit = DURATION_SECONDS[parts[index]!.quantity]!;
      const seconds = parts.slice(index, last + 1).reduce((sum, part) => sum + part.value * DURATION_SECONDS[part.quantity]!, 0);
      mentions.push({ kind: 'number', value: seconds / unit, decimals: 6, quantity: parts[index]!.quantity, signed: false, weak: false, reference: false, start: parts[index]!.start, end: parts[last]!.end });
    }
    index = last + 1;
  }
  return mentions;
}

/** The direction words of a normalised clause. */
export function directionMentions(clause: string): WordMention[] {
  return [...clause.matchAll(DIRECTION_PATTERN)].map((match) => ({
    kind: 'direction',
    direction: DIRECTION_OF.get(match[0])!,
    start: match.index,
    end: match.index + match[0].length,
  }));
}

const choicePatterns = new Map<string, RegExp>();

/** Where a clause names each of `choices` (whole words, longest first: "insulin glargine" does not also name "insulin"). */
export function choiceMentions(clause: string, choices: readonly string[]): ChoiceMention[] {
  const mentions: ChoiceMention[] = [];
  const taken: Array<[number, number]> = [];
  for (const choice of [...new Set(choices.map((value) => value.toLowerCase().replaceAll('_', ' ')))].sort((a, b) => b.length - a.length)) {
    // Most choices are not in a given clause: a substring test rules them out before any pattern runs.
    if (!clause.includes(choice)) continue;
    let pattern = choicePatterns.get(choice);
    if (!pattern) {
      // A plural names the value too ("on Saturdays").
      pattern = new RegExp(`(?<![\\p{L}\\p{N}])${choice.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}${/\p{L}$/u.test(choice) ? '(?:s|es)?' : ''}(?![\\p{L}\\p{N}])`, 'gu');
      choicePatterns.set(choice, pattern);
    }
    for (const match of clause.matchAll(pattern)) {
      const [start, end] = [match.index, match.index + match[0].length];
      if (taken.some(([from, to]) => start < to && end > from)) continue;
      taken.push([start, end]);
      mentions.push({ kind: 'choice', choice, start, end });
    }
  }
  return mentions.sort((a, b) => a.start - b.start);
}

/**
 * The subject terms around a number: those between the previous and the next number that is a value (not a year)
 * count fully, the rest of the clause a third (a subject named once for several values: "AHT 305 s, FCR 71 %").
 * Named choices and direction words are not ambiguous the same way: the whole clause is their context. A
 * parenthesised aside that does not hold the value also counts a third: it is not the sentence's subject ("most trips
 * with destination PL001 fall at 17:00 (by departure time)" is about the trips to PL001, not those departing from it),
 * as an item's own question is read without its parenthesised notes.
 */
export function termsAround(clause: string, mentions: readonly Mention[], mention: Mention): Map<string, number> {
  let [from, to] = [0, clause.length];
  if (mention.kind === 'number') {
    for (const other of mentions) {
      if (other === mention || other.kind !== 'number' || other.weak) continue;
      if (other.end <= mention.start) from = Math.max(from, other.end);
      if (other.start >= mention.end) to = Math.min(to, other.start);
    }
  }
  const asides = [...clause.matchAll(/\([^()]*\)/g)].map((match) => [match.index, match.index + match[0].length] as const).filter(([open, close]) => !(mention.start >= open && mention.end <= close));
  const weights = new Map<string, number>();
  for (const { term, start } of termPositions(clause)) {
    const weight = start >= from && start < to && !asides.some(([open, close]) => start > open && start < close) ? 1 : 1 / 3;
    weights.set(term, Math.max(weights.get(term) ?? 0, weight));
  }
  return weights;
}
