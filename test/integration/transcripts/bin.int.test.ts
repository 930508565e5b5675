// The transcripts server as a process, the way Claude Desktop or another client runs it: over stdio, and over
// Streamable HTTP on 127.0.0.1 with a bearer token.
import { spawn, type ChildProcess } from 'node:child_process';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../../src/data-dir.ts';
import { createTinyContactCenter } from '../../unit/transcripts/tiny-contact-center.ts';

const bin = path.join(REPO_ROOT, 'mcp-servers/transcripts/bin.ts');
const nodeArgs = ['--no-node-snapshot', '--import', 'tsx', bin];
let dbPath: string;

async function firstHitCallId(client: Client): Promise<string> {
  const result = (await client.callTool({ name: 'search_transcripts', arguments: { query: 'premium plan unlimited data', k: 1 } })) as CallToolResult;
  return JSON.parse((result.content[0] as { text: string }).text).results[0].call_id;
}

beforeAll(async () => {
  dbPath = await createTinyContactCenter();
});

afterAll(async () => {
  await rm(path.dirname(dbPath), { recursive: true, force: true });
});

describe('transcripts bin', () => {
  it('serves over stdio, building the index from --db', async () => {
    const client = new Client({ name: 'test', version: '0' });
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [...nodeArgs, '--db', dbPath], cwd: REPO_ROOT, stderr: 'ignore' }));
    try {
      expect(await firstHitCallId(client)).toBe('C-0000005');
    } finally {
      await client.close();
    }
  });

  it('serves Streamable HTTP on 127.0.0.1 and refuses a request without the token', async () => {
    const child: ChildProcess = spawn(process.execPath, [...nodeArgs, '--db', dbPath, '--http', '127.0.0.1:0', '--token', 'secret'], {
      cwd: REPO_ROOT,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let stderr = '';
        child.stderr!.on('data', (chunk: Buffer) => {
          stderr += chunk.toString();
          const match = /transcripts server: (http:\/\/\S+)/.exec(stderr);
          if (match) resolve(match[1]!);
        });
        child.once('exit', (code) => reject(new Error(`server exited with ${code}: ${stderr}`)));
      });
      const refused = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
      expect(refused.status).toBe(401);
      const client = new Client({ name: 'test', version: '0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { authorization: 'Bearer secret' } } }));
      expect(await firstHitCallId(client)).toBe('C-0000005');
      await client.close();
    } finally {
      child.kill('SIGTERM');
    }
  });
});
