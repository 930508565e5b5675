import { SandboxError } from '../sandbox-error.ts';
import type { TrajectoryEvent } from '../schemas/event.ts';
import type { EpisodeScore, SummaryTable } from '../schemas/score.ts';
import type { Task, TaskStyle } from '../schemas/task.ts';
import type { GradeOptions, StyleGrader } from './style-grader.ts';

export type { GradeOptions, StyleGrader } from './style-grader.ts';

/** Each style's grader module and the name of its StyleGrader export; loaded lazily (the plan grader pulls in more). */
const GRADER_MODULES: Record<TaskStyle, { file: string; name: string }> = {
  cctu: { file: './cctu.ts', name: 'cctuGrader' },
  ddr: { file: './ddr.ts', name: 'ddrGrader' },
  plan: { file: './plan.ts', name: 'planGrader' },
};

const loaded = new Map<TaskStyle, Promise<StyleGrader>>();

/** The StyleGrader of a style; `not-found` with a clear message when that style has no grader yet. */
export function loadStyleGrader(style: TaskStyle): Promise<StyleGrader> {
  let grader = loaded.get(style);
  if (!grader) {
    grader = importGrader(style);
    loaded.set(style, grader);
    grader.catch(() => loaded.delete(style));
  }
  return grader;
}

async function importGrader(style: TaskStyle): Promise<StyleGrader> {
  const { file, name } = GRADER_MODULES[style];
  const url = new URL(file, import.meta.url);
  let module: Record<string, unknown>;
  try {
    module = (await import(url.href)) as Record<string, unknown>;
  } catch (error) {
    const code = (error as { code?: string }).code;
    if ((code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') && String((error as Error).message).includes(file.slice(2))) {
      throw new SandboxError('not-found', `no grader for style ${style} yet (src/graders/${file.slice(2)} is missing)`, { cause: error });
    }
    throw error;
  }
  const grader = module[name] as StyleGrader | undefined;
  if (!grader || typeof grader.grade !== 'function') {
    throw new SandboxError('not-found', `no grader for style ${style} yet (src/graders/${file.slice(2)} does not export ${name})`);
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
  const verdicts = revalidate(task.constraints, [...(start?.tools ?? [])], steps);
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
  for (const style of Object.keys(GRADER_MODULES) as TaskStyle[]) {
    const ofStyle = scores.filter((score) => score.style === style);
    if (ofStyle.length === 0) continue;
    tables.push(...(await loadStyleGrader(style)).summarize(ofStyle));
  }
  return tables;
}
