import type { AssistantMessage, ChatMessage, Usage } from '../schemas/message.ts';
import type { ToolSpec } from '../schemas/tool-spec.ts';

/** What the engine asks a model for: the next assistant message given the conversation and the tools. */
export interface ModelRequest {
  messages: readonly ChatMessage[];
  tools: readonly ToolSpec[];
  signal?: AbortSignal;
  /**
   * Stops the episode's wall-time clock until the returned function is called: for a model that waits for a person
   * (`human`), whose thinking time is not the agent's time.
   */
  pauseWallTime?: () => () => void;
  /**
   * Limits of this one call, for callers whose protocol sets them per call (DDR-Bench's judge: 2048 output tokens
   * for a context-quality call, 4096 for GLOBEM's accuracy check). Providers (openai, openai-compatible, anthropic)
   * send them on the wire; playback models have nothing to limit and ignore them. Absent: the model's own settings.
   */
  generation?: GenerationOptions;
}

/** Per-call generation settings (see `ModelRequest.generation`). */
export interface GenerationOptions {
  /** The most tokens the reply may have (OpenAI `max_tokens`, or `max_completion_tokens` for reasoning models; Anthropic `max_tokens`). */
  maxOutputTokens?: number;
  temperature?: number;
}

export interface ModelResponse {
  message: AssistantMessage;
  usage: Usage;
  latencyMs: number;
  /** Network models: the attempts this response took (1, or more after retried failures); recorded in the trajectory. */
  attempts?: number;
}

/**
 * A model behind one interface, whatever its provider. Every provider returns the assistant message
 * in OpenAI chat form (tool-call arguments as a JSON string, possibly invalid).
 */
export interface Model {
  /** The spec string it was made from, recorded in `episode-start`. */
  readonly spec: string;
  /**
   * A provider that generates text (openai, anthropic, openai-compatible). Playback models (`reference`, `replay:`,
   * `scripted:`, `human`, the explorer) leave it unset: they would answer any prompt with the agent's recorded turn.
   */
  readonly generative?: boolean;
  respond(request: ModelRequest): Promise<ModelResponse>;
  close?(): Promise<void>;
}
