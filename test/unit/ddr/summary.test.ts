import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import baseline from '../../../episodes/ddr-generator/explorer-baseline.json' with { type: 'json' };
import { summarizeDdr } from '../../../src/graders/ddr.ts';
import { explorerBaseline } from '../../../src/graders/explorer-baseline.ts';
import type { EpisodeScore } from '../../../src/schemas/score.ts';

const score = (scenario: string, correct: number, items: number, countingK: Array<number | null>): EpisodeScore => ({
  taskId: `${scenario}-${correct}`,
  style: 'ddr',
  repeat: 0,
  status: 'completed',
  passed: correct === items,
  metrics: { accuracy: correct / items, correct, items, judge_accuracy: null, table_coverage: 0.5, column_coverage: 0.25, entropy: 0.5, turns: 10, ended_by_itself: 1 },
  details: { scenario, countingK },
});

describe('DDR summary', () => {
  it('reports mean, median and pooled accuracy per scenario, "not judged" without a judge, the explorer beside, and the top-k curve', () => {
    const scores = [score('clinical', 1, 4, [3, null, null, null]), score('clinical', 6, 6, [1, 2, 2, 5, 9, 30]), score('filings', 0, 5, [null, null, null, null, null])];
    const [table, curve] = summarizeDdr(scores, { scenarios: { clinical: { episodes: 2, accuracyMean: 0.5, accuracyPooled: 0.5 } } });
    expect(table!.columns).toEqual(['scenario', 'episodes', 'acc mean', 'acc median', 'acc pooled', 'judge acc', 'table cov', 'column cov', 'entropy', 'turns', 'ended itself', 'explorer acc']);
    expect(table!.rows[0]).toEqual(['clinical', 2, 62.5, 62.5, 70, 'not judged', 50, 25, 0.5, 10, 100, 50]);
    expect(table!.rows[1]![0]).toBe('filings');
    expect(table!.rows[1]!.at(-1)).toBe('none');
    expect(table!.rows[2]!.slice(0, 5)).toEqual(['all', 3, 41.7, 25, 46.7]);
    // clinical: 10 items; counted by k=1: 1, k=2: 3, k=5: 5, k=10: 6, k=30: 7.
    expect(curve!.rows[0]).toEqual(['clinical', 10, 30, 50, 60, 60, 70, 70, 70]);
  });

  it('has a recorded explorer baseline for every scenario of episodes/ddr, over the same number of tasks', async () => {
    const dir = path.resolve(import.meta.dirname, '../../../episodes/ddr');
    const counts: Record<string, number> = {};
    for (const file of (await readdir(dir)).filter((name) => name.endsWith('.json'))) {
      const task = JSON.parse(await readFile(path.join(dir, file), 'utf8')) as { grading: { scenario: string } };
      counts[task.grading.scenario] = (counts[task.grading.scenario] ?? 0) + 1;
    }
    for (const [scenario, episodes] of Object.entries(counts)) expect(baseline.scenarios[scenario as keyof typeof baseline.scenarios]?.episodes, scenario).toBe(episodes);
    expect(explorerBaseline([score('a', 1, 2, []), score('b', 2, 2, [])]).scenarios).toEqual({
      a: { episodes: 1, accuracyMean: 0.5, accuracyPooled: 0.5 },
      b: { episodes: 1, accuracyMean: 1, accuracyPooled: 1 },
      all: { episodes: 2, accuracyMean: 0.75, accuracyPooled: 0.75 },
    });
  });
});
