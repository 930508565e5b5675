import type { Model } from '../models/model.ts';
import { SandboxError } from '../sandbox-error.ts';
import { ChecklistVerdictSchema, type ChecklistItem, type ItemVerdict } from '../schemas/checklist.ts';

type Evidence = 'support' | 'contradict' | 'none';

/** Splits a message into sentences and list lines: a fact is judged within the sentence that states it. */
export function splitClauses(text: string): string[] {
  return text
    .split(/\n+|(?<=[.!?;])\s+(?=\S)/)
    // Underscores read as spaces: "billing_dispute" and "billing dispute" name the same value.
    .map((clause) => clause.trim().toLowerCase().replaceAll('_', ' '))
    .filter((clause) => clause.length > 0);
}

/** Whether a phrase occurs starting at a word boundary ("diagnos" matches "diagnoses", "stay" does not match "costay"). */
function startsWord(text: string, phrase: string): boolean {
  const lower = phrase.toLowerCase().replaceAll('_', ' ');
  for (let index = text.indexOf(lower); index !== -1; index = text.indexOf(lower, index + 1)) {
    if (index === 0 || !/[a-z0-9]/.test(text[index - 1]!)) return true;
  }
  return false;
}

function addresses(item: ChecklistItem, clause: string): boolean {
  return item.anchors.length > 0 && item.anchors.every((group) => group.some((phrase) => startsWord(clause, phrase)));
}

