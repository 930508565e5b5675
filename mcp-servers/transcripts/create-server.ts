import { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import { CompleteRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { clientLogging } from '../shared/call-reporting.ts';
import { z } from 'zod';
import type { EmbeddingsConfig } from './embeddings-config.ts';
import { ensureTranscriptIndex } from './ensure-transcript-index.ts';
import { SearchFiltersSchema } from './search-filters.ts';
import { ToolInputError } from './tool-input-error.ts';
import { TranscriptIndex, type ExpansionOptions } from './transcript-index.ts';

export interface TranscriptsServerOptions {
  /** The index directory (built by `buildTranscriptIndex`). */
  indexPath: string;
  /** The contact-center database: when given, the index is built (or rebuilt if stale) from it first. */
  dbPath?: string;
  /** An OpenAI-compatible embeddings endpoint: enables dense and hybrid search on an index built with it. */
  embeddings?: EmbeddingsConfig;
  /** Query expansion (WordNet, morphology, fuzzy typos on by default; a synonyms file when given). */
  expansion?: ExpansionOptions;
}

/** Longest query accepted: a search query, not a document. */
export const MAX_QUERY_CHARS = 2000;
/** Most chunks one search returns. */
export const MAX_K = 50;
/** Byte budget of one tool result: far below the stdio transport's 10 MiB message limit. */
export const MAX_RESULT_BYTES = 256 * 1024;

const SERVER_VERSION = '0.1.0';

/** A JSON result: the same object as text (for clients that read content) and as structuredContent. */
function json(value: Record<string, unknown>): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(value, null, 2) }], structuredContent: value };
}

/** Every tool only reads the index: safe to retry, no side effects, nothing outside the index. */
const READ_ONLY = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false } as const;

const HitSchema = z.object({
  rank: z.number().int().describe('1 = best'),
  score: z.number().describe('higher is better; bm25: BM25 score (chunk level: the sum of each query clause\'s weighted score from that clause\'s own best chunks, so a chunk outside one clause\'s list counts 0 there: at most its exact BM25 score), dense: 1/(1+distance), hybrid: reciprocal-rank fusion; call level: best chunk + 0.3 × the others'),
  call_id: z.string(),
  turn_from: z.number().int(),
  turn_to: z.number().int(),
  start_s: z.number().nullable(),
  end_s: z.number().nullable(),
  call_date: z.string().nullable(),
  queue: z.string().nullable(),
  time_zone: z.string().nullable(),
  agent_id: z.string().nullable(),
  team: z.string().nullable(),
  resolved: z.boolean().nullable(),
  escalated: z.boolean().nullable(),
  text: z.string().describe('the turns, one line each, "speaker: text"'),
  matched_chunks: z.number().int().optional().describe('group_by "call": how many of the call\'s chunks matched'),
});
const TurnSchema = z.object({ turn: z.number().int(), speaker: z.string(), start_s: z.number().nullable(), end_s: z.number().nullable(), text: z.string() });

function failure(message: string): CallToolResult {
  return { isError: true, content: [{ type: 'text', text: message }] };
}

/** Runs a tool body; the model's mistakes and unexpected failures both come back as `isError` results. */
async function asToolResult(tool: string, body: () => Promise<CallToolResult>): Promise<CallToolResult> {
  try {
    return await body();
  } catch (error) {
    if (error instanceof ToolInputError) return failure(error.message);
    return failure(`${tool} failed: ${(error as Error).message}. The server is still running; try again or change the request.`);
  }
}

/**
 * The transcripts MCP server: `search_transcripts` ranks chunks of call transcripts (BM25, or dense/hybrid
 * when embeddings are configured) under metadata filters; `get_transcript` reads a call's turns.
 */
export async function createServer(options: TranscriptsServerOptions): Promise<McpServer> {
  if (options.dbPath) await ensureTranscriptIndex({ dbPath: options.dbPath, indexPath: options.indexPath, embeddings: options.embeddings });
  const index = await TranscriptIndex.open(options.indexPath, options.embeddings, options.expansion);
  const server = createServerForIndex(index);
  // This server owns the index: release LanceDB's handles when it closes, whoever else listens.
  const previous = server.server.onclose;
  server.server.onclose = () => {
    previous?.();
    index.close();
  };
  return server;
}

