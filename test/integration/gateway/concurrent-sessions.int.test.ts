// 200 MCP clients playing `sandbox serve --task demo --http` at once (issue 33): every episode completed, none ended
// in error for another's load (the shared validator isolate once hit its 32 MB limit at ~120 episodes); a session past
// `--max-sessions` is answered 503 with Retry-After. Real gateway process, real SDK clients over real HTTP.
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { expect, it } from 'vitest';
import { SANDBOX, stop } from './serve-process.ts';

const ANSWER = 'It hangs in [[Lisbon]]; tomorrow brings light rain with a high of 17 °C.';
const SESSIONS = 200;

/** Peak resident memory of a process (VmHWM), in MB. */
const peakRssMb = (pid: number) => Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;

async function play(url: string): Promise<void> {
  const client = new Client({ name: 'load', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(url));
  await client.connect(transport);
  await client.callTool({ name: 'artwork_locator', arguments: { title: 'The Starry Harbor' } });
  await client.callTool({ name: 'city_weather_forecast', arguments: { city: 'Lisbon', day: 'tomorrow' } });
  const submitted = await client.callTool({ name: 'submit_answer', arguments: { answer: ANSWER } });
  if (submitted.isError) throw new Error(JSON.stringify(submitted.content));
  await transport.terminateSession();
  await client.close();
}

it(`${SESSIONS} concurrent episodes on serve --task demo: all completed, 0 errors; one more session past --max-sessions is 503 + Retry-After`, { timeout: 600_000 }, async () => {
  const out = mkdtempSync(path.join(os.tmpdir(), 'gateway-load-'));
  // Started with --no-node-snapshot so that the pid is the gateway's own (the bin would otherwise re-run itself).
  const child = spawn(process.execPath, ['--no-node-snapshot', '--', SANDBOX, 'serve', '--task', 'demo', '--out', out, '--max-sessions', String(SESSIONS), '--http', '127.0.0.1:0'], { stdio: ['ignore', 'ignore', 'pipe'] });
  const url = await new Promise<string>((resolve, reject) => {
    let log = '';
    child.stderr!.on('data', (chunk: Buffer) => {
      log += chunk.toString();
      const match = /(http:\/\/\S+\/mcp)/.exec(log);
      if (match) resolve(match[1]!);
    });
    child.once('exit', (code) => reject(new Error(`gateway exited ${code}: ${log}`)));
  });
  try {
    // Every client connects first, so that all 200 sessions are open at once, then all play.
    const clients = await Promise.all(
      Array.from({ length: SESSIONS }, async () => {
        const client = new Client({ name: 'load', version: '1.0.0' });
        const transport = new StreamableHTTPClientTransport(new URL(url));
        await client.connect(transport);
        return { client, transport };
      }),
    );
    const refused = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'one-more', version: '1' } } }),
    });
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('5');
    const outcomes = await Promise.allSettled(
      clients.map(async ({ client, transport }) => {
        await client.callTool({ name: 'artwork_locator', arguments: { title: 'The Starry Harbor' } });
        await client.callTool({ name: 'city_weather_forecast', arguments: { city: 'Lisbon', day: 'tomorrow' } });
        const submitted = await client.callTool({ name: 'submit_answer', arguments: { answer: ANSWER } });
        if (submitted.isError) throw new Error(JSON.stringify(submitted.content));
        await transport.terminateSession();
        await client.close();
      }),
    );
    const failures = outcomes.flatMap((outcome) => {
      if (outcome.status === 'fulfilled') return [];
      const reason = outcome.reason as Error & { cause?: Error & { code?: string } };
      return [`${String(reason)} ${reason.cause?.code ?? ''} ${reason.cause?.message ?? ''}`];
    });
    expect(failures).toEqual([]);
    const files = readdirSync(out).filter((name) => name.endsWith('.jsonl'));
    expect(files).toHaveLength(SESSIONS);
    const ends = files.map((name) => JSON.parse(readFileSync(path.join(out, name), 'utf8').trimEnd().split('\n').at(-1)!) as { type: string; status: string; reason: string });
    expect(ends.filter((end) => end.status !== 'completed').map((end) => end.reason)).toEqual([]);
    // With the sessions ended, a new one is taken again.
    await play(url);
    process.stdout.write(`gateway peak RSS with ${SESSIONS} sessions: ${peakRssMb(child.pid!).toFixed(0)} MB\n`);
  } finally {
    await stop(child);
  }
});
