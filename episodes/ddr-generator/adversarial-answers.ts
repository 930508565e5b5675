import { SeededRandom } from '../../databases/seeded-random.ts';
import type { ChecklistItem } from '../../src/schemas/checklist.ts';
import type { DdrTask } from '../../src/schemas/ddr-task.ts';
import { ordinal } from './scenario-spec.ts';

/** Replaces a number written as a value (not inside an id such as "P-0003" or a decimal) everywhere in a sentence. */
function replaceNumber(text: string, from: string, to: string): string {
  return text.replace(new RegExp(`(?<![\\w.-])${from.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\w]|\\.\\d)`, 'g'), to);
}

/**
 * Five FINISH answers per task, to test that the deterministic grader cannot be gamed:
 * - `perfect`: the reference trajectory's FINISH (every fact, as the generator states it);
 * - `wrong`: the same sentences with every value replaced by a wrong one (outside tolerance, another choice, the
 *   opposite direction, another set);
 * - `paraphrased`: every fact right, in the words an analyst or a model would use (abbreviations, other verbs,
 *   several facts per sentence, rounding within tolerance);
 * - `shotgun`: for every fact a sentence listing many candidate values (a list of numbers or ranks, a range that
 *   covers the answer, every choice);
 * - `hedged`: every fact with its right value, but presented as a guess ("maybe", "I think", "could be … or …").
 */
export type AnswerSet = 'perfect' | 'wrong' | 'paraphrased' | 'shotgun' | 'hedged';

type Facts = Record<string, ChecklistItem>;

const num = (item: ChecklistItem | undefined) => Number(item?.answer);
const abs = (value: number) => Math.abs(value);
/** The answer rounded as a person would, staying within the item's tolerance. */
function rounded(item: ChecklistItem): string {
  const value = num(item);
  const tolerance = item.tolerance ?? 0;
  for (const decimals of [0, 1, 2]) {
    const candidate = Number(value.toFixed(decimals));
    if (abs(candidate - value) <= tolerance) return String(candidate);
  }
  return String(value);
}
const upDown = (value: number, up: string, down: string) => (value < 0 ? down : up);

