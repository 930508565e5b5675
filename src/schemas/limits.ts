import { z } from 'zod';

/** Hard limits of one episode; reaching one ends it with status `limit` and the reason. */
export const LimitsSchema = z.object({
  maxRounds: z.number().int().positive().default(30),
  maxToolCalls: z.number().int().positive().default(100),
  wallTimeMs: z.number().int().positive().default(600_000),
  maxTokens: z.number().int().positive().optional(),
  toolTimeoutMs: z.number().int().positive().default(10_000),
  /**
   * Heap of the isolate the task's mock tools run in, in MB (default 64): the world is copied into it and every call
   * runs there. A world that does not fit fails the episode's start naming this field.
   */
  toolMemoryMb: z.number().int().min(8).max(4096).optional(),
  /**
   * Heap of the validator isolates of the task's JavaScript constraints, in MB (default 32; the task's tools are copied
   * into each): a breach is a validator error naming this field.
   */
  validatorMemoryMb: z.number().int().min(8).max(4096).optional(),
});
export type Limits = z.infer<typeof LimitsSchema>;
