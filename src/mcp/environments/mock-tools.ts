import { createReusableServer } from '../../../mcp-servers/mock-tools/create-server.ts';
import { WorldOverLimitError } from '../../../mcp-servers/mock-tools/tool-runtime.ts';
import { worldFromOptions } from '../../../mcp-servers/mock-tools/world-for-task.ts';
import { SandboxError } from '../../sandbox-error.ts';
import type { ServerFactory } from '../server-factory.ts';

/**
 * Starts the mock-tools server for a task: its declared `tools`, over the world its server options name
 * (`world` inline, or `worldDomain` + `worldSeed` rebuilt by databases/worlds). The tool timeout is the
 * options' `timeoutMs`, else the task's `limits.toolTimeoutMs`; their isolate's heap is `limits.toolMemoryMb`. The world
 * is copied in before the episode starts, so a world over that limit is an invalid task naming the field that raises
 * it, not a failed first call. Reusable: `reset()` readies it for the next episode.
 */
export const startMockToolsServer: ServerFactory = async (ref, context) => {
  const task = context.task;
  if (!('tools' in task) || !task.tools || task.tools.length === 0) {
    throw new SandboxError('invalid-task', `${task.id}: the mock-tools server needs the task's "tools" (a cctu task declares them)`);
  }
  const world = worldFromOptions(ref.options, task.id);
  const timeoutMs = typeof ref.options.timeoutMs === 'number' ? ref.options.timeoutMs : task.limits.toolTimeoutMs;
  const server = createReusableServer({ tools: task.tools, world, timeoutMs, memoryLimitMb: task.limits.toolMemoryMb });
  try {
    await server.prepare();
  } catch (error) {
    await server.close();
    if (error instanceof WorldOverLimitError) {
      throw new SandboxError('invalid-task', `${task.id}: ${error.message}; raise it with "limits": { "toolMemoryMb": ${suggestedMb(error)} } in the task`, { cause: error });
    }
    throw error;
  }
  return server;
};

/** A limit the world would fit in: V8 holds a parsed JSON world in a few times its text's size. */
function suggestedMb(error: WorldOverLimitError): number {
  return Math.max(error.memoryLimitMb * 2, 2 ** Math.ceil(Math.log2(error.worldMb * 4 + 16)));
}
