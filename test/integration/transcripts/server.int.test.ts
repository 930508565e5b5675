// The transcripts server behind a real MCP client (in-process linked transport), on a real DuckDB and a real
// LanceDB index; dense and hybrid search against a loopback embeddings endpoint.
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, MAX_QUERY_CHARS, readIndexMeta, transcriptIndexPath } from '../../../mcp-servers/transcripts/index.ts';
import { startEmbeddingsServer, TEST_EMBEDDING_DIMENSIONS, type EmbeddingsServer } from '../../unit/transcripts/embeddings-server.ts';
import { createTinyContactCenter } from '../../unit/transcripts/tiny-contact-center.ts';

async function connect(options: Parameters<typeof createServer>[0]): Promise<Client> {
  const server = await createServer(options);
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await server.connect(serverTransport);
  const client = new Client({ name: 'test', version: '0' });
  await client.connect(clientTransport);
  return client;
}

async function call(
  client: Client,
  name: string,
  args: Record<string, unknown>,
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tool results are JSON read by the assertions
): Promise<{ isError: boolean; text: string; json?: any }> {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  const text = result.content.map((part) => (part.type === 'text' ? part.text : '')).join('');
  return { isError: result.isError === true, text, json: result.isError ? undefined : JSON.parse(text) };
}

let dbPath: string;
let embeddings: EmbeddingsServer;
let bm25: Client;
let dense: Client;

beforeAll(async () => {
  dbPath = await createTinyContactCenter();
  embeddings = await startEmbeddingsServer();
  // dbPath given: the server builds its index on demand.
  bm25 = await connect({ indexPath: transcriptIndexPath(dbPath), dbPath });
  dense = await connect({ indexPath: `${transcriptIndexPath(dbPath)}-dense`, dbPath, embeddings: { url: embeddings.url, model: 'hashed-bow', batchSize: 2 } });
});

afterAll(async () => {
  await bm25?.close();
  await dense?.close();
  await embeddings?.close();
  await rm(path.dirname(dbPath), { recursive: true, force: true });
});

describe('transcripts server', () => {
  it('lists its two tools with their filters', async () => {
    const { tools } = await bm25.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(['get_transcript', 'search_transcripts']);
    const search = tools.find((tool) => tool.name === 'search_transcripts')!;
    const properties = search.inputSchema.properties as Record<string, { properties: Record<string, unknown> }>;
    expect(Object.keys(properties.filters!.properties).sort()).toEqual(
      ['agent_id', 'call_ids', 'date_from', 'date_to', 'escalated', 'queue', 'resolved', 'team', 'time_zone'],
    );
    expect(search.description).toContain('5 contact-center call transcripts');
  });

  it('searches with filters and reads the transcript of a hit', async () => {
    const search = await call(bm25, 'search_transcripts', { query: 'cancel subscription discount', k: 2, filters: { team: 'Ember', resolved: true } });
    expect(search.isError).toBe(false);
    expect(search.json.mode).toBe('bm25');
    expect(search.json.results[0]).toMatchObject({ call_id: 'C-0000003', turn_from: 0, turn_to: 3, team: 'Ember' });
    const transcript = await call(bm25, 'get_transcript', { call_id: 'C-0000003', from_turn: 1, to_turn: 2 });
    expect(transcript.json.turns.map((turn: { speaker: string }) => turn.speaker)).toEqual(['customer', 'agent']);
  });

  it('answers bad input with a clear tool error and stays up', async () => {
    const cases: Array<[string, Record<string, unknown>, RegExp]> = [
      ['search_transcripts', { query: '   ' }, /query is empty/],
      ['search_transcripts', { query: 'x'.repeat(MAX_QUERY_CHARS + 1) }, /query is longer than 2000 characters/],
      ['search_transcripts', { query: 'refund', k: 0 }, /k/],
      ['search_transcripts', { query: 'refund', k: 51 }, /k/],
      ['search_transcripts', { query: 'refund', filters: { customer_id: 'U-1' } }, /customer_id/],
      ['search_transcripts', { query: 'refund', filters: { queue: "billing' OR '1'='1" } }, /filters\.queue: unknown value/],
      ['search_transcripts', { query: 'refund', filters: { date_from: '2026-13-45x' } }, /date_from/],
      ['search_transcripts', { query: 'refund', filters: { call_ids: ['C-404'] } }, /no call with id "C-404"/],
      ['search_transcripts', { query: 'refund', mode: 'dense' }, /built without embeddings; use mode "bm25"/],
      ['get_transcript', { call_id: 'C-404' }, /no call with id "C-404"/],
      ['get_transcript', { call_id: 'C-0000001', from_turn: 4, to_turn: 1 }, /from_turn \(4\) is after to_turn \(1\)/],
      ['get_transcript', { call_id: 'C-0000001', from_turn: -1 }, /from_turn/],
    ];
    for (const [name, args, message] of cases) {
      const result = await call(bm25, name, args);
      expect(result.isError, `${name} ${JSON.stringify(args).slice(0, 80)}`).toBe(true);
      expect(result.text).toMatch(message);
    }
    const after = await call(bm25, 'search_transcripts', { query: 'outage' });
    expect(after.json.results[0].call_id).toBe('C-0000004');
  });

  it('stores embeddings at build time and serves dense and hybrid search', async () => {
    const meta = await readIndexMeta(`${transcriptIndexPath(dbPath)}-dense`);
    expect(meta?.embeddings).toEqual({ model: 'hashed-bow', dimensions: TEST_EMBEDDING_DIMENSIONS });
    const hybrid = await call(dense, 'search_transcripts', { query: 'premium plan upgrade', k: 3 });
    expect(hybrid.isError, hybrid.text).toBe(false);
    expect(hybrid.json.mode).toBe('hybrid');
    expect(hybrid.json.results[0].call_id).toBe('C-0000005');
    const vector = await call(dense, 'search_transcripts', { query: 'router wifi dropping', k: 3, mode: 'dense', filters: { queue: 'technical_support' } });
    expect(vector.json.mode).toBe('dense');
    expect(vector.json.results[0].call_id).toBe('C-0000002');
    expect(vector.json.results.every((hit: { queue: string }) => hit.queue === 'technical_support')).toBe(true);
    const filteredHybrid = await call(dense, 'search_transcripts', { query: 'refund', k: 5, mode: 'hybrid', filters: { queue: 'billing' } });
    // Only the billing call passes the filter: its 6 turns are one chunk (a tail of 1–3 turns joins the last chunk).
    expect(filteredHybrid.json.results.map((hit: { call_id: string; turn_from: number }) => `${hit.call_id}:${hit.turn_from}`)).toEqual(['C-0000001:0']);
    // Call level in both embedding modes: one hit per call, the premium-plan call first, with its best chunk's text.
    for (const mode of ['dense', 'hybrid']) {
      const byCall = await call(dense, 'search_transcripts', { query: 'premium plan upgrade', k: 3, mode, group_by: 'call' });
      expect(byCall.isError, byCall.text).toBe(false);
      const ids = byCall.json.results.map((hit: { call_id: string }) => hit.call_id);
      expect(ids[0]).toBe('C-0000005');
      expect(new Set(ids).size).toBe(ids.length);
      expect(byCall.json.results[0].text).toContain('premium');
    }
  });
});
