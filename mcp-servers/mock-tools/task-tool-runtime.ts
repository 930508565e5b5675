import type { MockTool } from '../../src/schemas/cctu-task.ts';
import { createPythonToolRuntime } from './python-tool-runtime.ts';
import { createToolRuntime, type ToolRuntime, type ToolRuntimeOptions } from './tool-runtime.ts';

/**
 * A task's tools, each run by its language's runtime: JavaScript tools in one isolate, Python tools in one
 * Python sandbox (each built only when the task has such tools). Names are routed here, so an unknown tool is
 * named against the whole tool list.
 */
export function createTaskToolRuntime(options: ToolRuntimeOptions): ToolRuntime {
  const isPython = (tool: MockTool) => tool.language === 'python';
  const pythonTools = options.tools.filter(isPython);
  const javascriptTools = options.tools.filter((tool) => !isPython(tool));
  if (pythonTools.length === 0) return createToolRuntime(options);
  const python = createPythonToolRuntime({ ...options, tools: pythonTools });
  if (javascriptTools.length === 0) return python;
  const javascript = createToolRuntime({ ...options, tools: javascriptTools });
  const runtimeOf = new Map<string, ToolRuntime>([...pythonTools.map((tool) => [tool.name, python] as const), ...javascriptTools.map((tool) => [tool.name, javascript] as const)]);
  return {
    async call(name, args, argumentsText) {
      const runtime = runtimeOf.get(name);
      if (runtime === undefined) return { text: `Unknown tool "${name}". Available tools: ${[...runtimeOf.keys()].join(', ')}.`, isError: true };
      return runtime.call(name, args, argumentsText);
    },
    prepare: () => javascript.prepare(),
    reset() {
      python.reset();
      javascript.reset();
    },
    dispose() {
      python.dispose();
      javascript.dispose();
    },
  };
}
