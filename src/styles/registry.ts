import { z } from 'zod';
import type { StyleGrader } from '../graders/style-grader.ts';
import { SandboxError } from '../sandbox-error.ts';
import type { Task } from '../schemas/task.ts';
import type { EpisodeStyle } from './style.ts';

/**
 * Every episode style, one line each (AGENTS.md, "Add an episode style"): the engine, the CLI, the results store,
 * the viewer and the reports ask this list and never name a style. The order is the order of summaries.
 */
export const STYLES: readonly EpisodeStyle[] = [
  (await import('./cctu/index.ts')).cctuStyle,
  (await import('./ddr/index.ts')).ddrStyle,
  (await import('./plan/index.ts')).planStyle,
  (await import('./service/index.ts')).serviceStyle,
];

const BY_NAME = new Map(STYLES.map((style) => [style.name, style]));

/** The style `name` names, if any is registered (an ungraded episode's style is null). */
export function findStyle(name: string | null | undefined): EpisodeStyle | undefined {
  return name == null ? undefined : BY_NAME.get(name);
}

/** The style a task or score names. */
export function styleOf(name: string): EpisodeStyle {
  const style = findStyle(name);
  if (!style) throw new SandboxError('invalid-input', `unknown episode style "${name}" (known: ${[...BY_NAME.keys()].join(', ')})`);
  return style;
}

/**
 * A task file, discriminated by `style` over every registered style's task schema. Typed as the schemas' `Task`
 * (the union of src/schemas/task.ts): a style registered here beyond it is carried by the fields every task has.
 */
export const TaskFileSchema = z.discriminatedUnion('style', STYLES.map((style) => style.taskSchema) as unknown as [z.ZodObject<{ style: z.ZodLiteral<string> }>]) as unknown as z.ZodType<Task>;

const graders = new Map<string, Promise<StyleGrader>>();

/** The grader of a style, loaded once. */
export function styleGrader(name: string): Promise<StyleGrader> {
  let grader = graders.get(name);
  if (!grader) {
    grader = styleOf(name).grader();
    graders.set(name, grader);
    grader.catch(() => graders.delete(name));
  }
  return grader;
}
