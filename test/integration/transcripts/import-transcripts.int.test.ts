// Users' own transcripts: `sandbox db import-transcripts` (the real CLI) on a CSV with other column names and
// three malformed rows, then the transcripts server (real MCP client, real LanceDB index) searching what was
// imported, including by a paraphrase that shares no content word with the call. Query syntax, negation and
// tie-breaks are checked on the same imported index, whose texts the test wrote.
import { spawnSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, importTranscripts, TranscriptIndex, transcriptIndexPath } from '../../../mcp-servers/transcripts/index.ts';
import { REPO_ROOT } from '../../../src/data-dir.ts';

let directory: string;
let dbPath: string;
let cli: ReturnType<typeof spawnSync>;

// Lines are numbered as a user reads the file: the header is line 1.
const CSV = [
  'conversation,role,utterance,offset', //                                                   line 1
  'K1,agent,"Thanks for calling, how can I help?",0', //                                     line 2
  'K1,customer,"My wifi keeps cutting out every evening, the router light blinks red",4.5', // line 3
  'K1,agent,I could not resolve it today; a technician will call you back,9', //             line 4
  'K2,customer,too,many,fields', //                                                          line 5: bad (5 fields)
  'K2,agent,short', //                                                                       line 6: bad (3 fields)
  'K3,customer,,3', //                                                                       line 7: bad (no text)
  'K4,customer,I would like to close my account and move to a cheaper carrier,1', //         line 8
  'K4,agent,Done: your account is resolved and closed,6', //                                line 9
  'K5,customer,I would like to close my account today,1', //                                line 10
  'K6,customer,I would like to close my account today,1', //                                line 11
].join('\n');

function sandbox(...args: string[]) {
  return spawnSync(process.execPath, [path.join(REPO_ROOT, 'bin/sandbox.js'), ...args], { cwd: REPO_ROOT, encoding: 'utf8', timeout: 120_000 });
}

beforeAll(async () => {
  directory = await mkdtemp(path.join(os.tmpdir(), 'import-transcripts-'));
  await writeFile(path.join(directory, 'calls.csv'), CSV);
  await writeFile(path.join(directory, 'meta.csv'), 'call_id,started_at,queue,resolved\nK1,2026-03-01 10:00:00,technical_support,false\nK4,2026-03-02 09:00:00,retention,true\nK5,2026-03-05 09:00:00,retention,true\nK6,2026-03-04 09:00:00,retention,true\n');
  dbPath = path.join(directory, 'mine.duckdb');
  cli = sandbox('db', 'import-transcripts', '--from', path.join(directory, 'calls.csv'), '--calls', path.join(directory, 'meta.csv'),
    '--map', 'call_id=conversation,speaker=role,text=utterance,start=offset', '--db', dbPath);
}, 180_000);

afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

