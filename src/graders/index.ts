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

/**
 * Scores one episode from its task and trajectory alone, with its style's grader. A score never depends on whether
 * the validator ran live: when it did not (`--enforcement off`, or a trajectory without any constraint check), the
 * trajectory is re-validated first (see withConstraintChecks).
 */
export async function gradeEpisode(task: Task, events: readonly TrajectoryEvent[], options: GradeOptions = {}): Promise<EpisodeScore> {
  const grader = await loadStyleGrader(task.style);
  return grader.grade(task, await withConstraintChecks(task, events), options);
}

/**
 * The trajectory with its constraint checks: as recorded when the validator ran live; otherwise (enforcement `off`,
 * or no `constraint-check` event at all) every step is re-validated under the task's constraints, in a fresh
 * context, and its check is placed after the model response it judges, recorded as `observe` (verdicts that were
 * not applied) — `off` changes what the agent experienced, never what the score means.
 */
export async function withConstraintChecks(task: Task, events: readonly TrajectoryEvent[]): Promise<readonly TrajectoryEvent[]> {
  if (task.constraints.length === 0) return events;
  const start = events.find((event) => event.type === 'episode-start');
  const live = start?.settings.enforcement !== 'off' && events.some((event) => event.type === 'constraint-check');
  if (live) return events;
  // Loaded only here: isolated-vm is not needed to grade a trajectory whose checks were recorded.
  const { revalidate, stepsFromEvents } = await import('../validator/index.ts');
  const steps = stepsFromEvents(events);
  if (steps.length === 0) return events;
  const verdicts = revalidate(task.constraints, [...(start?.tools ?? [])], steps, { memoryLimitMb: task.limits.validatorMemoryMb });
  const result: TrajectoryEvent[] = [];
  let step = 0;
  for (const event of events) {
    if (event.type === 'constraint-check') continue;
    result.push(event);
    if (event.type === 'model-response') {
      result.push({ schemaVersion: event.schemaVersion, seq: event.seq, time: event.time, type: 'constraint-check', step: steps[step]!, verdicts: verdicts[step]!, enforcement: 'observe', durationMs: 0 });
      step += 1;
    }
  }
  return result;
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
