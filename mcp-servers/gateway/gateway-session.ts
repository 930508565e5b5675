/**
 * What the gateway server needs from an episode: the engine implements it (src/engine/gateway-session.ts)
 * and hands it in, so this server never imports the engine.
 */
export interface GatewayTool {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

export interface GatewayOutcome {
  content: string;
  isError: boolean;
}

/** One task being played by an MCP client, with its constraints enforced and every step recorded. */
export interface GatewayTaskSession {
  readonly taskId: string;
  readonly title: string;
  /** The scenario (system prompt) and the query, as the `task` prompt gives them. */
  readonly system: string;
  readonly query: string;
  /** Markdown description of the task: query, tools, constraints, how to answer. */
  readonly description: string;
  readonly tools: readonly GatewayTool[];
  /** Where the trajectory is written, or null when in memory only. */
  readonly trajectoryPath: string | null;
  /** Whether the episode has ended (answer accepted, a limit, or an error): further calls are refused. */
  readonly finished: boolean;
  /** Checks and (if allowed) runs one call; `argumentsText` is the JSON the client sent. */
  callTool(name: string, argumentsText: string): Promise<GatewayOutcome>;
  /** Checks a final answer: accepted (the episode ends) or rejected with the feedback. */
  submitAnswer(answer: string): Promise<GatewayOutcome>;
  /** Ends the episode; an unfinished one is recorded as incomplete with the reason. */
  close(reason: string): Promise<void>;
}

/** The tasks a gateway serves and how to open a session on one. */
export interface GatewayCatalog {
  tasks: ReadonlyArray<{ id: string; title: string; style: string; domain: string }>;
  /** Opens a session; `client` is the MCP client's name from its initialize request, recorded as the player. */
  open(taskId: string, client: { name?: string }): Promise<GatewayTaskSession>;
}
