import type { CctuStructure, CctuTask } from '../schemas/cctu-task.ts';
import type { TrajectoryEvent } from '../schemas/event.ts';
import type { EpisodeScore, SummaryTable } from '../schemas/score.ts';
import type { ConstraintStatus } from '../schemas/step.ts';
import { constraintStatuses, violationSummary } from '../validator/constraint-status.ts';
import { gradeCctuOfficial, summarizeCctuOfficial } from './cctu-official.ts';
import { meanAndStd } from './mean-std.ts';
import { cctuEpisodeScore } from './cctu-score.ts';
import type { StyleGrader } from './style-grader.ts';

const STRUCTURES: CctuStructure[] = ['single-hop', 'parallel-single-hop', 'multi-hop', 'parallel-multi-hop'];
const DIMENSIONS = ['resource', 'behavior', 'toolset', 'response', 'custom'] as const;

/** CCTU's text normalisation: lower-cased, commas removed (applied to golden pieces and outputs alike). */
function normalise(text: string): string {
  return text.toLowerCase().replace(/,/g, '');
}

/**
 * CCTU's rule for one output: the golden answer split on ", ", and every piece, normalised, is a substring
 * of the normalised output.
 */
export function subqueryMatches(golden: string, output: string): boolean {
  const haystack = normalise(output);
  return golden.split(', ').every((piece) => haystack.includes(normalise(piece)));
}

/** Per-constraint facts kept in a score's details, so summaries can count by category and dimension. */
interface ConstraintFact {
  id: string;
  category: string;
  status: ConstraintStatus;
}

/** Outputs the agent actually read from executed calls of each tool (blocked calls and tool errors excluded). */
function toolOutputs(events: readonly TrajectoryEvent[]): Array<{ tool: string; text: string; seq: number }> {
  const blocked = new Set(events.flatMap((event) => (event.type === 'tool-call' && event.disposition !== 'executed' ? [event.callId] : [])));
  return events.flatMap((event) =>
    event.type === 'tool-result' && !event.isError && !blocked.has(event.callId) ? [{ tool: event.name, text: event.content, seq: event.seq }] : [],
  );
}

/**
 * Which golden answers (subqueries) the tool outputs hold, CCTU's way — the one implementation both CCTU graders
 * and the suite tools use: each output, in order, serves at most one golden answer (CCTU consumes one golden answer
 * per tool message) — the first one not yet found whose tool it is and which it contains (`subqueryMatches`). So
 * one output cannot serve two same-tool golden answers. (Taking the golden answers in order instead, each consuming
 * the first unconsumed matching output, finds the same set: both are the same greedy matching.)
 */
export function solveSubqueries(subqueries: ReadonlyArray<{ tool: string; answer: string }>, outputs: ReadonlyArray<{ tool: string; text: string }>): boolean[] {
  return locateSubqueries(subqueries, outputs).map((output) => output !== null);
}

/** `solveSubqueries`, saying which output (its index in `outputs`) served each golden answer; null: not found. */
function locateSubqueries(subqueries: ReadonlyArray<{ tool: string; answer: string }>, outputs: ReadonlyArray<{ tool: string; text: string }>): Array<number | null> {
  const servedBy: Array<number | null> = subqueries.map(() => null);
  outputs.forEach((output, position) => {
    const index = subqueries.findIndex((subquery, at) => servedBy[at] === null && subquery.tool === output.tool && subqueryMatches(subquery.answer, output.text));
    if (index >= 0) servedBy[index] = position;
  });
  return servedBy;
}

/**
 * Grades a CCTU episode (docs/architecture.md "Scores"): a subquery is solved when its golden answer is in an output
 * of its tool; SR = solved ∧ the episode completed with an answer ∧ no violation at the last assistant
 * message; PSR = solved ∧ completed ∧ no violation at all. A validator error fails both (its results
 * cannot be trusted) and is reported.
 */
function gradeCctu(task: CctuTask, events: readonly TrajectoryEvent[]): EpisodeScore {
  const end = events.findLast((event) => event.type === 'episode-end');
  const outputs = toolOutputs(events);
  const servedBy = locateSubqueries(task.grading.subqueries, outputs);
  const found = servedBy.map((output) => output !== null);
  const subqueries = task.grading.subqueries.map((subquery, index) => ({
    query: subquery.query,
    tool: subquery.tool,
    answer: subquery.answer,
    solved: found[index]!,
    // the trajectory event (its seq) of the tool message that held the golden answer; null when none did
    seq: servedBy[index] === null ? null : outputs[servedBy[index]!]!.seq,
  }));
  const solved = found.every(Boolean);
  const statuses = constraintStatuses(task.constraints, events);
  const summary = violationSummary(task.constraints, events);
  const completed = end?.type === 'episode-end' && end.status === 'completed' && end.finalAnswer !== null;
  const constraints: ConstraintFact[] = task.constraints.map((constraint) => ({
    id: constraint.id,
    category: constraint.category,
    status: statuses[constraint.id] ?? 'satisfied',
  }));
  return cctuEpisodeScore(task, events, {
    found,
    sr: solved && completed && !summary.violationAtLastStep && !summary.validatorError,
    psr: solved && completed && !summary.anyViolation && !summary.validatorError,
    metrics: {
      violations: summary.violations,
      violated_constraints: summary.violatedConstraints,
      corrected_constraints: summary.correctedConstraints,
    },
    validatorError: summary.validatorError,
    details: { structure: task.grading.structure, subqueries, constraints },
  });
}