const MULTIPLIERS: Record<string, number> = { k: 1e3, thousand: 1e3, m: 1e6, mn: 1e6, million: 1e6, millions: 1e6, b: 1e9, bn: 1e9, billion: 1e9, billions: 1e9 };
// A number not inside an identifier ("P-0042", "A12"), with thousands separators, an optional sign and currency,
// then an optional multiplier or percent sign.
const NUMBER = /(?<![\w.]|\w-)([-−]?)\$?(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?(?:\s?(%|percent\b|k\b|thousand\b|mn\b|m\b|millions?\b|bn\b|b\b|billions?\b))?/g;

interface Candidate {
  value: number;
  /** Weak candidates (year-like integers, fractions read as percentages) may support but never contradict. */
  weak: boolean;
}

function unitScale(unit: string | undefined): number {
  const lower = (unit ?? '').toLowerCase();
  if (/\bbillions?\b|\bbn\b/.test(lower)) return 1e9;
  if (/\bmillions?\b|\bmn\b/.test(lower)) return 1e6;
  if (/\bthousands?\b/.test(lower)) return 1e3;
  return 1;
}

function numberCandidates(item: ChecklistItem, clause: string): Candidate[] {
  const percentItem = item.unit === '%';
  const candidates: Candidate[] = [];
  for (const match of clause.matchAll(NUMBER)) {
    const [, sign, whole, fraction, suffix] = match;
    let value = Number(`${whole!.replaceAll(',', '')}${fraction ?? ''}`) * (sign ? -1 : 1);
    const isPercent = suffix === '%' || suffix === 'percent';
    if (isPercent && !percentItem) continue;
    if (suffix && !isPercent) value = (value * MULTIPLIERS[suffix]!) / unitScale(item.unit);
    const yearLike = !fraction && !suffix && /^(19|20)\d\d$/.test(whole!);
    candidates.push({ value, weak: yearLike });
    if (percentItem && !isPercent && Math.abs(value) <= 1 && fraction) candidates.push({ value: value * 100, weak: true });
  }
  return candidates;
}

function numberEvidence(item: ChecklistItem, clause: string): Evidence {
  const expected = Number(item.answer);
  // Half a unit of the last decimal is always allowed: "4.23" reported as "4.2" is the same fact.
  const tolerance = (item.tolerance ?? 0) + 1e-9;
  const candidates = numberCandidates(item, clause);
  if (candidates.some((candidate) => Math.abs(candidate.value - expected) <= tolerance)) return 'support';
  return candidates.some((candidate) => !candidate.weak) ? 'contradict' : 'none';
}

const phrasePatterns = new Map<string, RegExp>();

/** Whether a phrase occurs as whole words (patterns are compiled once: a 100-turn trajectory tests thousands). */
function containsPhrase(text: string, phrase: string): boolean {
  let pattern = phrasePatterns.get(phrase);
  if (!pattern) {
    const escaped = phrase.toLowerCase().replaceAll('_', ' ').replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    pattern = new RegExp(`(?<![a-z0-9])${escaped}(?![a-z0-9])`);
    phrasePatterns.set(phrase, pattern);
  }
  return pattern.test(text);
}

/** The choices a clause names, longest first, each occurrence consumed once ("heart failure" inside a longer name is not named twice). */
function namedChoices(clause: string, choices: readonly string[]): Set<string> {
  let rest = clause;
  const named = new Set<string>();
  for (const choice of [...choices].sort((a, b) => b.length - a.length)) {
    if (!containsPhrase(rest, choice)) continue;
    const normalised = choice.toLowerCase().replaceAll('_', ' ');
    named.add(normalised);
    rest = rest.replaceAll(normalised, ' ');
  }
  return named;
}

function categoryEvidence(item: ChecklistItem, clause: string): Evidence {
  const answer = String(item.answer).toLowerCase().replaceAll('_', ' ');
  const named = namedChoices(clause, [...(item.choices ?? []), String(item.answer)]);
  if (named.has(answer)) return 'support';
  return named.size > 0 ? 'contradict' : 'none';
}

function setEvidence(item: ChecklistItem, clause: string): Evidence {
  const answer = (item.answer as string[]).map((value) => value.toLowerCase().replaceAll('_', ' '));
  const named = namedChoices(clause, [...(item.choices ?? []), ...answer]);
  if ([...named].some((value) => !answer.includes(value))) return 'contradict';
  return answer.every((value) => named.has(value)) ? 'support' : 'none';
}

const DIRECTION_WORDS: Record<'improved' | 'worsened' | 'same' | 'up' | 'down', string[]> = {
  improved: ['improved', 'improving', 'improvement', 'better'],
  worsened: ['worsened', 'worsening', 'deteriorated', 'deteriorating', 'worse'],
  same: ['same', 'unchanged', 'stable', 'flat', 'steady', 'no change', 'no significant change'],
  up: ['increased', 'increasing', 'increase', 'rose', 'risen', 'rising', 'grew', 'growing', 'higher', 'climbed', 'went up'],
  down: ['decreased', 'decreasing', 'decrease', 'fell', 'fallen', 'falling', 'dropped', 'declined', 'declining', 'lower', 'went down', 'shrank'],
};

function directionEvidence(item: ChecklistItem, clause: string): Evidence {
  const implied = new Set<string>();
  for (const [direction, words] of Object.entries(DIRECTION_WORDS)) {
    if (!words.some((word) => containsPhrase(clause, word))) continue;
    if (direction === 'up' || direction === 'down') {
      if (item.higher_is_better === undefined) continue;
      implied.add((direction === 'up') === item.higher_is_better ? 'improved' : 'worsened');
    } else {
      implied.add(direction);
    }
  }
  if (implied.size === 0) return 'none';
  if (implied.size === 1 && implied.has(String(item.answer))) return 'support';
  return implied.has(String(item.answer)) ? 'none' : 'contradict';
}

const EVIDENCE: Record<ChecklistItem['answer_type'], (item: ChecklistItem, clause: string) => Evidence> = {
  number: numberEvidence,
  category: categoryEvidence,
  set: setEvidence,
  direction: directionEvidence,
};

/**
 * The deterministic checklist grader: a message supports an item when one of its sentences addresses the item
 * (its anchors) and states the answer (a number within tolerance, in the item's unit; the entity name; every
 * element of the set and no other; the direction), and contradicts it when it states another value. The agent
 * may revise itself, so the last message that addresses an item decides: CORRECT_INFO when it supports the item
 * (and does not also contradict it), INCORRECT_INFO when it contradicts it, INSUFFICIENT_INFO when no message
 * addresses the item. Indices are 0-based positions in `messages`.
 */
export function gradeChecklist(checklist: readonly ChecklistItem[], messages: readonly string[]): ItemVerdict[] {
  const clauses = messages.map(splitClauses);
  return checklist.map((item) => {
    const supporting: number[] = [];
    const contradicting: number[] = [];
    let last: { support: boolean; contradict: boolean } | null = null;
    clauses.forEach((messageClauses, index) => {
      let support = false;
      let contradict = false;
      for (const clause of messageClauses) {
        if (!addresses(item, clause)) continue;
        const evidence = EVIDENCE[item.answer_type](item, clause);
        if (evidence === 'support') support = true;
        if (evidence === 'contradict') contradict = true;
      }
      if (support) supporting.push(index);
      if (contradict) contradicting.push(index);
      if (support || contradict) last = { support, contradict };
    });
    const decided = last as { support: boolean; contradict: boolean } | null;
    const verdict = decided === null ? 'INSUFFICIENT_INFO' : decided.support && !decided.contradict ? 'CORRECT_INFO' : 'INCORRECT_INFO';
    return { itemId: item.id, verdict, supporting, contradicting };
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

/**
 * DDR-Bench's LLM-judge protocol: one judge call per checklist item over the numbered insights, answering
 * CORRECT_INFO / INCORRECT_INFO / INSUFFICIENT_INFO with supporting and contradicting indices. A reply that is not
 * that JSON is asked for once more; a second failure is a harness error, never a guessed verdict.
 */
export async function judgeChecklist(checklist: readonly ChecklistItem[], insights: readonly string[], judge: Model): Promise<ItemVerdict[]> {
  const verdicts: ItemVerdict[] = [];
  for (const item of checklist) {
    let verdict: ItemVerdict | null = null;
    let reply = '';
    for (let attempt = 0; attempt < 2 && verdict === null; attempt += 1) {
      const response = await judge.respond({
        messages: [
          { role: 'system', content: JUDGE_PROMPT },
          { role: 'user', content: judgeRequest(item, insights) },
        ],
        tools: [],
      });
      reply = response.message.content ?? '';
      verdict = parseJudgeReply(item.id, reply, insights.length);
    }
    if (verdict === null) {
      throw new SandboxError('model-error', `the judge ${judge.spec} did not answer with a verdict for item ${item.id}: ${reply.slice(0, 200)}`);
    }
    verdicts.push(verdict);
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
