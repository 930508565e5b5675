export { createServer, closeGatewaySession, SUBMIT_ANSWER, START_TASK, LIST_TASKS, type GatewayServerOptions } from './create-server.ts';
export type { GatewayCatalog, GatewayTaskSession, GatewayTool, GatewayOutcome } from '../../src/schemas/gateway-session.ts';
