// The transcripts server on the real contact-center generator: started the way the engine starts it (the
// environment factory, database and index built on demand), and the labelled query set measured against it.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databasePath } from '../../../databases/index.ts';
import { evaluateRetrieval, generateLabelledQueries, randomBaseline, TranscriptIndex, transcriptIndexPath } from '../../../mcp-servers/transcripts/index.ts';
import { startTranscriptsServer } from '../../../src/mcp/environments/transcripts.ts';
import type { Task } from '../../../src/schemas/task.ts';

const CALLS = 2000;
let dataDir: string;
let client: Client;
const previousDataDir = process.env.SANDBOX_DATA_DIR;

// The factory reads only the task's id and environment.
const task = { id: 'transcripts-test', environment: { servers: [], database: 'contact-center' } } as unknown as Task;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'transcripts-cc-'));
  process.env.SANDBOX_DATA_DIR = dataDir;
  const server = await startTranscriptsServer({ name: 'transcripts', options: { calls: CALLS } }, { task });
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await server.connect(serverTransport);
  client = new Client({ name: 'test', version: '0' });
  await client.connect(clientTransport);
});

afterAll(async () => {
  await client?.close();
  if (previousDataDir === undefined) delete process.env.SANDBOX_DATA_DIR;
  else process.env.SANDBOX_DATA_DIR = previousDataDir;
  await rm(dataDir, { recursive: true, force: true });
});

describe('transcripts server on the contact-center database', () => {
  it('is started by the environment factory with database and index built on demand', async () => {
    const result = (await client.callTool({ name: 'search_transcripts', arguments: { query: 'speak to a supervisor', k: 5, filters: { escalated: true } } })) as CallToolResult;
    expect(result.isError).toBeFalsy();
    const body = JSON.parse((result.content[0] as { text: string }).text);
    expect(body.results).toHaveLength(5);
    expect(body.results.every((hit: { escalated: boolean; text: string }) => hit.escalated && /supervisor|manager/i.test(hit.text))).toBe(true);
    const transcript = (await client.callTool({ name: 'get_transcript', arguments: { call_id: body.results[0].call_id } })) as CallToolResult;
    expect(JSON.parse((transcript.content[0] as { text: string }).text).turns.length).toBeGreaterThan(8);
  });

  it('the labelled set: relevance by SQL, never the filter itself, and BM25 with expansion far above random', async () => {
    const dbPath = databasePath('contact-center', { calls: CALLS });
    const queries = await generateLabelledQueries(dbPath);
    expect(queries.length).toBeGreaterThanOrEqual(60);
    // A query whose relevant calls were all the calls passing its filters would measure the filter, not retrieval.
    for (const query of queries) expect(query.relevantCallIds.length, query.id).toBeLessThan(query.candidates);
    expect(queries.filter((query) => query.relevantCallIds.length > 0).length).toBeGreaterThanOrEqual(queries.length - 2);
    const index = await TranscriptIndex.open(transcriptIndexPath(dbPath));
    try {
      const { mean } = await evaluateRetrieval(index, queries, { level: 'call' });
      const random = randomBaseline(queries);
      expect(mean.precision_at_10).toBeGreaterThan(random.precision_at_10 + 0.35);
      expect(mean.ndcg_at_10).toBeGreaterThan(random.ndcg_at_10 + 0.35);
      expect(mean.mrr).toBeGreaterThan(random.mrr + 0.3);
    } finally {
      index.close();
    }
  }, 300_000);

  it('gives the same labelled queries on every read', async () => {
    const dbPath = databasePath('contact-center', { calls: CALLS });
    expect(await generateLabelledQueries(dbPath)).toEqual(await generateLabelledQueries(dbPath));
  }, 300_000);
});
