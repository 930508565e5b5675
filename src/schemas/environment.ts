import { z } from 'zod';

/**
 * The servers a task needs, by name (`sql`, `transcripts`, `mock-tools`, `service`), each with its options.
 * The engine starts them (in-process by default) and reaches them only through an MCP client.
 */
export const ServerRefSchema = z.object({
  name: z.enum(['sql', 'transcripts', 'mock-tools', 'service']),
  options: z.record(z.string(), z.unknown()).default({}),
});
export type ServerRef = z.infer<typeof ServerRefSchema>;

export const EnvironmentSchema = z.object({
  servers: z.array(ServerRefSchema).default([]),
  /** Database the servers read, by generator name (`contact-center`, `clinical`, `filings`) — built on demand. */
  database: z.string().optional(),
  /** Restrict the tools exposed to the agent to these names (all tools of the servers when absent). */
  tools: z.array(z.string()).optional(),
});
export type Environment = z.infer<typeof EnvironmentSchema>;
