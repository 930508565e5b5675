export { createServer, type MockToolsServerOptions } from './create-server.ts';
export { createToolRuntime, type ToolRuntime, type ToolOutcome, type ToolRuntimeOptions } from './tool-runtime.ts';
export { worldForTask, worldFromOptions, MockToolsOptionsSchema, type MockToolsOptions } from './world-for-task.ts';
export { compileArgumentCheck, type ArgumentCheck } from './check-arguments.ts';