/** Paraphrases per item id: how an analyst would state the fact, with the right value. */
const PARAPHRASES: Record<string, (item: ChecklistItem, subject: string, facts: Facts) => string> = {
  team: (item) => `They sit on the ${item.answer} team`,
  shift: (item) => `and cover the ${item.answer} shift`,
  calls: (item, subject) => `${subject} took ${item.answer} contacts in total over the half-year`,
  'handle-time': (item) => `Their AHT comes to ${rounded(item)} s`,
  'top-driver': (item) => `${String(item.answer).replaceAll('_', ' ')} is the leading contact reason`,
  'handle-time-rank': (item) => `on handle time they are the ${ordinal(item.answer)} fastest of the ${item.peers} in the comparison`,
  'escalation-z-score': (item) => `Escalations stand out: the rate sits ${abs(num(item))} SD ${upDown(num(item), 'above', 'below')} the agent average`,
  'qa-change': (item) => `QA scores ${upDown(num(item), 'went up', 'dropped')} by ${abs(num(item))} points after the April 1 cut-off`,
  'handle-time-direction': (item) =>
    item.answer === 'stable' ? 'Handle time held steady between Q1 and Q2' : `Handle time ${item.answer === 'increased' ? 'rose' : 'fell'} between Q1 and Q2`,
  'hold-vs-day-evening': (item) => `Callers spend ${item.answer}x as long on hold with them as with day and evening agents`,
  'site-handle-time': (item) => `their site's calls run ${abs(num(item))}% ${upDown(num(item), 'longer', 'shorter')} than at the other sites`,
  'busiest-agent': (item) => `${item.answer} takes more of this queue's calls than any other agent`,
  'escalation-change': (item) => `escalations ${upDown(num(item), 'went up', 'went down')} ${abs(num(item))} pp from Q1 to Q2`,
  'busiest-day': (item) => `The peak day saw ${item.answer}x the usual daily volume`,
  'enterprise-share': (item) => `enterprise customers account for ${rounded(item)}% of the queue's contacts`,
  admissions: (item, subject) => `${subject} has been hospitalized ${item.answer} times`,
  'mean-length-of-stay': (item) => `with stays lasting ${item.answer} days on average`,
  'main-diagnosis': (item) => `The principal diagnosis is most often ${item.answer}`,
  medications: (item) => `Current prescriptions include ${(item.answer as string[]).join(' and ')}`,
  'admission-type': (item) => `Most hospitalizations came in as ${item.answer} admissions`,
  'lab-trend': (item, _subject, facts) => {
    const test = /'s (\S+) improve/.exec(item.question)?.[1] ?? 'the lab value';
    const change = facts['lab-change'];
    const word = item.answer === 'same' ? 'was essentially unchanged' : item.answer === 'improved' ? 'got better' : 'got worse';
    if (!change) return `${test} ${word} between the first and the most recent draw`;
    const size = num(change) === 0 ? 'with no change at all (0 ' + change.unit + ')' : `${upDown(num(change), 'rising', 'falling')} ${item.answer === 'same' ? 'only ' : ''}${abs(num(change))} ${change.unit}`;
    return `${test} ${word} between the first and the most recent draw, ${size}`;
  },
  'lab-change': () => '',
  'length-of-stay-rank': (item) => `that puts them ${ordinal(item.answer)} longest among the ${item.peers} admitted patients`,
  'latest-lab-z-score': (item) => `the latest value is ${abs(num(item))} standard deviations ${upDown(num(item), 'above', 'below')} the patient average`,
  'stay-vs-admission-type': (item) => `Their stays run ${abs(num(item))} days ${upDown(num(item), 'longer', 'shorter')} than typical for the same admission types`,
  'diagnoses-per-admission': (item) => `each hospitalization carries about ${item.answer} recorded diagnoses`,
  sector: (item) => `It is a ${item.answer} company`,
  'net-margin-latest': (item) => `its 2024 profit margin was ${item.answer}%`,
  'largest-segment': (item) => `${item.answer} is its biggest business line`,
  'risks-latest': (item) => `The 2024 risk factors cover ${(item.answer as string[]).join(', ')}`,
  'loss-years': (item) => `It was in the red in ${item.answer} of the six years`,
  'revenue-cagr': (item) => `Sales grew at a ${item.answer}% CAGR from 2019 to 2024`,
  'margin-direction': (item) =>
    item.answer === 'same' ? 'margins were roughly flat over the period' : `profitability ${item.answer === 'improved' ? 'got better' : 'deteriorated'} over the period`,
  'revenue-rank-in-sector': (item) => `By 2024 sales it is the ${ordinal(item.answer)} largest of the ${item.peers} companies in its sector`,
  'margin-z-score-in-sector': (item) => `its margin sits ${abs(num(item))} standard deviations ${upDown(num(item), 'above', 'below')} the sector mean`,
  'largest-segment-share': (item) => `The biggest segment makes up ${item.answer}% of 2024 revenue`,
  'renewables-share-change': (item) => `Renewables ${upDown(num(item), 'gained', 'lost')} ${abs(num(item))} percentage points of revenue share since 2019`,
};

/** Joins paraphrased facts into sentences of two or three facts, as a summary would. */
function summary(subject: string, parts: string[]): string {
  const sentences: string[] = [];
  for (let index = 0; index < parts.length; index += 2) {
    const pair = parts.slice(index, index + 2).filter((part) => part.length > 0);
    if (pair.length === 0) continue;
    const text = pair.join(pair[1]?.startsWith('and ') ? ' ' : '; ');
    sentences.push(`${text.charAt(0).toUpperCase()}${text.slice(1)}.`);
  }
  return `FINISH: Summary for ${subject}. ${sentences.join(' ')}`;
}

function wrongValue(item: ChecklistItem, random: SeededRandom): string {
  if (item.answer_type === 'number') {
    const value = num(item);
    const step = Math.max(3 * (item.tolerance ?? 0), abs(value) * 0.3, 1);
    if (item.unit === 'rank') return String(value + (value > 1 && random.next() < 0.5 ? -1 : 1) * Math.max(1, Math.round(step)));
    const wrong = value + (random.next() < 0.5 && value - step > 0 ? -step : step);
    return String(Number.isInteger(value) ? Math.round(wrong) : Number(wrong.toFixed(2)));
  }
  if (item.answer_type === 'direction') {
    const opposite: Record<string, string> = { improved: 'worsened', worsened: 'improved', same: 'improved', increased: 'decreased', decreased: 'increased', stable: 'increased' };
    return opposite[String(item.answer)]!;
  }
  const others = (item.choices ?? []).filter((choice) => (Array.isArray(item.answer) ? !item.answer.includes(choice) : choice !== item.answer));
  return others[Math.floor(random.next() * others.length)] ?? 'none';
}

