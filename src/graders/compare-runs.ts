import type { EpisodeScore, SummaryTable } from '../schemas/score.ts';
import type { Enforcement } from '../schemas/step.ts';

/** The scores of one run, with the enforcement its episodes were played under (`mixed` when they differ). */
export interface ScoredRun {
  label: string;
  enforcement: Enforcement | 'mixed' | 'unknown';
  scores: readonly EpisodeScore[];
}

const key = (score: EpisodeScore) => `${score.taskId}#${score.repeat}`;
const mean = (values: readonly number[]) => (values.length === 0 ? Number.NaN : values.reduce((sum, value) => sum + value, 0) / values.length);

/**
 * Compares two runs episode by episode (paired on task and repeat, so a resumed or partial run compares fairly):
 * the mean of every metric both report, in each run, and the difference. When one run was played under `block`
 * and the other under `observe`, the difference is the self-refinement gain of feedback: what blocking a
 * violation and saying why changed, against the model's unassisted behaviour.
 */
export function compareRuns(run: ScoredRun, baseline: ScoredRun): SummaryTable {
  const baselineByKey = new Map(baseline.scores.map((score) => [key(score), score]));
  const pairs = run.scores.flatMap((score) => {
    const other = baselineByKey.get(key(score));
    return other ? [[score, other] as const] : [];
  });
  return comparePairs(run, baseline, pairs);
}

/**
 * The mean of every metric both episodes of a pair report, on each side, and the difference (run − baseline), over
 * given pairs: episodes paired by task and repeat (compareRuns), or forks paired with their parents (compare-forks.ts).
 */
export function comparePairs(run: Omit<ScoredRun, 'scores'>, baseline: Omit<ScoredRun, 'scores'>, pairs: ReadonlyArray<readonly [EpisodeScore, EpisodeScore]>): SummaryTable {
  const metricNames = [...new Set(pairs.flatMap(([score, other]) => Object.keys(score.metrics).filter((name) => name in other.metrics)))];
  const rows: Array<Array<string | number>> = [];
  const row = (name: string, values: Array<readonly [number | null | undefined, number | null | undefined]>) => {
    const usable = values.filter((pair): pair is readonly [number, number] => typeof pair[0] === 'number' && typeof pair[1] === 'number');
    if (usable.length === 0) return;
    const left = mean(usable.map((pair) => pair[0]));
    const right = mean(usable.map((pair) => pair[1]));
    rows.push([name, left.toFixed(3), right.toFixed(3), `${left - right >= 0 ? '+' : ''}${(left - right).toFixed(3)}`, usable.length]);
  };
  row('passed', pairs.map(([score, other]) => [score.passed ? 1 : 0, other.passed ? 1 : 0] as const));
  for (const name of metricNames) row(name, pairs.map(([score, other]) => [score.metrics[name], other.metrics[name]] as const));
  const gain = run.enforcement === 'block' && baseline.enforcement === 'observe';
  return {
    title: gain
      ? `self-refinement gain of feedback: ${run.label} (block) − ${baseline.label} (observe), paired over ${pairs.length} episodes`
      : `${run.label} (${run.enforcement}) − ${baseline.label} (${baseline.enforcement}), paired over ${pairs.length} episodes`,
    columns: ['metric', run.label, baseline.label, gain ? 'gain' : 'difference', 'episodes'],
    rows,
  };
}