/**
 * The transcripts server over an index opened by the caller, who keeps owning it: HTTP serving makes one
 * server per session, and they all share one opened index (one set of LanceDB caches).
 */
export function createServerForIndex(index: TranscriptIndex): McpServer {
  const { known } = index.meta;
  // the MCP surface the SQL server and the gateway have: logging, completion, resources and prompts beside the tools
  const server = new McpServer({ name: 'transcripts', version: SERVER_VERSION }, { capabilities: { tools: {}, logging: {}, completions: {}, resources: {}, prompts: {} } });
  const log = clientLogging(server.server);

  server.registerTool(
    'search_transcripts',
    {
      title: 'Search call transcripts',
      description:
        `Search ${index.meta.calls.toLocaleString('en-US')} contact-center call transcripts, indexed as chunks of ${index.meta.chunkTurns} consecutive turns. ` +
        `Returns the best-matching chunks (call_id, turn range, speaker-labelled text, score, call metadata), best first, or with group_by "call" one result per call ranked by all its matching chunks. ` +
        `Ranking: ${index.modes.join(', ')}${index.modes.length > 1 ? ' (default hybrid)' : ' (keyword search; synonyms and word forms are expanded)'}. ` +
        'Query syntax: "exact phrase", -word to exclude, OR between alternatives; "not resolved" is matched as a negation. Ties go to the more recent call. ' +
        `Calls run from ${known.firstDate ?? '?'} to ${known.lastDate ?? '?'}; queues: ${known.queues.join(', ') || 'none recorded'}. ` +
        'Use get_transcript to read a whole call.',
      inputSchema: {
        query: z.string().trim().min(1, 'query is empty: say what to look for').max(MAX_QUERY_CHARS, `query is longer than ${MAX_QUERY_CHARS} characters: shorten it to the words that matter`)
          .describe('what to look for, in words; supports "exact phrase", -excluded, OR'),
        k: z.number().int().min(1).max(MAX_K).default(10).describe(`how many results to return (1-${MAX_K})`),
        filters: SearchFiltersSchema.optional(),
        mode: z.enum(['bm25', 'dense', 'hybrid']).optional().describe(`ranking; available here: ${index.modes.join(', ')}`),
        group_by: z.enum(['chunk', 'call']).default('chunk').describe('"chunk": passages; "call": one result per call, its matching chunks\' scores combined (finds a concept spread over a call)'),
      },
      outputSchema: {
        mode: z.enum(['bm25', 'dense', 'hybrid']).describe('the ranking used'),
        group_by: z.enum(['chunk', 'call']),
        returned: z.number().int(),
        truncated: z.string().optional().describe('present when results were cut to the byte budget'),
        note: z.string().optional(),
        results: z.array(HitSchema),
      },
      annotations: READ_ONLY,
    },
    async ({ query, k, filters, mode, group_by }) =>
      asToolResult('search_transcripts', async () => {
        const started = performance.now();
        const { mode: used, hits } = await index.search({ query, k, filters, mode, level: group_by });
        log('info', 'transcripts', `search_transcripts (${used}, ${group_by}): ${hits.length} results in ${Math.round(performance.now() - started)} ms`);
        const results = [];
        let bytes = 0;
        for (const hit of hits) {
          bytes += Buffer.byteLength(hit.text) + 400;
          if (bytes > MAX_RESULT_BYTES) break;
          results.push(hit);
        }
        return json({
          mode: used,
          group_by,
          returned: results.length,
          ...(results.length < hits.length ? { truncated: `cut to ${results.length} results to stay under ${MAX_RESULT_BYTES} bytes; ask for fewer` } : {}),
          ...(hits.length === 0 ? { note: 'nothing matched: try other words or looser filters' } : {}),
          results,
        });
      }),
  );

  server.registerTool(
    'get_transcript',
    {
      title: 'Read a call transcript',
      description: 'The turns of one call (speaker, start/end seconds, text) with its metadata; optionally only turns from_turn..to_turn (inclusive).',
      inputSchema: {
        call_id: z.string().min(1).max(100).describe(`the call's id, e.g. ${known.exampleCallIds[0] ?? ''}`),
        from_turn: z.number().int().min(0).optional().describe('first turn index to return'),
        to_turn: z.number().int().min(0).optional().describe('last turn index to return (inclusive)'),
      },
      outputSchema: {
        call_id: z.string(),
        call: z.object({
          started_at: z.string().nullable(), call_date: z.string().nullable(), time_zone: z.string().nullable(), queue: z.string().nullable(),
          channel: z.string().nullable(), call_driver: z.string().nullable(), agent_id: z.string().nullable(), team: z.string().nullable(),
          resolved: z.boolean().nullable(), escalated: z.boolean().nullable(),
        }).describe('the call\'s metadata (null where the source has none)'),
        total_turns: z.number().int(),
        turns: z.array(TurnSchema),
        truncated: z.string().optional().describe('present when turns were cut to the byte budget: continue with from_turn'),
      },
      annotations: READ_ONLY,
    },
    async ({ call_id, from_turn, to_turn }) =>
      asToolResult('get_transcript', async () => {
        const transcript = await index.getTranscript(call_id, from_turn, to_turn);
        log('info', 'transcripts', `get_transcript ${call_id}: ${transcript.turns.length} of ${transcript.total_turns} turns`);
        let bytes = 0;
        const turns = transcript.turns.filter((turn) => (bytes += Buffer.byteLength(turn.text) + 100) <= MAX_RESULT_BYTES);
        const next = transcript.turns[turns.length];
        return json({ ...transcript, turns, ...(next ? { truncated: `result cut at the byte budget; continue with from_turn ${next.turn}` } : {}) });
      }),
  );

  // What the index holds (its size, dates, the filter values it knows), as a resource; and each call as one.
  server.registerResource(
    'index',
    'transcripts://index',
    { title: 'The transcript index', description: 'How many calls and chunks are indexed, the date range, the queues, time zones and teams the filters accept, the ranking modes.', mimeType: 'application/json' },
    async (uri) => ({ contents: [{ uri: uri.href, mimeType: 'application/json', text: JSON.stringify({ calls: index.meta.calls, chunks: index.meta.chunks, chunk_turns: index.meta.chunkTurns, modes: index.modes, built_at: index.meta.builtAt, ...known }) }] }),
  );
  // Calls are not listed (an index holds up to millions): a client reads one by id, and completes ids from the examples.
  server.registerResource(
    'call',
    new ResourceTemplate('transcripts://calls/{call_id}', { list: undefined }),
    { title: 'A call transcript', description: 'One call: its metadata and every turn (speaker, start/end seconds, text).', mimeType: 'application/json' },
    async (uri, variables) => {
      const transcript = await index.getTranscript(decodeURIComponent(String(variables.call_id)));
      return { contents: [{ uri: uri.href, mimeType: 'application/json', text: JSON.stringify(transcript) }] };
    },
  );
  server.registerPrompt(
    'investigate',
    {
      title: 'Investigate a topic in the calls',
      description: 'Find the calls about a topic (optionally in one queue), read the best ones and say what they have in common.',
      argsSchema: { topic: z.string().describe('what the calls are about, in words'), queue: z.string().optional().describe('only calls of this queue (completion lists the queues)') },
    },
    ({ topic, queue }) => ({
      messages: [{
        role: 'user',
        content: {
          type: 'text',
          text: `Find the contact-center calls about ${JSON.stringify(topic)}${queue ? ` in the ${JSON.stringify(queue)} queue` : ''}: call search_transcripts with group_by "call"${queue ? ` and filters {"queue": ${JSON.stringify(queue)}}` : ''}, ` +
            'read the three best calls with get_transcript, and report what they have in common, citing call ids and turns.',
        },
      }],
    }),
  );
  // Completion: the filter values the index knows (queue, time_zone, team, agent_id) and call ids from its examples.
  // A reference this server does not have completes to nothing, as MCP's conformance suite expects.
  const choices: Record<string, readonly string[]> = { queue: known.queues, time_zone: known.timeZones, team: known.teams, agent_id: known.agentIds, call_id: known.exampleCallIds };
  server.server.setRequestHandler(CompleteRequestSchema, async (request) => {
    const { argument } = request.params;
    const prefix = argument.value.toLowerCase();
    const values = (choices[argument.name] ?? []).filter((value) => value.toLowerCase().startsWith(prefix));
    return { completion: { values: values.slice(0, 100), total: values.length, hasMore: values.length > 100 } };
  });

  return server;
}
