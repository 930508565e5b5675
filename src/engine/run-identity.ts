import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { readFile, readdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { SandboxError } from '../sandbox-error.ts';
import type { RunSettings } from '../schemas/event.ts';
import { EnforcementSchema } from '../schemas/step.ts';
import type { Task } from '../schemas/task.ts';
import { checkWithSchema, parseJson } from '../schemas/json-with-schema.ts';
import { isTrajectoryName } from '../schemas/run-folder.ts';

/**
 * The identity of a run folder: what must be the same for two invocations of `sandbox run` to add episodes to
 * one run. A run folder is one experiment; resuming it with another model, judge, text-to-SQL model, enforcement, repeats or
 * seed would mix trajectories that do not belong together under one name, so that is refused.
 * Per task, the sha-256 of the task file's content: a changed task file re-runs that task's episodes.
 */
export const RunIdentitySchema = z.object({
  /** The `--model` spec that produced every trajectory of the folder. */
  model: z.string(),
  /** The `--judge` spec, or null without one. */
  judge: z.string().nullable(),
  enforcement: EnforcementSchema,
  /** Plan tasks: accepted plans were executed. */
  execute: z.boolean(),
  /** With `execute`: the `--t2s-model` spec that wrote the T2S steps' SQL, or null for the offline text-to-SQL (a run.json from before it was recorded reads as null). */
  t2sModel: z.string().nullable().default(null),
  /** The `--user-model` spec that played the user's side (service episodes' customer), or null without one (a run.json from before it was recorded reads as null). */
  userModel: z.string().nullable().default(null),
  seed: z.number().int(),
  temperature: z.number().nullable(),
  repeats: z.number().int().positive(),
});
export type RunIdentity = z.infer<typeof RunIdentitySchema>;

/** One task of a run: its file (as recorded in trajectories) and the sha-256 of the file's content. */
export const RunTaskSchema = z.object({ path: z.string().nullable(), sha256: z.string() });

export const RUN_FORMAT = 1;

/**
 * `run.json`, written before the first episode starts and again when the run ends (documented in README.md, "Run
 * folders"). `tasks` holds every task with trajectories in the folder (a later invocation with another selection
 * adds to it); `finishedAt` and `episodes` are present once an invocation has ended.
 */
export const RunFileSchema = z
  .object({
    format: z.literal(RUN_FORMAT),
    name: z.string(),
    suite: z.string().nullable(),
    identity: RunIdentitySchema,
    tasks: z.record(z.string(), RunTaskSchema),
    concurrency: z.number().int().positive(),
    versions: z.record(z.string(), z.string()),
    startedAt: z.string(),
    finishedAt: z.string().optional(),
    episodes: z.number().int().nonnegative().optional(),
  })
  .loose();
export type RunFile = z.infer<typeof RunFileSchema>;

export const RUN_FILE = 'run.json';

/** The identity a run asks for, from what `runSuite` is given (absent settings take their RunSettings defaults). */
export function identityOf(run: { modelSpec: string; judgeSpec?: string | null; t2sModelSpec?: string | null; userModelSpec?: string | null; repeats?: number; settings?: Partial<RunSettings> }): RunIdentity {
  const settings = run.settings ?? {};
  return {
    model: run.modelSpec,
    judge: run.judgeSpec ?? null,
    enforcement: settings.enforcement ?? 'block',
    execute: settings.execute ?? false,
    t2sModel: run.t2sModelSpec ?? null,
    userModel: run.userModelSpec ?? null,
    seed: settings.seed ?? 0,
    temperature: settings.temperature ?? null,
    repeats: run.repeats ?? 1,
  };
}

/** The sha-256 (hex) of a task: of its file's content when it has a readable file, else of its JSON. */
export function taskSha256(task: Task, file?: string): string {
  let content: string | Buffer | undefined;
  if (file !== undefined) {
    try {
      content = readFileSync(file);
    } catch {
      // a task given in memory (tests, the gateway): hash what it is
    }
  }
  return createHash('sha256').update(content ?? JSON.stringify(task)).digest('hex');
}

/** What differs between a folder's identity and the one asked for, as `field recorded → asked` parts; empty when none. */
export function identityDifferences(recorded: RunIdentity, wanted: RunIdentity): string[] {
  const show = (value: unknown) => (value === null ? 'none' : String(value));
  return (Object.keys(RunIdentitySchema.shape) as Array<keyof RunIdentity>)
    .filter((key) => recorded[key] !== wanted[key])
    .map((key) => `${key} ${show(recorded[key])} → ${show(wanted[key])}`);
}

/**
 * Reads a folder's run.json: null when the folder holds no run yet (no run.json and no trajectory). A folder with
 * trajectories but no readable identity (an older sandbox, or files put there by hand) is refused: nobody can say
 * which model produced them.
 */
export async function readRunFile(outDir: string, shown: string): Promise<RunFile | null> {
  const file = path.join(outDir, RUN_FILE);
  if (!existsSync(file)) {
    const trajectories = existsSync(outDir) ? (await readdir(outDir)).filter(isTrajectoryName) : [];
    if (trajectories.length === 0) return null;
    throw new SandboxError('invalid-input', `${shown} holds ${trajectories.length} trajectories but no run.json saying which run made them: give --out <another dir>, or --fresh to start it over`);
  }
  const where = path.join(shown, RUN_FILE);
  const json = parseJson(await readFile(file, 'utf8'), where, { hint: 'give --out <another dir>, or --fresh to start it over' });
  return checkWithSchema(json, RunFileSchema, where, { hint: 'not a run identity this sandbox reads; give --out <another dir>, or --fresh to start it over' });
}

/** Refuses (one line, `invalid-input`) to add to a folder whose recorded identity differs from the one asked for. */
export function checkIdentity(recorded: RunFile | null, wanted: RunIdentity, shown: string): void {
  if (!recorded) return;
  const differences = identityDifferences(recorded.identity, wanted);
  if (differences.length === 0) return;
  throw new SandboxError('invalid-input', `${shown} holds another run (${differences.join('; ')}): give --out <another dir>, or --fresh to start it over`);
}

/** Writes run.json whole or not at all (a temporary file renamed over it). */
export async function writeRunFile(outDir: string, run: RunFile): Promise<void> {
  const file = path.join(outDir, RUN_FILE);
  const temporary = `${file}.${process.pid}.tmp`;
  await writeFile(temporary, `${JSON.stringify(run, null, 2)}\n`);
  await rename(temporary, file);
}
