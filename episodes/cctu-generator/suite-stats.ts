import type { CctuTask } from '../../src/schemas/cctu-task.ts';

/** How a generated suite compares with CCTU's mix: tasks per structure, constraint kinds per task, cases per category. */
export interface SuiteStats {
  tasks: number;
  perStructure: Record<string, number>;
  constraintTypes: { min: number; max: number; mean: number };
  casesPerCategory: Record<string, number>;
  toolsPerTask: number;
}

/** Counts a suite's structures and constraint categories (printed by the generator, checked by tests). */
export function suiteStats(tasks: readonly CctuTask[]): SuiteStats {
  const perStructure: Record<string, number> = {};
  const casesPerCategory: Record<string, number> = {};
  const types = tasks.map((task) => new Set(task.constraints.map((constraint) => constraint.category)).size);
  for (const task of tasks) {
    perStructure[task.grading.structure] = (perStructure[task.grading.structure] ?? 0) + 1;
    for (const category of new Set(task.constraints.map((constraint) => constraint.category))) casesPerCategory[category] = (casesPerCategory[category] ?? 0) + 1;
  }
  return {
    tasks: tasks.length,
    perStructure,
    constraintTypes: { min: Math.min(...types), max: Math.max(...types), mean: types.reduce((sum, value) => sum + value, 0) / Math.max(1, types.length) },
    casesPerCategory,
    toolsPerTask: tasks.reduce((sum, task) => sum + task.tools.length, 0) / Math.max(1, tasks.length),
  };
}
