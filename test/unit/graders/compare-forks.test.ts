import { describe, expect, it } from 'vitest';
import { forkOutcomeTable, pairForks, type GradedTrajectory } from '../../../src/graders/compare-forks.ts';
import type { Fork } from '../../../src/schemas/event.ts';
import type { EpisodeScore } from '../../../src/schemas/score.ts';

const score = (taskId: string, passed: boolean): EpisodeScore => ({ taskId, style: 'cctu', repeat: 0, status: 'completed', passed, metrics: {}, details: {} });
const forkOf = (sha256: string, at: number): Fork => ({
  parent: { path: 'p.jsonl', sha256, taskId: 't', repeat: 0, model: 'reference', enforcement: 'block', run: null },
  at,
  ancestors: [],
});
const trajectory = (file: string, sha256: string, passed: boolean, fork?: Fork): GradedTrajectory => ({ file, sha256, fork, score: score('t', passed) });

describe('pairForks', () => {
  // Every trajectory here is of the same task and repeat: only the parent's content hash can tell which is whose parent.
  const root = trajectory('root.jsonl', 'aaa', false);
  const other = trajectory('other.jsonl', 'bbb', true);
  const recovered = trajectory('f1.jsonl', 'ccc', true, forkOf('aaa', 2));
  const regressed = trajectory('f2.jsonl', 'ddd', false, forkOf('bbb', 1));
  const orphan = trajectory('f3.jsonl', 'eee', true, forkOf('zzz', 1));

  it('pairs each fork with the trajectory whose content hash its header names, not by task id', () => {
    const { pairs, unpaired } = pairForks([recovered, regressed, orphan, other], [other, root]);
    expect(pairs.map((pair) => [pair.fork.file, pair.parent.file, pair.change])).toEqual([
      ['f1.jsonl', 'root.jsonl', 'recovered'],
      ['f2.jsonl', 'other.jsonl', 'regressed'],
    ]);
    expect(unpaired.map((fork) => fork.file)).toEqual(['f3.jsonl']);
  });

  it('a pair whose outcome did not change says whether both passed', () => {
    const still = pairForks([trajectory('f.jsonl', 'fff', true, forkOf('bbb', 3)), trajectory('g.jsonl', 'ggg', false, forkOf('aaa', 3))], [root, other]);
    expect(still.pairs.map((pair) => pair.change)).toEqual(['still passed', 'still not passed']);
    const table = forkOutcomeTable(still.pairs, (file) => file);
    expect(table.title).toBe('forks against their parents (1 still passed, 1 still not passed)');
    expect(table.rows[0]).toEqual(['f.jsonl', 'other.jsonl', 3, 'passed (completed)', 'passed (completed)', 'still passed']);
  });
});
