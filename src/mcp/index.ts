export { connectServer, type McpConnection, type ServerEndpoint, type ToolOutcome, type CallOptions } from './connect-server.ts';
export { startEnvironment, createToolRouter, DEFAULT_MAX_RESULT_BYTES, type ToolEnvironment, type StartEnvironmentOptions } from './start-environment.ts';
export { toolResultText } from './tool-result-text.ts';
export { capBytes } from './for-servers/cap-bytes.ts';
export type { ServerFactory, ServerContext } from './server-factory.ts';
export { ENVIRONMENT_SERVERS } from './environments/index.ts';
