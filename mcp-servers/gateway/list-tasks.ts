import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';

type TaskRow = { id: string; title: string; style: string; domain: string };

const DEFAULT_LIMIT = 50;

export const LIST_TASKS_TOOL: Tool = {
  name: 'list_tasks',
  title: 'List the tasks',
  description: `List the tasks of this suite (id, style, domain, title), ${DEFAULT_LIMIT} at a time; pass nextCursor back as cursor for the next page.`,
  inputSchema: {
    type: 'object',
    properties: {
      filter: { type: 'string', description: 'Only tasks whose id, style, domain or title contains this text (case-insensitive).' },
      cursor: { type: 'string', description: 'The nextCursor of the previous page; omit for the first page.' },
      limit: { type: 'integer', minimum: 1, maximum: 200, description: `Tasks per page (default ${DEFAULT_LIMIT}).` },
    },
    additionalProperties: false,
  },
  outputSchema: {
    type: 'object',
    properties: {
      tasks: {
        type: 'array',
        items: {
          type: 'object',
          properties: { id: { type: 'string' }, style: { type: 'string' }, domain: { type: 'string' }, title: { type: 'string' } },
          required: ['id', 'style', 'domain', 'title'],
        },
      },
      total: { type: 'integer', description: 'Tasks matching the filter, over all pages.' },
      nextCursor: { type: 'string', description: 'Pass as cursor for the next page; absent on the last page.' },
    },
    required: ['tasks', 'total'],
  },
  annotations: { title: 'List the tasks', readOnlyHint: true, idempotentHint: true, openWorldHint: false },
};

/** The cursor is the filter and the offset, so a cursor from another filter cannot skip tasks silently. */
const encodeCursor = (filter: string, offset: number) => Buffer.from(JSON.stringify({ filter, offset })).toString('base64url');

function decodeCursor(cursor: string, filter: string): number | null {
  try {
    const parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { filter?: unknown; offset?: unknown };
    return parsed.filter === filter && Number.isInteger(parsed.offset) && (parsed.offset as number) >= 0 ? (parsed.offset as number) : null;
  } catch {
    return null;
  }
}

/** One page of `list_tasks` (arguments already checked against its input schema). */
export function listTasksPage(tasks: readonly TaskRow[], args: { filter?: unknown; cursor?: unknown; limit?: unknown }): CallToolResult {
  const filter = typeof args.filter === 'string' ? args.filter : '';
  const needle = filter.toLowerCase();
  const matching = tasks.filter((task) => [task.id, task.style, task.domain, task.title].some((field) => field.toLowerCase().includes(needle)));
  const offset = typeof args.cursor === 'string' ? decodeCursor(args.cursor, filter) : 0;
  if (offset === null) return { content: [{ type: 'text', text: 'Invalid cursor: pass the nextCursor of the previous page, with the same filter.' }], isError: true };
  const limit = typeof args.limit === 'number' ? args.limit : DEFAULT_LIMIT;
  const page = matching.slice(offset, offset + limit).map(({ id, style, domain, title }) => ({ id, style, domain, title }));
  const structured = { tasks: page, total: matching.length, ...(offset + limit < matching.length ? { nextCursor: encodeCursor(filter, offset + limit) } : {}) };
  return { content: [{ type: 'text', text: JSON.stringify(structured) }], structuredContent: structured, isError: false };
}
