import { Runnable, type RunnableConfig } from '@langchain/core/runnables';
import type { LangGraphRunnableConfig } from '@langchain/langgraph';

/**
 * A graph node (or a channel writer's mapper) as a plain Runnable: LangGraph calls `invoke` with the task's config,
 * and the function gets it as is. A bare function given to LangGraph (`addNode`, `Channel.writeTo`) is wrapped in a
 * runnable that, at every call, sets up LangChain's tracing context (a callback manager, a LangSmith run tree with a
 * random id, a config merged from async-local storage) which the episode never reads: it passes what it needs
 * through `configurable`. LangGraph still runs the graph, merges the state and checkpoints as before.
 */
class GraphFunction<Input, Output> extends Runnable<Input, Output> {
  lc_namespace = ['agent_sandbox', 'engine'];

  constructor(private readonly fn: (input: Input, config: LangGraphRunnableConfig) => Promise<Output> | Output) {
    super();
  }

  async invoke(input: Input, config?: Partial<RunnableConfig>): Promise<Output> {
    return this.fn(input, (config ?? {}) as LangGraphRunnableConfig);
  }
}

/** `fn` as a node or mapper LangGraph calls without LangChain's per-call tracing setup. */
export function graphFunction<Input, Output>(fn: (input: Input, config: LangGraphRunnableConfig) => Promise<Output> | Output): Runnable<Input, Output> {
  return new GraphFunction(fn);
}
