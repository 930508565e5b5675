import { describe, expect, it } from 'vitest';
import { compareRuns } from '../../../src/graders/compare-runs.ts';
import type { EpisodeScore } from '../../../src/schemas/score.ts';

const score = (taskId: string, sr: number, violations: number): EpisodeScore => ({
  taskId,
  style: 'cctu',
  repeat: 0,
  status: 'completed',
  passed: sr === 1,
  metrics: { sr, violations },
  details: {},
});

describe('compareRuns', () => {
  it('pairs episodes by task and repeat and reports block − observe as the self-refinement gain', () => {
    const table = compareRuns(
      { label: 'block', enforcement: 'block', scores: [score('a', 1, 1), score('b', 1, 0), score('only-here', 0, 5)] },
      { label: 'observe', enforcement: 'observe', scores: [score('a', 0, 2), score('b', 1, 0)] },
    );
    expect(table.title).toBe('self-refinement gain of feedback: block (block) − observe (observe), paired over 2 episodes');
    expect(table.columns).toEqual(['metric', 'block', 'observe', 'gain', 'episodes']);
    expect(table.rows).toEqual([
      ['passed', '1.000', '0.500', '+0.500', 2],
      ['sr', '1.000', '0.500', '+0.500', 2],
      ['violations', '0.500', '1.000', '-0.500', 2],
    ]);
  });

  it('calls it a plain difference when the runs are not block against observe', () => {
    const table = compareRuns({ label: 'x', enforcement: 'block', scores: [score('a', 1, 0)] }, { label: 'y', enforcement: 'block', scores: [score('a', 0, 0)] });
    expect(table.title).toBe('x (block) − y (block), paired over 1 episodes');
    expect(table.columns[3]).toBe('difference');
  });
});
