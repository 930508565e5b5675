import { z } from 'zod';
import { ConstraintSchema } from './constraint.ts';
import { EnvironmentSchema } from './environment.ts';
import { LimitsSchema } from './limits.ts';
import { ReferenceStepSchema } from './reference-step.ts';

export const TASK_SCHEMA_VERSION = 1;

/** Fields every task has, whatever its style; style files extend this. */
export const taskBaseShape = {
  schemaVersion: z.literal(TASK_SCHEMA_VERSION),
  id: z.string().regex(/^[a-z0-9][a-z0-9._-]*$/, 'a lower-case id of letters, digits, . _ -'),
  title: z.string().min(1),
  domain: z.string().min(1),
  system: z.string(),
  query: z.string().min(1),
  environment: EnvironmentSchema,
  constraints: z.array(ConstraintSchema).default([]),
  limits: LimitsSchema.default(LimitsSchema.parse({})),
  metadata: z.record(z.string(), z.unknown()).default({}),
};

/** The reference solution every style carries: a trajectory the `reference` model plays. */
export const referenceBaseShape = {
  trajectory: z.array(ReferenceStepSchema).min(1),
};
