import type { CctuTask } from '../schemas/cctu-task.ts';
import type { TrajectoryEvent } from '../schemas/event.ts';
import type { EpisodeScore } from '../schemas/score.ts';

/** What a CCTU grader decided for one episode; `cctuEpisodeScore` turns it into the score both graders report. */
export interface CctuVerdict {
  /** Per subquery (golden answer), whether it was found (`solveSubqueries`). */
  found: readonly boolean[];
  sr: boolean;
  psr: boolean;
  /** Metrics beyond the shared ones (solved, sr, psr, subqueries, subqueries_solved, validator_error). */
  metrics: Record<string, number>;
  validatorError: boolean;
  details: Record<string, unknown>;
}

/** The score of a CCTU episode (either protocol): identity, status and the metrics every CCTU summary reads. */
export function cctuEpisodeScore(task: CctuTask, events: readonly TrajectoryEvent[], verdict: CctuVerdict): EpisodeScore {
  const start = events.find((event) => event.type === 'episode-start');
  const end = events.findLast((event) => event.type === 'episode-end');
  const solved = verdict.found.every(Boolean);
  return {
    taskId: task.id,
    style: task.style,
    repeat: start?.type === 'episode-start' ? start.settings.repeat : 0,
    status: end?.type === 'episode-end' ? end.status : 'error',
    passed: verdict.sr,
    metrics: {
      solved: solved ? 1 : 0,
      sr: verdict.sr ? 1 : 0,
      psr: verdict.psr ? 1 : 0,
      subqueries: verdict.found.length,
      subqueries_solved: verdict.found.filter(Boolean).length,
      ...verdict.metrics,
      validator_error: verdict.validatorError ? 1 : 0,
    },
    details: { ...verdict.details, finalAnswer: end?.type === 'episode-end' ? end.finalAnswer : null },
  };
}