describe('sandbox db import-transcripts', () => {
  it('imports the good rows and reports each bad one by its line', async () => {
    expect(cli.stderr).toBe(
      [
        `${path.join(directory, 'calls.csv')}:line 5: too many columns: expected number of columns: 4 found: 5`,
        `${path.join(directory, 'calls.csv')}:line 6: missing columns: expected number of columns: 4 found: 3`,
        `${path.join(directory, 'calls.csv')}:line 7: no text (utterance)`,
        '',
      ].join('\n'),
    );
    expect(cli.status).toBe(0);
    expect(cli.stdout).toMatch(/imported 7 turns of 4 calls .*skipped 3 bad rows/);
    const instance = await DuckDBInstance.create(dbPath, { access_mode: 'READ_ONLY' });
    const connection = await instance.connect();
    const turns = (await connection.runAndReadAll('SELECT call_id, turn_index, speaker, start_s, text FROM transcript_turns ORDER BY call_id, turn_index')).getRowsJS();
    const calls = (await connection.runAndReadAll('SELECT call_id, queue, resolved FROM calls ORDER BY call_id')).getRowsJS();
    connection.closeSync();
    instance.closeSync();
    expect(turns.map((row) => `${row[0]}:${row[1]}:${row[2]}`)).toEqual(['K1:0:agent', 'K1:1:customer', 'K1:2:agent', 'K4:0:customer', 'K4:1:agent', 'K5:0:customer', 'K6:0:customer']);
    expect(turns[1]![4]).toBe('My wifi keeps cutting out every evening, the router light blinks red');
    expect(calls).toEqual([['K1', 'technical_support', false], ['K4', 'retention', true], ['K5', 'retention', true], ['K6', 'retention', true]]);
  });

  it('refuses a map that names a missing column, and --strict imports nothing when a row is bad', async () => {
    const missing = sandbox('db', 'import-transcripts', '--from', path.join(directory, 'calls.csv'), '--map', 'call_id=conversation,text=body', '--db', path.join(directory, 'x.duckdb'));
    expect(missing.status).toBe(4);
    expect(missing.stderr).toMatch(/no column "body" for text; columns: conversation, role, utterance, offset/);
    const badMap = sandbox('db', 'import-transcripts', '--from', path.join(directory, 'calls.csv'), '--map', 'callid=conversation', '--db', path.join(directory, 'x.duckdb'));
    expect(badMap.status).toBe(2);
    const strict = sandbox('db', 'import-transcripts', '--strict', '--no-index', '--from', path.join(directory, 'calls.csv'),
      '--map', 'call_id=conversation,speaker=role,text=utterance,start=offset', '--db', path.join(directory, 'strict.duckdb'));
    expect(strict.status).toBe(4);
    expect(spawnSync('ls', [directory], { encoding: 'utf8' }).stdout).not.toMatch(/strict/);
  }, 180_000);

  it('reads JSONL with line numbers for invalid lines', async () => {
    const file = path.join(directory, 'turns.jsonl');
    await writeFile(file, '{"call_id":"J1","speaker":"agent","text":"hello"}\nnot json\n\n{"call_id":"J1","text":"my bill is wrong","start_s":"soon"}\n{"call_id":"J1","text":"ok"}\n');
    const result = await importTranscripts({ from: file, dbPath: path.join(directory, 'j.duckdb') });
    expect(result.bad).toEqual([{ line: 2, reason: 'not a JSON object' }, { line: 4, reason: 'start (start_s) is not a number' }]);
    expect(result.turns).toBe(2);
  });

  it('is searched by the transcripts server: a paraphrase finds the call, syntax and negation work', async () => {
    const server = await createServer({ indexPath: transcriptIndexPath(dbPath), dbPath });
    const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
    await server.connect(serverTransport);
    const client = new Client({ name: 'test', version: '0' });
    await client.connect(clientTransport);
    const search = async (query: string, extra: Record<string, unknown> = {}) => {
      const result = (await client.callTool({ name: 'search_transcripts', arguments: { query, k: 5, ...extra } })) as CallToolResult;
      expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
      const structured = result.structuredContent as { results: Array<{ call_id: string; text: string }> };
      // The text content and the structured content carry the same result.
      expect(JSON.parse((result.content[0] as { text: string }).text)).toEqual(structured);
      return structured.results.map((hit) => hit.call_id);
    };
    try {
      // "shut" → "close" (WordNet synonym): no content word of the query is in K4's text.
      expect((await search('shut it down and go elsewhere'))[0]).toBe('K4');
      // Phrase: adjacent words only; exclusion; OR.
      expect(await search('"cheaper carrier"')).toEqual(['K4']);
      expect((await search('close account -cheaper')).sort()).toEqual(['K5', 'K6']);
      expect((await search('wifi OR carrier')).sort()).toEqual(['K1', 'K4']);
      // Negation: K1 says it could *not* resolve; K4 says resolved.
      expect(await search('resolved')).toEqual(['K4']);
      // "not resolved" ranks K1 (could not resolve) first; K4's "resolved" matches only the word itself, which a
      // negated word also searches at expansion weight (full-text-query.ts), so it comes after.
      expect(await search('not resolved')).toEqual(['K1', 'K4']);
      expect(await search('unresolved')).toEqual(['K1']);
      // Equal scores (K5 and K6 say the same words): the more recent call first (K5, 2026-03-05), every time.
      const tied = await search('close my account today', { filters: { queue: 'retention' } });
      expect(tied.slice(0, 2)).toEqual(['K5', 'K6']);
      // Call-level results: one per call.
      expect(new Set(await search('account', { group_by: 'call' })).size).toBe(3);
    } finally {
      await client.close();
    }
  });

  it('matches a typo fuzzily when asked (off by default: it lowered precision on the labelled set)', async () => {
    const index = await TranscriptIndex.open(transcriptIndexPath(dbPath), undefined, { fuzzy: true });
    try {
      expect((await index.search({ query: 'routr', k: 5 })).hits.map((hit) => hit.call_id)).toEqual(['K1']);
    } finally {
      index.close();
    }
  });

  it('does not find the paraphrase without expansion (the expansion is what found it)', async () => {
    const index = await TranscriptIndex.open(transcriptIndexPath(dbPath), undefined, { wordNet: false, morphology: false, fuzzy: false });
    try {
      expect((await index.search({ query: 'shut it down and go elsewhere', k: 5 })).hits.map((hit) => hit.call_id)).not.toContain('K4');
    } finally {
      index.close();
    }
  });
});
