import { EFFECT_THRESHOLDS } from '../../episodes/ddr-generator/effect-size.ts';
import { EFFECT_KINDS, type EffectKind } from '../schemas/checklist.ts';
import type { DdrTask } from '../schemas/ddr-task.ts';
import { formatTable } from './format-table.ts';

/** One kind of candidate fact in a DDR suite: how many items and tasks ask it, and its effect sizes (effect-size.ts). */
export interface EffectKindStats {
  kind: EffectKind;
  /** Checklist items asked for this kind (a trend's change and direction are two). */
  items: number;
  tasks: number;
  min: number;
  median: number;
  max: number;
  /** The smallest size asked (the kind's threshold). */
  threshold: number;
}

const median = (sorted: readonly number[]) => (sorted.length % 2 === 1 ? sorted[(sorted.length - 1) / 2]! : (sorted[sorted.length / 2 - 1]! + sorted[sorted.length / 2]!) / 2);

/** `tasks --stats` for DDR tasks: per effect kind, its items, tasks and effect sizes; kinds no item has are left out. */
export function effectStats(tasks: readonly DdrTask[]): EffectKindStats[] {
  return EFFECT_KINDS.flatMap((kind) => {
    const asking = tasks.map((task) => task.grading.checklist.flatMap((item) => (item.effect?.kind === kind ? [item.effect.size] : [])));
    const sizes = asking.flat().sort((a, b) => a - b);
    if (sizes.length === 0) return [];
    return [{ kind, items: sizes.length, tasks: asking.filter((found) => found.length > 0).length, min: sizes[0]!, median: Number(median(sizes).toFixed(4)), max: sizes.at(-1)!, threshold: EFFECT_THRESHOLDS[kind] }];
  });
}

export function effectStatsTable(stats: readonly EffectKindStats[], tasks: number): string {
  return formatTable({
    title: `checklist items chosen by effect size, ${tasks} DDR tasks (sizes: effect-size.ts)`,
    columns: ['kind', 'items', 'tasks', 'min size', 'median size', 'max size', 'threshold'],
    rows: stats.map((row) => [row.kind, row.items, row.tasks, row.min, row.median, row.max, row.threshold]),
  });
}
