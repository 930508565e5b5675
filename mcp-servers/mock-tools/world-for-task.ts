import { z } from 'zod';
import { buildWorld } from '../../databases/worlds/index.ts';
import type { CctuTask } from '../../src/schemas/cctu-task.ts';
import { SandboxError } from '../../src/sandbox-error.ts';

/**
 * The options of a task's `mock-tools` server ref: either the world inline (`world`: any JSON), or a seeded
 * world by domain name(s) (`worldDomain`: one or a list, + `worldSeed`), rebuilt deterministically by databases/worlds — no files.
 */
export const MockToolsOptionsSchema = z.union([
  z.object({ world: z.unknown().refine((value) => value !== undefined, 'world is required'), timeoutMs: z.number().int().positive().optional() }),
  z.object({ worldDomain: z.union([z.string().min(1), z.array(z.string().min(1)).min(1)]), worldSeed: z.number().int().default(0), timeoutMs: z.number().int().positive().optional() }),
]);
export type MockToolsOptions = z.infer<typeof MockToolsOptionsSchema>;

/** Resolves the world a task's mock tools read, from its `mock-tools` server options. */
export function worldFromOptions(options: Record<string, unknown>, taskId = 'task'): unknown {
  const parsed = MockToolsOptionsSchema.safeParse(options);
  if (!parsed.success) {
    throw new SandboxError('invalid-task', `${taskId}: mock-tools options need "world" (inline JSON) or "worldDomain" (+ "worldSeed"): ${parsed.error.issues.map((issue) => `${issue.path.join('.') || '(options)'}: ${issue.message}`).join('; ')}`);
  }
  if ('world' in parsed.data) return parsed.data.world;
  try {
    return buildWorld(parsed.data.worldDomain, parsed.data.worldSeed);
  } catch (error) {
    throw new SandboxError('invalid-task', `${taskId}: ${(error as Error).message}`, { cause: error });
  }
}

/** The world of a CCTU task: the options of its first `mock-tools` server (an empty world when it has none). */
export async function worldForTask(task: CctuTask): Promise<unknown> {
  const ref = task.environment.servers.find((server) => server.name === 'mock-tools');
  return ref ? worldFromOptions(ref.options, task.id) : {};
}
