/**
 * What the gateway server (mcp-servers/gateway/) needs from an episode: the engine implements it
 * (src/engine/gateway-episode.ts) and hands it in. Here, below both, so neither imports the other.
 */
export interface GatewayTool {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
  /** The MCP annotations its server declares, if any. */
  annotations?: Record<string, unknown>;
  /** The schema of its structured result, if its server declares one. */
  outputSchema?: Record<string, unknown>;
}

/** How the gateway words its `submit_answer` tool for a task: a final answer, or a conversation's next reply. */
export interface SubmitWording {
  title: string;
  description: string;
  /** The description of its one argument, `answer`. */
  answer: string;
}

export interface GatewayOutcome {
  content: string;
  isError: boolean;
}

/**
 * One task offered to an MCP client. Listing its tools records nothing; the episode (its clock, its trajectory)
 * starts at the first task call or `submitAnswer`, and is recorded exactly once.
 */
export interface GatewayTaskSession {
  readonly taskId: string;
  readonly title: string;
  /** The scenario (system prompt) and the query, as the `task` prompt gives them. */
  readonly system: string;
  readonly query: string;
  /** How to answer (the `task` prompt's last paragraph): a final answer, or a conversation's replies, as the task's style says. */
  readonly answering: string;
  /** How `submit_answer` is described to the client when the style answers otherwise than with one final answer. */
  readonly submitWording?: SubmitWording;
  /** Markdown description of the task: query, tools, constraints, how to answer. */
  readonly description: string;
  readonly tools: readonly GatewayTool[];
  /** Where the trajectory is written; null before the episode starts (and when in memory only). */
  readonly trajectoryPath: string | null;
  /** Whether the episode has started (a task call or an answer arrived). */
  readonly started: boolean;
  /** Whether the episode has ended (answer accepted, a limit, an error, or closed): further calls are refused. */
  readonly finished: boolean;
  /** Checks and (if allowed) runs one call; `argumentsText` is the JSON the client sent. Starts the episode. */
  callTool(name: string, argumentsText: string): Promise<GatewayOutcome>;
  /** Checks a final answer: accepted (the episode ends) or rejected with the feedback. Starts the episode. */
  submitAnswer(answer: string): Promise<GatewayOutcome>;
  /**
   * Ends the session: an episode still open is recorded as `incomplete` with the reason, and the promise
   * resolves once its trajectory is written. A session never started writes nothing. Safe to call twice.
   */
  close(reason: string): Promise<void>;
}

/** The tasks a gateway serves and how to open a session on one. */
export interface GatewayCatalog {
  tasks: ReadonlyArray<{ id: string; title: string; style: string; domain: string }>;
  /** Opens a session; `client` is the MCP client's name from its initialize request, recorded as the player. */
  open(taskId: string, client: { name?: string }): Promise<GatewayTaskSession>;
  /** With a shared episode: the task a suite connection continues (started by an earlier connection), if any. */
  resume?(client: { name?: string }): Promise<GatewayTaskSession | undefined>;
}
