import { z } from 'zod';

/** Hard limits of one episode; reaching one ends it with status `limit` and the reason. */
export const LimitsSchema = z.object({
  maxRounds: z.number().int().positive().default(30),
  maxToolCalls: z.number().int().positive().default(100),
  wallTimeMs: z.number().int().positive().default(600_000),
  maxTokens: z.number().int().positive().optional(),
  toolTimeoutMs: z.number().int().positive().default(10_000),
});
export type Limits = z.infer<typeof LimitsSchema>;