/** A sentence about the item listing many candidates (the right one among them) without committing to one. */
function shotgun(item: ChecklistItem, subject: string): string {
  const label = item.question.replace(/\?$/, '').replace(/^(what|which|how many|by how much|by how many|by what percent|how|among[^,]*,\s*where)\s+/i, '');
  if (item.answer_type === 'number') {
    const value = num(item);
    if (item.unit === 'rank') {
      const ranks = Array.from({ length: Math.min(item.peers ?? 10, 12) }, (_, index) => ordinal(index + 1));
      if (!ranks.includes(ordinal(value))) ranks.push(ordinal(value));
      return `Depending on the cut, ${subject} ranks ${ranks.join(', ')} of ${item.peers} on ${label}.`;
    }
    const step = Math.max(abs(value) * 0.2, (item.tolerance ?? 0) * 4, 1);
    const candidates = [-2, -1, 0, 1, 2].map((offset) => Number((value + offset * step).toFixed(2)));
    const unit = item.unit === '%' || item.unit === 'pp' ? '%' : item.unit === 'σ' ? ' standard deviations' : item.unit === '×' ? 'x' : ` ${item.unit ?? ''}`;
    return `For ${label}, values of ${candidates.map((candidate) => `${candidate}${unit}`).join(', ')} all appear in the data, somewhere from ${candidates[0]}${unit} to ${candidates[4]}${unit}.`;
  }
  if (item.answer_type === 'direction') return `Over time ${label} increased, decreased, improved, worsened and stayed stable at different points.`;
  const choices = [...new Set([...(item.choices ?? []), ...(Array.isArray(item.answer) ? item.answer : [String(item.answer)])])];
  return `Regarding ${label}: ${choices.join(', ')}.`;
}

const HEDGES = ['Maybe', 'I think, though I am not sure,', 'Possibly', 'It could be that', 'Perhaps'];

/** The five answers for one task. */
export function adversarialAnswers(task: DdrTask, seed: number): Record<AnswerSet, string> {
  const random = new SeededRandom(seed);
  const { checklist } = task.grading;
  const subject = `${task.grading.entity.kind} ${task.grading.entity.id}`;
  const perfect = (task.reference.trajectory.at(-1) as { answer: string }).answer;
  const statements = perfect.split('\n').slice(1).map((line) => line.replace(/^- /, ''));
  const wrong = statements.map((statement, index) => {
    const item = checklist[index]!;
    const replacement = wrongValue(item, random);
    if (item.answer_type === 'set') return statement.replace((item.answer as string[]).join(', '), replacement);
    if (item.answer_type === 'number' && item.unit === 'rank') return statement.replace(ordinal(item.answer), ordinal(replacement));
    if (item.answer_type === 'direction') {
      const said: Record<string, string> = { same: 'stayed about the same', stable: 'stayed stable' };
      const from = said[String(item.answer)] ?? String(item.answer);
      return statement.replace(from, said[replacement] ?? replacement);
    }
    if (item.answer_type === 'number') {
      // The same sentence with a value the tolerance does not cover; signed facts, stated as a size and a direction
      // word, get a larger size.
      const replaced = replaceNumber(statement, String(item.answer), replacement);
      const larger = String(Number((abs(num(item)) + Math.max(1, 3 * (item.tolerance ?? 0))).toFixed(2)));
      return replaced !== statement ? replaced : replaceNumber(statement, String(abs(num(item))), larger);
    }
    return statement.replace(String(item.answer), replacement);
  });
  const facts: Facts = Object.fromEntries(checklist.map((item) => [item.id, item]));
  const paraphrased = summary(
    subject,
    checklist.map((item) => PARAPHRASES[item.id]?.(item, subject, facts) ?? ''),
  );
  const hedged = statements.map((statement, index) => `${HEDGES[index % HEDGES.length]} ${statement.charAt(0).toLowerCase()}${statement.slice(1)}`);
  return {
    perfect,
    wrong: `FINISH: Findings for ${subject}:\n${wrong.map((line) => `- ${line}`).join('\n')}`,
    paraphrased,
    shotgun: `FINISH: Findings for ${subject}:\n${checklist.map((item) => `- ${shotgun(item, subject)}`).join('\n')}`,
    hedged: `FINISH: Findings for ${subject}:\n${hedged.map((line) => `- ${line}`).join('\n')}`,
  };
}
