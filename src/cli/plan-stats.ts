import type { PlanTask } from '../schemas/plan-task.ts';
import { formatTable } from './format-table.ts';

/** The shape the planning paper reports: compound questions take 5–15 steps, simple ones 1–4. */
export const PAPER_PLAN_SHAPE: Record<'simple' | 'compound', { steps: [number, number] }> = { simple: { steps: [1, 4] }, compound: { steps: [5, 15] } };

const histogram = (values: number[]): string => {
  const counts = new Map<number, number>();
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
  return [...counts].sort(([a], [b]) => a - b).map(([value, count]) => `${value}:${count}`).join(' ');
};

/** `tasks --stats` for plan tasks: per stratum, the step-count and hop-count distributions beside the paper's range. */
export function planStatsTable(tasks: readonly PlanTask[]): string {
  const strata = new Map<string, PlanTask[]>();
  for (const task of tasks) {
    const key = `${task.grading.kind}-${task.grading.shape}`;
    strata.set(key, [...(strata.get(key) ?? []), task]);
  }
  const rows = [...strata].sort(([a], [b]) => a.localeCompare(b)).map(([key, members]) => {
    const steps = members.map((task) => task.reference.plan.steps.length);
    const [low, high] = PAPER_PLAN_SHAPE[members[0]!.grading.shape].steps;
    const outside = steps.filter((count) => count < low || count > high).length;
    const fed = members.filter((task) => task.reference.plan.steps.filter((step) => step.tool !== 'LLM' && step.depends_on.some((id) => task.reference.plan.steps.find((other) => other.id === id)?.tool !== 'LLM')).length >= 2).length;
    return [key, members.length, histogram(steps), `${low}–${high}`, outside, histogram(members.map((task) => Number(task.metadata.hops))), fed];
  });
  return formatTable({
    title: 'plan tasks: reference-plan shape (steps and hops as value:count)',
    columns: ['stratum', 'tasks', 'steps', 'paper steps', 'outside paper', 'hops', '≥2 chained data steps'],
    rows,
  });
}
