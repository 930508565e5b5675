import { z } from 'zod';
import { CctuTaskSchema } from './cctu-task.ts';
import { DdrTaskSchema } from './ddr-task.ts';
import { PlanTaskSchema } from './plan-task.ts';

/** A task file (`episodes/<style>/<id>.json`), discriminated by `style`. */
export const TaskSchema = z.discriminatedUnion('style', [CctuTaskSchema, DdrTaskSchema, PlanTaskSchema]);
export type Task = z.infer<typeof TaskSchema>;
export type TaskStyle = Task['style'];
