// Many tool calls in flight under one episode signal (an executed plan pages a step's rows with up to 9 calls at once,
// and independent steps run together): Node warns past 10 listeners on one signal (MaxListenersExceededWarning,
// printed once per call past the tenth in `sandbox run --suite episodes/plan --execute`), so the signal carries one
// listener for all of them; aborting it still cancels every call in flight, and calls that ended hold nothing.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { connectServer, type McpConnection } from '../../../src/mcp/connect-server.ts';

function slowServer(): McpServer {
  const server = new McpServer({ name: 'slow', version: '1.0.0' });
  server.registerTool('wait', { inputSchema: { ms: z.number() } }, async ({ ms }, extra) => {
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      extra.signal.addEventListener('abort', () => { clearTimeout(timer); resolve(); });
    });
    return { content: [{ type: 'text', text: `waited ${ms}` }] };
  });
  return server;
}

describe('tool calls in flight under one episode signal', () => {
  const warnings: Error[] = [];
  const onWarning = (warning: Error) => warnings.push(warning);
  let connection: McpConnection;
  beforeEach(async () => {
    warnings.length = 0;
    process.on('warning', onWarning);
    connection = await connectServer('slow', { kind: 'in-memory', server: slowServer() });
  });
  afterEach(async () => {
    process.off('warning', onWarning);
    await connection.close();
  });

  it('30 at once, twice over: every one answered, no MaxListenersExceededWarning', async () => {
    const episode = new AbortController();
    for (let round = 0; round < 2; round += 1) {
      const outcomes = await Promise.all(Array.from({ length: 30 }, () => connection.callTool('wait', { ms: 20 }, { timeoutMs: 5_000, maxBytes: 1_000, signal: episode.signal })));
      expect(outcomes.map((outcome) => outcome.content)).toEqual(Array.from({ length: 30 }, () => 'waited 20'));
    }
    await new Promise((resolve) => setImmediate(resolve));
    expect(warnings.filter((warning) => warning.name === 'MaxListenersExceededWarning')).toEqual([]);
  });

  it('aborting the episode cancels all 30 calls in flight; a call made after the abort is cancelled at once', async () => {
    const episode = new AbortController();
    const pending = Promise.all(Array.from({ length: 30 }, () => connection.callTool('wait', { ms: 10_000 }, { timeoutMs: 20_000, maxBytes: 1_000, signal: episode.signal })));
    setTimeout(() => episode.abort(new Error('wall time')), 50);
    const started = performance.now();
    const outcomes = await pending;
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(new Set(outcomes.map((outcome) => outcome.content))).toEqual(new Set(['Tool wait was cancelled: the episode is ending.']));
    const late = await connection.callTool('wait', { ms: 10_000 }, { timeoutMs: 20_000, maxBytes: 1_000, signal: episode.signal });
    expect(late).toMatchObject({ content: 'Tool wait was cancelled: the episode is ending.', isError: true });
  });
});
