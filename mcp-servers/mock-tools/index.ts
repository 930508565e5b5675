export { createReusableServer, createServer, type MockToolsServerOptions } from './create-server.ts';
export { createTaskToolRuntime } from './task-tool-runtime.ts';
export { createPythonToolRuntime, type PythonToolRuntimeOptions } from './python-tool-runtime.ts';
export { createToolRuntime, disposeIdleToolIsolates, idleToolIsolates, type ToolRuntime, type ToolOutcome, type ToolRuntimeOptions } from './tool-runtime.ts';
export { worldForTask, worldFromOptions, MockToolsOptionsSchema, type MockToolsOptions } from './world-for-task.ts';
export { compileArgumentCheck, type ArgumentCheck } from '../../src/mcp/for-servers/check-arguments.ts';
