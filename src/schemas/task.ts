import { z } from 'zod';
import { CctuTaskSchema } from './cctu-task.ts';
import { DdrTaskSchema } from './ddr-task.ts';
import { PlanTaskSchema } from './plan-task.ts';
import { ServiceTaskSchema } from './service-task.ts';

/**
 * A task (`episodes/<style>/<id>.json`) of the styles the schemas know, discriminated by `style`: the type every layer
 * reads a task as. Task files are parsed by the style registry's schema (src/styles/registry.ts, `TaskFileSchema`),
 * which joins every registered style's piece.
 */
export const TaskSchema = z.discriminatedUnion('style', [CctuTaskSchema, DdrTaskSchema, PlanTaskSchema, ServiceTaskSchema]);
export type Task = z.infer<typeof TaskSchema>;

/** A CCTU task (its own tools and subqueries): for code that reads that style's fields. */
export const isCctuTask = (task: Task): task is Extract<Task, { style: 'cctu' }> => task.style === 'cctu';
/** A DDR task (its entity and checklist). */
export const isDdrTask = (task: Task): task is Extract<Task, { style: 'ddr' }> => task.style === 'ddr';
/** A plan task (its reference plan). */
export const isPlanTask = (task: Task): task is Extract<Task, { style: 'plan' }> => task.style === 'plan';
/** A service task (its customer, gold actions and grading). */
export const isServiceTask = (task: Task): task is Extract<Task, { style: 'service' }> => task.style === 'service';
