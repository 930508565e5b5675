import { withConstraintChecks, type GradeOptions } from '../graders/index.ts';
import type { TrajectoryEvent } from '../schemas/event.ts';
import type { EpisodeScore, SummaryTable } from '../schemas/score.ts';
import type { Task } from '../schemas/task.ts';
import { STYLES, styleGrader } from './registry.ts';

/**
 * Scores one episode from its task and trajectory alone, with its style's grader. A score never depends on whether
 * the validator ran live: when it did not (`--enforcement off`, or a trajectory without any constraint check), the
 * trajectory is re-validated first (see withConstraintChecks).
 */
export async function gradeEpisode(task: Task, events: readonly TrajectoryEvent[], options: GradeOptions = {}): Promise<EpisodeScore> {
  const grader = await styleGrader(task.style);
  return grader.grade(task, await withConstraintChecks(task, events), options);
}

/** Each style's summary tables over many scores (every score counted once; styles in the registry's order). */
export async function summarizeScores(scores: readonly EpisodeScore[]): Promise<SummaryTable[]> {
  const tables: SummaryTable[] = [];
  for (const style of STYLES) {
    const ofStyle = scores.filter((score) => score.style === style.name);
    if (ofStyle.length === 0) continue;
    tables.push(...(await styleGrader(style.name)).summarize(ofStyle));
  }
  return tables;
}
