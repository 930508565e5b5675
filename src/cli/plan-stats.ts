import type { PlanTask } from '../schemas/plan-task.ts';
import { formatTable } from './format-table.ts';
import { promptSimilarity } from '../planning/prompt-similarity.ts';
import { planSkeleton } from '../planning/plan-skeleton.ts';

/** The shape the planning paper reports: compound questions take 5–15 steps, simple ones 1–4. */
export const PAPER_PLAN_SHAPE: Record<'simple' | 'compound', { steps: [number, number] }> = { simple: { steps: [1, 4] }, compound: { steps: [5, 15] } };

/** One stratum's reference-plan shape: step and hop counts as value → number of tasks, beside the paper's range. */
export interface PlanStratumStats {
  stratum: string;
  tasks: number;
  steps: Record<number, number>;
  paperSteps: [number, number];
  outsidePaper: number;
  hops: Record<number, number>;
  /** Tasks whose plan has at least two data steps fed by earlier data steps. */
  chainedDataSteps: number;
  /** Distinct analysis skeletons of the reference plans (`planSkeleton`: head analysis, each step's tool, shape and dependencies). */
  skeletons: number;
}

/**
 * How varied a suite's compound plans are, read from the reference plans (`planSkeleton`): their number and step range,
 * distinct skeletons, head analyses (first steps) and tool shapes (tools and dependencies); and the two questions of
 * the whole suite most alike (trigram cosine, the step matcher's similarity).
 */
export interface PlanSuiteVariety {
  compound: number;
  steps: [number, number] | null;
  skeletons: number;
  heads: number;
  toolShapes: number;
  nearest: { left: string; right: string; similarity: number } | null;
}

/** The suite's variety; every pair of questions is compared. */
export function planVariety(tasks: readonly PlanTask[]): PlanSuiteVariety {
  let nearest: PlanSuiteVariety['nearest'] = null;
  for (const [index, left] of tasks.entries()) {
    for (const right of tasks.slice(index + 1)) {
      const similarity = promptSimilarity(left.query, right.query);
      if (!nearest || similarity > nearest.similarity) nearest = { left: left.id, right: right.id, similarity: Number(similarity.toFixed(4)) };
    }
  }
  const compound = tasks.filter((task) => task.grading.shape === 'compound');
  const skeletons = compound.map((task) => planSkeleton(task.reference.plan));
  const steps = compound.map((task) => task.reference.plan.steps.length);
  return {
    compound: compound.length,
    steps: steps.length > 0 ? [Math.min(...steps), Math.max(...steps)] : null,
    skeletons: new Set(skeletons.map((skeleton) => skeleton.key)).size,
    heads: new Set(skeletons.map((skeleton) => skeleton.head)).size,
    toolShapes: new Set(skeletons.map((skeleton) => skeleton.tools)).size,
    nearest,
  };
}

const histogram = (values: number[]): Record<number, number> => {
  const counts: Record<number, number> = {};
  for (const value of [...values].sort((a, b) => a - b)) counts[value] = (counts[value] ?? 0) + 1;
  return counts;
};
const show = (counts: Record<number, number>): string => Object.entries(counts).map(([value, count]) => `${value}:${count}`).join(' ');

/** `tasks --stats` for plan tasks: per stratum, the step-count and hop-count distributions beside the paper's range. */
export function planStats(tasks: readonly PlanTask[]): PlanStratumStats[] {
  const strata = new Map<string, PlanTask[]>();
  for (const task of tasks) {
    const key = `${task.grading.kind}-${task.grading.shape}`;
    strata.set(key, [...(strata.get(key) ?? []), task]);
  }
  return [...strata].sort(([a], [b]) => a.localeCompare(b)).map(([stratum, members]) => {
    const steps = members.map((task) => task.reference.plan.steps.length);
    const paperSteps = PAPER_PLAN_SHAPE[members[0]!.grading.shape].steps;
    const chainedDataSteps = members.filter((task) => task.reference.plan.steps.filter((step) => step.tool !== 'LLM' && step.depends_on.some((id) => task.reference.plan.steps.find((other) => other.id === id)?.tool !== 'LLM')).length >= 2).length;
    return {
      stratum,
      tasks: members.length,
      steps: histogram(steps),
      paperSteps,
      outsidePaper: steps.filter((count) => count < paperSteps[0] || count > paperSteps[1]).length,
      hops: histogram(members.map((task) => Number(task.metadata.hops))),
      chainedDataSteps,
      skeletons: new Set(members.map((task) => planSkeleton(task.reference.plan).key)).size,
    };
  });
}

/** The same as a table. */
export function planStatsTable(tasks: readonly PlanTask[]): string {
  const table = formatTable({
    title: 'plan tasks: reference-plan shape (steps and hops as value:count)',
    columns: ['stratum', 'tasks', 'steps', 'paper steps', 'outside paper', 'hops', '≥2 chained data steps', 'analysis skeletons'],
    rows: planStats(tasks).map((row) => [row.stratum, row.tasks, show(row.steps), `${row.paperSteps[0]}–${row.paperSteps[1]}`, row.outsidePaper, show(row.hops), row.chainedDataSteps, row.skeletons]),
  });
  const variety = planVariety(tasks);
  const nearest = variety.nearest ? `nearest questions ${variety.nearest.left} ~ ${variety.nearest.right}: trigram cosine ${variety.nearest.similarity.toFixed(4)}` : 'fewer than two questions';
  const compound = variety.steps
    ? `${variety.compound} compound plans of ${variety.steps[0]}–${variety.steps[1]} steps: ${variety.skeletons} analysis skeletons, ${variety.heads} head analyses, ${variety.toolShapes} tool shapes`
    : 'no compound plans';
  return `${table}\n${compound}; ${nearest}`;
}
