import type { Model } from '../models/model.ts';
import type { TrajectoryEvent } from '../schemas/event.ts';
import type { EpisodeScore, SummaryTable } from '../schemas/score.ts';
import type { Task } from '../schemas/task.ts';

export interface GradeOptions {
  /** An LLM judge; judge-only metrics are `null` (not judged) without one. */
  judge?: Model;
}

/** One style's grader: trajectory in, score out; and the summary of many scores (mean ± std over repeats). */
export interface StyleGrader<T extends Task = Task> {
  grade(task: T, events: readonly TrajectoryEvent[], options: GradeOptions): Promise<EpisodeScore>;
  summarize(scores: readonly EpisodeScore[]): SummaryTable[];
}
