import { z } from 'zod';

/** One tool call as an assistant message carries it (OpenAI chat form: arguments are a JSON string). */
export const ToolCallSchema = z.object({
  id: z.string().min(1),
  type: z.literal('function').default('function'),
  function: z.object({
    name: z.string(),
    /** Raw JSON text as the model produced it; may be invalid JSON (the validator reports that). */
    arguments: z.string(),
  }),
});
export type ToolCall = z.infer<typeof ToolCallSchema>;

export const AssistantMessageSchema = z.object({
  role: z.literal('assistant'),
  content: z.string().nullable(),
  tool_calls: z.array(ToolCallSchema).optional(),
  /** Reasoning text some providers return beside the content (kept for insight extraction). */
  reasoning: z.string().optional(),
});
export type AssistantMessage = z.infer<typeof AssistantMessageSchema>;

export const SystemMessageSchema = z.object({ role: z.literal('system'), content: z.string() });
export const UserMessageSchema = z.object({ role: z.literal('user'), content: z.string() });
export const ToolMessageSchema = z.object({
  role: z.literal('tool'),
  tool_call_id: z.string(),
  content: z.string(),
});

/** A chat message in OpenAI chat form: the one shape messages take inside the engine and in trajectories. */
export const ChatMessageSchema = z.discriminatedUnion('role', [
  SystemMessageSchema,
  UserMessageSchema,
  AssistantMessageSchema,
  ToolMessageSchema,
]);
export type ChatMessage = z.infer<typeof ChatMessageSchema>;

/** Token usage of one model call; fields a provider does not report are absent, never 0. */
export const UsageSchema = z.object({
  inputTokens: z.number().int().nonnegative().optional(),
  outputTokens: z.number().int().nonnegative().optional(),
  /** Cost in US dollars from the price table; absent when the model is not listed (reported as unknown). */
  costUsd: z.number().nonnegative().optional(),
});
export type Usage = z.infer<typeof UsageSchema>;
