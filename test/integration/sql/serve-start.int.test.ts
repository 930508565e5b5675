// How a client starts the SQL server (the command line `sandbox mcp-config --server sql` prints): one Node process,
// started with its start-up snapshot (the SQL server loads no isolated-vm, bin/node-flags.js), not a second Node
// that bin/sandbox.js starts with --no-node-snapshot; its only child is the query process. A task's gateway still
// gets the flag (its validator runs in isolated-vm).
import { readFileSync } from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { expect, it } from 'vitest';
import { serverCommandLine } from '../../../src/cli/mcp-config.ts';
import { buildSmallDatabase } from './build-small-database.ts';

const cmdline = (pid: number | string) => readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);

it('the SQL server starts as one Node process without --no-node-snapshot, its query process its only child', { timeout: 240_000 }, async () => {
  expect(serverCommandLine({ task: 'demo' })).toContain('--no-node-snapshot');
  const db = await buildSmallDatabase();
  const [command, ...args] = serverCommandLine({ server: 'sql', db });
  expect(args).not.toContain('--no-node-snapshot');
  const client = new Client({ name: 'serve-start', version: '1.0.0' });
  const transport = new StdioClientTransport({ command: command!, args, stderr: 'ignore' });
  await client.connect(transport);
  try {
    const result = await client.callTool({ name: 'execute_query', arguments: { sql: 'SELECT 42 AS answer' } });
    expect(result.structuredContent).toMatchObject({ rows: [[42]], row_count: 1 });
    const pid = transport.pid!;
    expect(cmdline(pid)).toEqual([command, ...args]);
    const children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/);
    expect(children).toHaveLength(1);
    expect(cmdline(children[0]!).join(' ')).toMatch(/query-worker\.js$|--input-type=module -e/);
  } finally {
    await client.close();
  }
});
