import { capBytes } from './for-servers/cap-bytes.ts';

/** The MCP result fields the engine reads. */
interface ToolResultLike {
  content?: unknown;
  structuredContent?: unknown;
  isError?: unknown;
}

/**
 * The text an agent reads from an MCP tool result: text blocks joined, other blocks named, structured
 * content as JSON when there is no text; capped at `maxBytes` of UTF-8 with a note saying how much was cut.
 */
export function toolResultText(result: ToolResultLike, maxBytes: number): { content: string; isError: boolean } {
  const parts: string[] = [];
  if (Array.isArray(result.content)) {
    for (const block of result.content as Array<{ type?: string; text?: string; resource?: { text?: string; uri?: string } }>) {
      if (block.type === 'text' && typeof block.text === 'string') parts.push(block.text);
      else if (block.type === 'resource' && typeof block.resource?.text === 'string') parts.push(block.resource.text);
      else parts.push(`[${block.type ?? 'unknown'} content omitted]`);
    }
  }
  if (parts.length === 0 && result.structuredContent !== undefined) parts.push(JSON.stringify(result.structuredContent));
  return { content: capBytes(parts.join('\n'), maxBytes), isError: result.isError === true };
}