const percent = (value: number): string => (100 * value).toFixed(1);

/** Mean ± population std of per-repeat rates (fractions, 0..1), as "mean ± std" in percent. */
export function meanStdAsPercent(perRepeat: readonly number[]): string {
  const stats = meanAndStd(perRepeat);
  return stats === null ? '-' : `${percent(stats.mean)} ± ${percent(stats.std)}`;
}

export function rateByRepeat(scores: readonly EpisodeScore[], metric: string): number[] {
  const byRepeat = new Map<number, number[]>();
  for (const score of scores) byRepeat.set(score.repeat, [...(byRepeat.get(score.repeat) ?? []), score.metrics[metric] ?? 0]);
  return [...byRepeat.keys()].sort((a, b) => a - b).map((repeat) => {
    const values = byRepeat.get(repeat) ?? [];
    return values.reduce((sum, value) => sum + value, 0) / Math.max(1, values.length);
  });
}

function factsOf(score: EpisodeScore): ConstraintFact[] {
  return (score.details.constraints as ConstraintFact[] | undefined) ?? [];
}

/** A row of violation counts: constraints, violated (soft-satisfied + unsatisfied), corrected, rates. */
function violationRow(name: string, dimension: string, facts: readonly ConstraintFact[]): Array<string | number> {
  const violated = facts.filter((fact) => fact.status === 'soft-satisfied' || fact.status === 'unsatisfied').length;
  const corrected = facts.filter((fact) => fact.status === 'soft-satisfied').length;
  const errors = facts.filter((fact) => fact.status === 'error').length;
  return [name, dimension, facts.length, violated, percent(violated / Math.max(1, facts.length)), corrected, violated === 0 ? '-' : percent(corrected / violated), errors];
}

/**
 * The tables `sandbox run --suite episodes/cctu` ends with: SR / PSR / solved per structure and overall
 * (mean ± std over repeats), then violation rate per category and per dimension with the correction rate
 * (violated constraints later complied with / violated constraints).
 */
export function summarizeCctu(scores: readonly EpisodeScore[]): SummaryTable[] {
  const groups: Array<[string, EpisodeScore[]]> = STRUCTURES.map((structure) => [structure, scores.filter((score) => score.details.structure === structure)]);
  groups.push(['overall', [...scores]]);
  const repeats = new Set(scores.map((score) => score.repeat)).size;
  const outcome: SummaryTable = {
    title: `CCTU: success rates (%, mean ± std over ${repeats} repeat${repeats === 1 ? '' : 's'})`,
    columns: ['structure', 'episodes', 'solved', 'SR', 'PSR'],
    rows: groups
      .filter(([, group]) => group.length > 0)
      .map(([name, group]) => [name, group.length, meanStdAsPercent(rateByRepeat(group, 'solved')), meanStdAsPercent(rateByRepeat(group, 'sr')), meanStdAsPercent(rateByRepeat(group, 'psr'))]),
  };
  const facts = scores.flatMap(factsOf);
  const categories = [...new Set(facts.map((fact) => fact.category))].sort();
  const dimensionOf = (category: string): string => category.split('.')[0] ?? category;
  const rows = categories.map((category) => violationRow(category, dimensionOf(category), facts.filter((fact) => fact.category === category)));
  for (const dimension of DIMENSIONS) {
    const ofDimension = facts.filter((fact) => dimensionOf(fact.category) === dimension);
    if (ofDimension.length > 0) rows.push(violationRow(`all ${dimension}`, dimension, ofDimension));
  }
  rows.push(violationRow('all constraints', '-', facts));
  const violations: SummaryTable = {
    title: 'CCTU: constraint violations (violation rate = violated / constraints; correction rate = corrected / violated, %)',
    columns: ['category', 'dimension', 'constraints', 'violated', 'violation %', 'corrected', 'correction %', 'errors'],
    rows,
  };
  return [outcome, violations];
}

/** The CCTU style's grader (its style, src/styles/cctu/, names it). */
export const cctuGrader: StyleGrader<CctuTask> = {
  async grade(task, events) {
    return task.protocol === 'cctu-official' ? gradeCctuOfficial(task, events) : gradeCctu(task, events);
  },
  summarize(scores) {
    const official = summarizeCctuOfficial(scores);
    const others = scores.filter((score) => score.details.protocol !== 'cctu-official');
    return [...official, ...(others.length > 0 || official.length === 0 ? summarizeCctu(others) : [])];
  },
};
