import { createReusableServer } from '../../../mcp-servers/mock-tools/create-server.ts';
import { worldFromOptions } from '../../../mcp-servers/mock-tools/world-for-task.ts';
import { SandboxError } from '../../sandbox-error.ts';
import type { ServerFactory } from '../server-factory.ts';

/**
 * Starts the mock-tools server for a task: its declared `tools`, over the world its server options name
 * (`world` inline, or `worldDomain` + `worldSeed` rebuilt by databases/worlds). The tool timeout is the
 * options' `timeoutMs`, else the task's `limits.toolTimeoutMs`. Reusable: `reset()` readies it for the next episode.
 */
export const startMockToolsServer: ServerFactory = async (ref, context) => {
  const task = context.task;
  if (!('tools' in task) || !task.tools || task.tools.length === 0) {
    throw new SandboxError('invalid-task', `${task.id}: the mock-tools server needs the task's "tools" (a cctu task declares them)`);
  }
  const world = worldFromOptions(ref.options, task.id);
  const timeoutMs = typeof ref.options.timeoutMs === 'number' ? ref.options.timeoutMs : task.limits.toolTimeoutMs;
  return createReusableServer({ tools: task.tools, world, timeoutMs });
};
