import type { Model } from '../models/model.ts';
import { ChecklistVerdictSchema, type ChecklistItem, type ItemVerdict } from '../schemas/checklist.ts';
import {
  choiceMentions,
  directionMentions,
  DURATION_SECONDS,
  isHedged,
  numberMentions,
  ordersValues,
  termsAround,
  type ChoiceMention,
  type Mention,
  type NumberMention,
  type QuantityClass,
  type WordMention,
} from './clause-mentions.ts';
import { entityMentions, isRecordDump, ownerAt, type EntityMention, type EntityNames } from './entity-subjects.ts';
import { itemTerms, keyTerms, normaliseText, specificTerms, stem, termPositions } from './subject-terms.ts';
import { canonicalValues } from './value-forms.ts';

type Evidence = 'support' | 'contradict' | 'none';

/** Splits a message into sentences and list lines: a fact is judged within the sentence that states it. */
export function splitClauses(text: string): string[] {
  return text
    .split(/\n+|(?<=[.!?;])\s+(?=\S)/)
    // Underscores read as spaces: "billing_dispute" and "billing dispute" name the same value.
    .map((clause) => clause.trim().toLowerCase().replaceAll('_', ' '))
    .filter((clause) => clause.length > 0);
}

function quantityOf(unit: string | undefined): QuantityClass {
  const lower = (unit ?? '').toLowerCase().trim();
  if (['%', 'percent', 'pp', 'percentage points', 'percentage point'].includes(lower)) return 'percent';
  if (['fraction', 'share', 'proportion'].includes(lower)) return 'fraction';
  if (/^(hour of (the )?day|time of day|o'clock|clock hour)$/.test(lower)) return 'clock';
  if (lower === 'rank') return 'rank';
  if (['×', 'x', 'times', 'ratio'].includes(lower)) return 'ratio';
  if (['σ', 'sd', 'standard deviations', 'z', 'z-score'].includes(lower)) return 'sigma';
  if (['s', 'sec', 'seconds', 'second'].includes(lower)) return 'seconds';
  if (['min', 'mins', 'minute', 'minutes'].includes(lower)) return 'minutes';
  if (['h', 'hr', 'hrs', 'hour', 'hours'].includes(lower)) return 'hours';
  if (['day', 'days'].includes(lower)) return 'days';
  if (['month', 'months'].includes(lower)) return 'months';
  if (['year', 'years'].includes(lower)) return 'years';
  return 'plain';
}

function unitScale(unit: string | undefined): number {
  const lower = (unit ?? '').toLowerCase();
  if (/\bbillions?\b|\bbn\b/.test(lower)) return 1e9;
  if (/\bmillions?\b|\bmn\b/.test(lower)) return 1e6;
  if (/\bthousands?\b/.test(lower)) return 1e3;
  return 1;
}

/** Whether a number stated as `stated` can be a value of an item measured as `expected` (a bare number fits a count or a duration). */
function compatible(expected: QuantityClass, mention: NumberMention): boolean {
  if (expected === mention.quantity) return true;
  // A duration in any unit, converted exactly; a share as a percentage or a fraction.
  if (DURATION_SECONDS[expected] !== undefined && DURATION_SECONDS[mention.quantity] !== undefined) return true;
  if (expected === 'fraction' && mention.quantity === 'percent') return true;
  if (mention.quantity === 'clock') return false;
  if (mention.quantity !== 'plain') return false;
  // A fraction may be a share stated without a percent sign ("0.71 of calls"): weak, never contradicting.
  if (expected === 'percent') return mention.decimals > 0 && Math.abs(mention.value) <= 1;
  return !['rank', 'ratio', 'sigma', 'fraction'].includes(expected) || (expected === 'fraction' && Math.abs(mention.value) <= 1);
}

/** Whether an item's number is a signed difference (a change, a gap, a z-score), stated as "fell 15 %" as often as "-15 %". */
function isSignedDifference(item: ChecklistItem): boolean {
  return item.kind !== 'lookup' && item.kind !== 'aggregate' && /\b(change|changed|differ|differs|difference|standard deviations?)\b/i.test(item.question);
}

const MEASURED = new Set<QuantityClass>(['percent', 'fraction', 'rank', 'ratio', 'sigma', 'seconds', 'minutes', 'hours', 'days', 'months', 'years', 'clock']);

interface PreparedItem {
  item: ChecklistItem;
  quantity: QuantityClass;
  terms: Map<string, number>;
  /** Terms specific to this item within its checklist: one must be near a value for the value to be about this item. */
  keys: Set<string>;
  choices: string[];
  /** Terms a clause must name for a value to be about this item: the denominator of a rate ("per admission"). */
  required: string[];
  /** The answer is a date (ISO): every date a clause names is a candidate for it. */
  date: boolean;
  /** The terms of the words its question puts right before the entity's id: how its rows reach the entity ("with origin id P1"). */
  bound: Set<string>;
}

/**
 * The terms of the (at most two) words right before each place `text` names the entity's id, with nothing but spaces
 * between: the role by which the rows reach the entity ("the trips with origin id pl003" → origin, id), as opposed to
 * what is said about them ("the most frequent dest id").
 */
function entityBoundTerms(text: string, entityId: string | undefined): Set<string> {
  const bound = new Set<string>();
  if (!entityId) return bound;
  const id = entityId.toLowerCase().replaceAll('_', ' ');
  if (!text.includes(id)) return bound;
  for (const match of text.matchAll(new RegExp(`(?<![\\p{L}\\p{N}])${id.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\p{L}\\p{N}])`, 'gu'))) {
    const words = /(?:([\p{L}\p{N}]+)\s+)?([\p{L}\p{N}]+)\s+$/u.exec(text.slice(0, match.index));
    if (words) for (const { term } of termPositions(`${words[1] ?? ''} ${words[2]}`)) bound.add(term);
  }
  return bound;
}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
const ISO_DATES = /(?<![\w-])\d{4}-\d{2}-\d{2}(?![\w-])/g;

/** What the grader derives from the checklist once: each item's subject terms and their specificity. */
export interface GradingContext {
  /** The entity's id (its words are not subject terms). */
  entityId?: string;
  /** Column name (lower case) → its documentation in the served database. */
  documentation?: ReadonlyMap<string, string>;
  /** The entities of the task's kind (ids and names): a value stated about another one is that one's. */
  entities?: EntityNames;
  /** A coded value (lower case) → the display names the database gives it ("s005" → ["elm park"]). */
  displayNames?: ReadonlyMap<string, readonly string[]>;
}

function prepare(checklist: readonly ChecklistItem[], context: GradingContext): PreparedItem[] {
  // An hour of the day is the subject ("at what hour"), not a unit of measurement.
  const base = checklist.map((item) => itemTerms(item, { ...context, measuredUnit: MEASURED.has(quantityOf(item.unit)) && quantityOf(item.unit) !== 'clock' }));
  const weighted = specificTerms(base);
  const keysByItem = keyTerms(base, weighted);
  return checklist.map((item, index) => {
    const terms = weighted[index]!;
    const keys = keysByItem[index]!;
    const choices = item.answer_type === 'category' || item.answer_type === 'set'
      ? [...new Set([...(item.choices ?? []), ...(Array.isArray(item.answer) ? item.answer : [String(item.answer)])].map((choice) => choice.toLowerCase().replaceAll('_', ' ')))]
      : [];
    const required = [...normaliseText(item.question).matchAll(/\b(?:per|each)\s+([\p{L}]+)/gu)].map((match) => termPositions(match[1]!)[0]?.term).filter((term): term is string => term !== undefined);
    return { item, quantity: quantityOf(item.unit), terms, keys, choices, required, date: item.answer_type === 'category' && ISO_DATE.test(String(item.answer)), bound: entityBoundTerms(normaliseText(item.question), context.entityId) };
  });
}

/** Display name (lower case) → the choice it names, for every choice the database gives a name. */
function choiceAliases(items: readonly PreparedItem[], displayNames: ReadonlyMap<string, readonly string[]> | undefined): Map<string, string> {
  const aliases = new Map<string, string>();
  if (!displayNames) return aliases;
  for (const choice of new Set(items.flatMap((prepared) => prepared.choices))) {
    for (const name of displayNames.get(choice) ?? []) if (!aliases.has(name)) aliases.set(name, choice);
  }
  return aliases;
}

function candidatesFor(mention: Mention, items: readonly PreparedItem[]): PreparedItem[] {
  if (mention.kind === 'number') return items.filter((prepared) => prepared.item.answer_type === 'number' && compatible(prepared.quantity, mention));
  if (mention.kind === 'direction') return items.filter((prepared) => prepared.item.answer_type === 'direction');
  return items.filter((prepared) => prepared.choices.includes(mention.choice) || (prepared.date && ISO_DATE.test(mention.choice)));
}

function score(prepared: PreparedItem, around: ReadonlyMap<string, number>): { score: number; nearKey: boolean; coverage: number } {
  let total = 0;
  let nearKey = false;
  for (const [term, weight] of around) {
    const itemWeight = prepared.terms.get(term);
    if (itemWeight === undefined) continue;
    total += itemWeight * weight;
    if (weight === 1 && prepared.keys.has(term)) nearKey = true;
  }
  const all = [...prepared.terms.values()].reduce((sum, weight) => sum + weight, 0);
  return { score: total, nearKey, coverage: all === 0 ? 0 : total / all };
}

/** Whether the word right after a number (or the one after that), stemmed, names the item's unit ("104 calls" for a count of calls). */
function namesUnit(clause: string, mention: Mention, prepared: PreparedItem): boolean {
  // A time of day ("5 p.m.", "17:00") names itself as one.
  if (mention.kind === 'number' && mention.quantity === 'clock') return prepared.quantity === 'clock';
  if (!prepared.item.unit || mention.kind !== 'number' || MEASURED.has(prepared.quantity)) return false;
  // The next word, or the one after it ("270 outgoing shipments").
  const next = /^\s*([\p{L}]+)(?:\s+([\p{L}]+))?/u.exec(clause.slice(mention.end));
  const unit = termPositions(normaliseText(prepared.item.unit)).at(0)?.term;
  return next !== null && unit !== undefined && [next[1], next[2]].some((word) => word !== undefined && stem(word) === unit);
}

/**
 * Attributes every value a clause states (numbers, named choices, direction words) to the item it is about: among the
 * items that value could answer (by type and unit), the one whose subject terms stand nearest (a number's own unit
 * word counts; ties go to the item whose terms the clause covers best). A number needs a key term of its item next
 * to it unless it is the only value that item could take in the clause; a choice or a direction word goes to an item
 * only when no other item of the checklist fits the clause better ("the hold time of day- and evening-shift agents"
 * is about hold time, not about the agent's shift).
 */
/** The values a clause states: numbers, direction words and named choices (display names read as their choice, any date as a date). */
function clauseValues(clause: string, allChoices: readonly string[], aliases: ReadonlyMap<string, string>): Mention[] {
  const choices: ChoiceMention[] = choiceMentions(clause, allChoices).map((mention) => ({ ...mention, choice: aliases.get(mention.choice) ?? mention.choice }));
  for (const match of clause.matchAll(ISO_DATES)) {
    if (!choices.some((choice) => match.index < choice.end && match.index + match[0].length > choice.start)) choices.push({ kind: 'choice', choice: match[0], start: match.index, end: match.index + match[0].length });
  }
  // A number inside a named value ("Type 2 diabetes", a date) is part of the name.
  const numbers = numberMentions(clause).filter((number) => !choices.some((choice) => number.start < choice.end && number.end > choice.start));
  return [...numbers, ...directionMentions(clause), ...choices].sort((a, b) => a.start - b.start);
}

function attribute(clause: string, items: readonly PreparedItem[], mentions: readonly Mention[], entityId?: string): Map<PreparedItem, Mention[]> {
  const clauseBound = entityBoundTerms(clause, entityId);
  const clauseTerms = new Set(termPositions(clause).map(({ term }) => term));
  const addressed = items.filter((prepared) => [...prepared.keys].some((key) => clauseTerms.has(key)) && prepared.required.every((term) => clauseTerms.has(term)));
  // Named values are not subjects: "Renewables" names a segment, it does not make a sentence about the Renewables share.
  let valueless = clause;
  for (const mention of mentions) if (mention.kind === 'choice') valueless = valueless.slice(0, mention.start) + ' '.repeat(mention.end - mention.start) + valueless.slice(mention.end);
  const byItem = new Map<PreparedItem, Mention[]>();
  let bestOverall = 0;
  // Numbers first: a direction word next to a signed difference ("fell by 1.2 points") is that number's sign.
  const ordered = [...mentions.filter((mention) => mention.kind === 'number'), ...mentions.filter((mention) => mention.kind !== 'number')];
  const signedNumbers: NumberMention[] = [];
  for (const mention of ordered) {
    if (mention.kind === 'direction' && (mention.direction === 'up' || mention.direction === 'down') && signedNumbers.some((number) => Math.abs(number.start - mention.start) <= 40)) continue;
    // A value only one item can take, named alone, names its subject by itself ("a Technology company" is about the sector).
    const owners = mention.kind === 'choice' ? candidatesFor(mention, items) : [];
    const ownNamed = owners.length === 1 ? new Set(mentions.filter((other) => other.kind === 'choice' && owners[0]!.choices.includes(other.choice)).map((other) => (other as ChoiceMention).choice)) : null;
    if (owners.length === 1 && !addressed.includes(owners[0]!) && ownNamed!.size === 1) {
      byItem.set(owners[0]!, [...(byItem.get(owners[0]!) ?? []), mention]);
      continue;
    }
    // A count followed by its own unit ("1516 contacts") addresses its item by that word alone.
    let candidates = candidatesFor(mention, items).filter(
      (prepared) =>
        (addressed.includes(prepared) || namesUnit(clause, mention, prepared)) &&
        // A difference is stated with its sign or a direction word ("fell 1.2"); a bare number is a level, not a change.
        !(mention.kind === 'number' && isSignedDifference(prepared.item) && !mention.signed && movementNear(clause, mention) === null && Number(prepared.item.answer) !== 0),
    );
    // A number followed by the word an item counts ("270 shipments") is that item's, not a neighbour's.
    const counted = candidates.filter((prepared) => namesUnit(clause, mention, prepared));
    if (counted.length > 0) candidates = counted;
    if (candidates.length === 0) continue;
    const around = termsAround(mention.kind === 'number' ? clause : valueless, mentions, mention);
    if (mention.kind !== 'number') {
      // Items busy with a value of their own in this clause (the team named beside the shift) do not compete.
      const competing = addressed.filter(
        (prepared) => candidates.includes(prepared) || !mentions.some((other) => other.kind === 'choice' && other !== mention && prepared.choices.includes(other.choice)),
      );
      bestOverall = Math.max(0, ...competing.map((prepared) => score(prepared, around).score));
    }
    let best: PreparedItem[] = [];
    let bestKey: [number, number] = [0, 0];
    for (const prepared of candidates) {
      const fit = score(prepared, around);
      if (mention.kind === 'number') {
        const onlyValue = mentions.filter((other) => !(other.kind === 'number' && other.weak) && candidatesFor(other, [prepared]).length > 0).length === 1;
        if (!fit.nearKey && !onlyValue) continue;
        if (namesUnit(clause, mention, prepared)) fit.score += 1;
      } else if (fit.score < bestOverall - 1e-9) continue;
      const key: [number, number] = [fit.score, fit.coverage];
      const order = key[0] - bestKey[0] || key[1] - bestKey[1];
      if (fit.score <= 0) continue;
      if (best.length === 0 || order > 1e-9) [best, bestKey] = [[prepared], key];
      else if (Math.abs(order) <= 1e-9) best.push(prepared);
    }
    // Items with the same words in another order ("the most frequent destination of the trips with origin P1" and "the
    // most frequent origin of the trips with destination P1") tie: the role the clause binds to the entity decides.
    if (best.length > 1 && clauseBound.size > 0) {
      const sameRole = best.filter((prepared) => prepared.bound.size === clauseBound.size && [...prepared.bound].every((term) => clauseBound.has(term)));
      if (sameRole.length > 0) best = sameRole;
    }
    for (const prepared of best) byItem.set(prepared, [...(byItem.get(prepared) ?? []), mention]);
    if (mention.kind === 'number' && best.some((prepared) => isSignedDifference(prepared.item))) signedNumbers.push(mention);
  }
  return byItem;
}

/** The movement the direction words near a number state: up, down, or none/both (undecided). */
function movementNear(clause: string, mention: NumberMention): 'up' | 'down' | null {
  const window = clause.slice(Math.max(0, mention.start - 40), Math.min(clause.length, mention.end + 40));
  const moves = new Set(directionMentions(window).map((word) => word.direction).filter((direction) => direction === 'up' || direction === 'down'));
  return moves.size === 1 ? ([...moves][0] as 'up' | 'down') : null;
}

function numberEvidence(prepared: PreparedItem, mentions: readonly Mention[], clause: string): Evidence {
  const { item } = prepared;
  const expected = Number(item.answer);
  const tolerance = (item.tolerance ?? 0) + 1e-9;
  const numbers = (mentions.filter((mention) => mention.kind === 'number') as NumberMention[]).filter((mention) => !mention.reference);
  if (numbers.length === 0) return 'none';
  if (isHedged(clause)) return 'contradict';
  const values: Array<{ value: number; weak: boolean }> = [];
  for (const mention of numbers) {
    let value = mention.value / (mention.quantity === 'plain' && item.unit && unitScale(item.unit) !== 1 && Math.abs(mention.value) >= 1e5 ? unitScale(item.unit) : 1);
    let weak = mention.weak;
    if (prepared.quantity === 'percent' && mention.quantity === 'plain') [value, weak] = [value * 100, true];
    if (prepared.quantity === 'fraction' && mention.quantity === 'percent') value /= 100;
    const [toSeconds, fromSeconds] = [DURATION_SECONDS[prepared.quantity], DURATION_SECONDS[mention.quantity]];
    if (toSeconds !== undefined && fromSeconds !== undefined) value = (value * fromSeconds) / toSeconds;
    if (prepared.quantity === 'rank' && mention.orientation && item.rank_by && item.peers && mention.orientation !== item.rank_by) value = item.peers + 1 - value;
    if (isSignedDifference(item) && !mention.signed && prepared.quantity !== 'rank' && prepared.quantity !== 'ratio') {
      const movement = movementNear(clause, mention);
      if (movement === null) {
        // A size without its direction: agrees in magnitude with the answer but does not state it.
        if (Math.abs(Math.abs(value) - Math.abs(expected)) <= tolerance && expected !== 0) continue;
      } else value = movement === 'down' ? -Math.abs(value) : Math.abs(value);
    }
    values.push({ value, weak });
  }
  if (values.length === 0) return 'none';
  const strong = [...new Set(values.filter((entry) => !entry.weak).map((entry) => entry.value.toFixed(6)))];
  // Several candidate values for one item in one sentence (a list, a range) state none of them.
  if (strong.length > 1) return 'contradict';
  if (values.some((entry) => Math.abs(entry.value - expected) <= tolerance)) return 'support';
  return strong.length > 0 ? 'contradict' : 'none';
}

function categoryEvidence(prepared: PreparedItem, mentions: readonly Mention[], clause: string): Evidence {
  const named = (mentions.filter((mention) => mention.kind === 'choice') as ChoiceMention[]).map((mention) => mention.choice);
  if (named.length === 0) return 'none';
  if (isHedged(clause)) return 'contradict';
  const distinct = [...new Set(named)];
  // Several values named for one answer are candidates unless the sentence ranks them ("A, followed by B").
  if (distinct.length > 1 && !ordersValues(clause)) return 'contradict';
  return distinct[0] === String(prepared.item.answer).toLowerCase().replaceAll('_', ' ') ? 'support' : 'contradict';
}

function setEvidence(prepared: PreparedItem, mentions: readonly Mention[], clause: string): Evidence {
  const answer = (prepared.item.answer as string[]).map((value) => value.toLowerCase().replaceAll('_', ' '));
  const named = new Set((mentions.filter((mention) => mention.kind === 'choice') as ChoiceMention[]).map((mention) => mention.choice));
  if (named.size === 0) return 'none';
  if (isHedged(clause)) return 'contradict';
  if ([...named].some((value) => !answer.includes(value))) return 'contradict';
  return answer.every((value) => named.has(value)) ? 'support' : 'none';
}

const JUDGEMENTS = new Set(['improved', 'worsened', 'same']);

/** The answer a direction word gives in the item's vocabulary (a judgement or a movement), or null when it cannot say. */
function directionAnswer(item: ChecklistItem, word: WordMention['direction']): string | null {
  const judgement = JUDGEMENTS.has(String(item.answer));
  const better = item.higher_is_better;
  if (judgement) {
    if (word === 'up' || word === 'down') return better === undefined ? null : (word === 'up') === better ? 'improved' : 'worsened';
    return word;
  }
  if (word === 'same') return 'stable';
  if (word === 'up') return 'increased';
  if (word === 'down') return 'decreased';
  return better === undefined ? null : (word === 'improved') === better ? 'increased' : 'decreased';
}

function directionEvidence(prepared: PreparedItem, mentions: readonly Mention[], clause: string): Evidence {
  const implied = new Set(
    (mentions.filter((mention) => mention.kind === 'direction') as WordMention[])
      .map((mention) => directionAnswer(prepared.item, mention.direction))
      .filter((value): value is string => value !== null),
  );
  if (implied.size === 0) return 'none';
  if (isHedged(clause) || implied.size > 1) return 'contradict';
  return implied.has(String(prepared.item.answer)) ? 'support' : 'contradict';
}

const EVIDENCE: Record<ChecklistItem['answer_type'], (prepared: PreparedItem, mentions: readonly Mention[], clause: string) => Evidence> = {
  number: numberEvidence,
  category: categoryEvidence,
  set: setEvidence,
  direction: directionEvidence,
  // A free-text answer is a judge's to grade (ddr.ts leaves text items out of this grader): reaching here is a bug.
  text: () => {
    throw new Error('a text checklist item reached the deterministic grader: only a judge grades text answers');
  },
};

/**
 * The deterministic checklist grader. Each sentence's values (numbers with their unit, named choices, direction
 * words) are attributed to the item whose subject terms — derived from the item's question and the documentation of
 * the columns its SQL reads, paraphrases folded — stand nearest; no hand-written anchors. A sentence supports an
 * item when it states the answer (a number within tolerance in the item's unit and sign, the choice, every element
 * of the set and no other, the direction), and contradicts it when it states another value, several candidate
 * values (a list, a range), or hedges ("maybe", "could be"). The agent may revise itself, so the last message that
 * addresses an item decides: CORRECT_INFO when it supports the item and does not also contradict it,
 * INCORRECT_INFO when it contradicts it, INSUFFICIENT_INFO when no message addresses the item.
 * Indices are 0-based positions in `messages`.
 */
export function gradeChecklist(checklist: readonly ChecklistItem[], messages: readonly string[], context: GradingContext = {}): ItemVerdict[] {
  const items = prepare(checklist, context);
  const aliases = choiceAliases(items, context.displayNames);
  const allChoices = [...new Set([...items.flatMap((prepared) => prepared.choices), ...aliases.keys()])];
  const answers = new Set(items.map((prepared) => String(prepared.item.answer).toLowerCase().replaceAll('_', ' ')));
  const decided = items.map(() => ({ supporting: [] as number[], contradicting: [] as number[], last: null as { support: boolean; contradict: boolean } | null }));
  messages.forEach((message, index) => {
    const flags = items.map(() => ({ support: false, contradict: false }));
    // The entity the sentences are about: this task's (null) until a sentence names another as its subject.
    let carried: string | null = null;
    for (const raw of splitClauses(message)) {
      const clause = canonicalValues(normaliseText(raw));
      let values = clauseValues(clause, allChoices, aliases);
      if (context.entities) {
        const isChoice = (entity: string) => allChoices.includes(entity.toLowerCase());
        const named = entityMentions(clause, context.entities, isChoice, values);
        const subjects = named.filter((mention) => mention.role !== 'value');
        // A subject or a point of comparison is not a value, and this task's own id or name is never a candidate.
        const inside = (value: Mention, mention: EntityMention) => value.start < mention.end && value.end > mention.start;
        values = values.filter((value) => !subjects.some((mention) => inside(value, mention) && !(mention.entity === null && value.kind === 'choice' && answers.has(value.choice))));
        if (isRecordDump(clause)) {
          // A dump of records states its values together, about this task's entity when it names it at all; the
          // entities it names are its records' keys, not values.
          if (carried !== null && !named.some((mention) => mention.entity === null)) continue;
          values = values.filter((value) => !named.some((mention) => inside(value, mention)));
        } else {
          values = values.filter((value) => ownerAt(value.start, named, carried) === null);
          const lastSubject = named.filter((mention) => mention.role === 'subject').at(-1);
          if (lastSubject) carried = lastSubject.entity;
        }
      }
      for (const [prepared, mentions] of attribute(clause, items, values, context.entityId)) {
        const evidence = EVIDENCE[prepared.item.answer_type](prepared, mentions, clause);
        const flag = flags[items.indexOf(prepared)]!;
        if (evidence === 'support') flag.support = true;
        if (evidence === 'contradict') flag.contradict = true;
      }
    }
    flags.forEach((flag, position) => {
      const state = decided[position]!;
      if (flag.support) state.supporting.push(index);
      if (flag.contradict) state.contradicting.push(index);
      if (flag.support || flag.contradict) state.last = flag;
    });
  });
  return items.map((prepared, position) => {
    const { supporting, contradicting, last } = decided[position]!;
    const verdict = last === null ? 'INSUFFICIENT_INFO' : last.support && !last.contradict ? 'CORRECT_INFO' : 'INCORRECT_INFO';
    return { itemId: prepared.item.id, verdict, supporting, contradicting };
  });
}

const JUDGE_PROMPT = [
  'You grade what an agent found while exploring a database, against one checklist item (a question and its verified answer).',
  'You get the agent\'s insights, numbered from 0. Decide:',
  '- CORRECT_INFO: the insights state the answer (numbers may be rounded within the given tolerance, in the given unit).',
  '- INCORRECT_INFO: the insights state a different value or a contradicting claim about this question.',
  '- INSUFFICIENT_INFO: the insights do not address the question.',
  'Reply with JSON only: {"verdict": "CORRECT_INFO" | "INCORRECT_INFO" | "INSUFFICIENT_INFO", "supporting": [indices], "contradicting": [indices], "reason": "one line"}.',
].join('\n');

function judgeRequest(item: ChecklistItem, insights: readonly string[]): string {
  const answer = Array.isArray(item.answer) ? item.answer.join(', ') : String(item.answer);
  const tolerance = item.answer_type === 'number' ? ` (tolerance ±${item.tolerance ?? 0}${item.unit ? ` ${item.unit}` : ''})` : '';
  return [
    `Question: ${item.question}`,
    `Verified answer: ${answer}${item.unit && item.answer_type === 'number' ? ` ${item.unit}` : ''}${tolerance}`,
    '',
    'Insights:',
    ...insights.map((insight, index) => `[${index}] ${insight}`),
  ].join('\n');
}

function parseJudgeReply(itemId: string, text: string, count: number): ItemVerdict | null {
  const json = text.slice(text.indexOf('{'), text.lastIndexOf('}') + 1);
  try {
    const parsed = JSON.parse(json) as Record<string, unknown>;
    const verdict = ChecklistVerdictSchema.safeParse(parsed.verdict);
    if (!verdict.success) return null;
    const indices = (value: unknown) =>
      (Array.isArray(value) ? value : []).map(Number).filter((index) => Number.isInteger(index) && index >= 0 && index < count);
    return {
      itemId,
      verdict: verdict.data,
      supporting: indices(parsed.supporting),
      contradicting: indices(parsed.contradicting),
      reason: typeof parsed.reason === 'string' ? parsed.reason : undefined,
    };
  } catch {
    return null;
  }
}

/** Attempts per item: a reply that is not the verdict JSON is asked for again, up to this many times in all. */
export const JUDGE_ATTEMPTS = 3;

/**
 * DDR-Bench's LLM-judge protocol: one judge call per checklist item over the numbered insights, answering
 * CORRECT_INFO / INCORRECT_INFO / INSUFFICIENT_INFO with supporting and contradicting indices. A reply that is not
 * that JSON (or a call that fails) is asked for again; after JUDGE_ATTEMPTS the item is UNJUDGED, with the last
 * reply as its reason — counted and reported, never a guessed verdict, and the other items are still judged.
 */
export async function judgeChecklist(checklist: readonly ChecklistItem[], insights: readonly string[], judge: Model): Promise<ItemVerdict[]> {
  const verdicts: ItemVerdict[] = [];
  for (const item of checklist) {
    let verdict: ItemVerdict | null = null;
    let reply = '';
    for (let attempt = 0; attempt < JUDGE_ATTEMPTS && verdict === null; attempt += 1) {
      try {
        const response = await judge.respond({
          messages: [
            { role: 'system', content: JUDGE_PROMPT },
            { role: 'user', content: judgeRequest(item, insights) },
          ],
          tools: [],
        });
        reply = response.message.content ?? '';
        verdict = parseJudgeReply(item.id, reply, insights.length);
      } catch (error) {
        reply = `the judge call failed: ${(error as Error).message}`;
      }
    }
    verdicts.push(
      verdict ?? { itemId: item.id, verdict: 'UNJUDGED', supporting: [], contradicting: [], reason: `no usable verdict from ${judge.spec} after ${JUDGE_ATTEMPTS} attempts: ${reply.slice(0, 200)}` },
    );
  }
  return verdicts;
}

/** Share of items judged CORRECT_INFO. */
export function checklistAccuracy(verdicts: readonly ItemVerdict[]): number {
  return verdicts.length === 0 ? 0 : verdicts.filter((verdict) => verdict.verdict === 'CORRECT_INFO').length / verdicts.length;
}

/**
 * For each item, the smallest k at which it counts in the top-k curve, or null when it never counts: a correct
 * item counts from the first message that supports it (k = its index + 1). The source first said "all supporting
 * messages < k"; with a FINISH summary that repeats every fact, that put every item at the last message and made
 * the curve a single step, so the curve now shows when the agent first reached each fact it got right.
 */
export function firstCountingK(verdicts: readonly ItemVerdict[]): Array<number | null> {
  return verdicts.map((verdict) => {
    if (verdict.verdict !== 'CORRECT_INFO') return null;
    return verdict.supporting.length === 0 ? 0 : Math.min(...verdict.supporting) + 1;
  });
}
