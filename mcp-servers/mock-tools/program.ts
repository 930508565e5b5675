import { readJsonWithSchema } from '../../src/schemas/json-with-schema.ts';
import { CctuTaskSchema } from '../../src/schemas/cctu-task.ts';
import { SandboxError } from '../../src/sandbox-error.ts';
import { integerFlag, type ServerProgram } from '../transport/server-program.ts';

/**
 * The mock-tools server as a program: one task's tools over its world. Its bin runs it; it is not in the plain-server
 * registry, because a task is served with its constraints through `sandbox serve --task`.
 */
export const mockToolsProgram: ServerProgram = {
  name: 'mock-tools',
  summary: "a CCTU task's declared tools over its seeded world",
  options: {
    task: { type: 'string', value: 'FILE', path: true, description: 'the task whose tools to serve (required)' },
    'timeout-ms': { type: 'string', value: 'N', description: "per-call time limit (default: the task's toolTimeoutMs)" },
  },
  async open(values) {
    if (typeof values.task !== 'string') throw new SandboxError('invalid-input', '--task <task.json> is required');
    const task = await readJsonWithSchema(values.task, CctuTaskSchema, { what: 'task', code: 'invalid-task' });
    const [{ createServer }, { worldForTask }] = await Promise.all([import('./create-server.ts'), import('./world-for-task.ts')]);
    const world = await worldForTask(task);
    const timeoutMs = integerFlag(values, 'timeout-ms') ?? task.limits.toolTimeoutMs;
    return { make: async () => createServer({ tools: task.tools, world, timeoutMs, memoryLimitMb: task.limits.toolMemoryMb }), close: async () => undefined };
  },
};
