import type { Fork } from '../schemas/event.ts';
import type { EpisodeScore, SummaryTable } from '../schemas/score.ts';

/** A graded trajectory with what pairing needs: its file, the sha-256 of its content, and its fork header if it is a fork. */
export interface GradedTrajectory {
  file: string;
  sha256: string;
  fork?: Fork | undefined;
  score: EpisodeScore;
}

/** How a fork's outcome compares with its parent's (the headline `passed`: SR for cctu). */
export type OutcomeChange = 'recovered' | 'regressed' | 'still passed' | 'still not passed';

export interface ForkPair {
  parent: GradedTrajectory;
  fork: GradedTrajectory;
  change: OutcomeChange;
}

function changeOf(parent: EpisodeScore, fork: EpisodeScore): OutcomeChange {
  if (parent.passed === fork.passed) return parent.passed ? 'still passed' : 'still not passed';
  return fork.passed ? 'recovered' : 'regressed';
}

/**
 * Pairs each fork with its parent: the trajectory whose content has the sha-256 the fork's header records (the parent
 * as it was when forked: not the task id, which many episodes share, nor the file name, which another run reuses).
 * A fork whose parent is not among `parents` is returned in `unpaired`.
 */
export function pairForks(forks: readonly GradedTrajectory[], parents: readonly GradedTrajectory[]): { pairs: ForkPair[]; unpaired: GradedTrajectory[] } {
  const bySha = new Map(parents.map((parent) => [parent.sha256, parent]));
  const pairs: ForkPair[] = [];
  const unpaired: GradedTrajectory[] = [];
  for (const fork of forks) {
    if (!fork.fork) continue;
    const parent = bySha.get(fork.fork.parent.sha256);
    if (parent) pairs.push({ parent, fork, change: changeOf(parent.score, fork.score) });
    else unpaired.push(fork);
  }
  return { pairs, unpaired };
}

const outcome = (score: EpisodeScore) => `${score.passed ? 'passed' : 'not passed'} (${score.status})`;

/** One row per fork: its parent, the branch point, both outcomes and the change, then the count of each change. */
export function forkOutcomeTable(pairs: readonly ForkPair[], name: (file: string) => string): SummaryTable {
  const counts = new Map<OutcomeChange, number>();
  for (const pair of pairs) counts.set(pair.change, (counts.get(pair.change) ?? 0) + 1);
  return {
    title: `forks against their parents (${[...counts].map(([change, count]) => `${count} ${change}`).join(', ')})`,
    columns: ['fork', 'parent', 'at', 'parent outcome', 'fork outcome', 'change'],
    rows: pairs.map((pair) => [name(pair.fork.file), name(pair.parent.file), pair.fork.fork!.at, outcome(pair.parent.score), outcome(pair.fork.score), pair.change]),
  };
}
