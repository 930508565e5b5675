import { z } from 'zod';

/** A JSON Schema object (draft 2020-12 subset as MCP tools use it). Kept open: validators interpret it. */
export const JsonSchemaSchema: z.ZodType<Record<string, unknown>> = z.record(z.string(), z.unknown());

/** A tool as the agent sees it: what MCP `tools/list` returns, and what a CCTU task declares. */
export const ToolSpecSchema = z.object({
  name: z.string().regex(/^[A-Za-z_][A-Za-z0-9_.-]{0,63}$/, 'a tool name of letters, digits, _ . - (at most 64)'),
  description: z.string(),
  parameters: JsonSchemaSchema,
  /** MCP tool annotations (readOnlyHint, destructiveHint, idempotentHint, openWorldHint, title), as the server declares them. */
  annotations: z.record(z.string(), z.unknown()).optional(),
  /** The JSON Schema of the tool's structured result, when its server declares one. */
  outputSchema: JsonSchemaSchema.optional(),
});
export type ToolSpec = z.infer<typeof ToolSpecSchema>;
