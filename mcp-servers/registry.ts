import type { ServerProgram } from './transport/server-program.ts';

/**
 * The plain servers `sandbox serve --server <name>` and `sandbox mcp-config --server <name>` offer, by name: one line
 * per server, its folder's `program.ts` (AGENTS.md, "Add a server"). A program loads its heavy parts only when it opens.
 */
export const PLAIN_SERVERS: Readonly<Record<string, ServerProgram>> = {
  sql: (await import('./sql/program.ts')).sqlProgram,
  transcripts: (await import('./transcripts/program.ts')).transcriptsProgram,
  service: (await import('./service/program.ts')).serviceProgram,
};
