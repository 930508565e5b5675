import type { TrajectoryEvent } from '../schemas/event.ts';
import type { EpisodeScore, SummaryTable } from '../schemas/score.ts';
import type { Task, TaskStyle } from '../schemas/task.ts';
import type { GradeOptions, StyleGrader } from './style-grader.ts';

export type { GradeOptions, StyleGrader } from './style-grader.ts';

/**
 * Each style's grader, loaded lazily through a typed thunk (the plan grader pulls in more); a style without a grader
 * fails to type-check here instead of at run time.
 */
const GRADERS: Record<TaskStyle, () => Promise<StyleGrader>> = {
  cctu: async () => (await import('./cctu.ts')).cctuGrader as StyleGrader,
  ddr: async () => (await import('./ddr.ts')).ddrGrader as StyleGrader,
  plan: async () => (await import('./plan.ts')).planGrader as StyleGrader,
};

const loaded = new Map<TaskStyle, Promise<StyleGrader>>();

/** The StyleGrader of a style (loaded once). */
export function loadStyleGrader(style: TaskStyle): Promise<StyleGrader> {
  let grader = loaded.get(style);
  if (!grader) {
    grader = GRADERS[style]();
    loaded.set(style, grader);
    grader.catch(() => loaded.delete(style));
  }
  return grader;
}

/** Scores one episode from its task and trajectory alone, with its style's grader. */
export async function gradeEpisode(task: Task, events: readonly TrajectoryEvent[], options: GradeOptions = {}): Promise<EpisodeScore> {
  const grader = await loadStyleGrader(task.style);
  return grader.grade(task, events, options);
}

/** Each style's summary tables over many scores (every score counted once; styles in a fixed order). */
export async function summarizeScores(scores: readonly EpisodeScore[]): Promise<SummaryTable[]> {
  const tables: SummaryTable[] = [];
  for (const style of Object.keys(GRADERS) as TaskStyle[]) {
    const ofStyle = scores.filter((score) => score.style === style);
    if (ofStyle.length === 0) continue;
    tables.push(...(await loadStyleGrader(style)).summarize(ofStyle));
  }
  return tables;
}
