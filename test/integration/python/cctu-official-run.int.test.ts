import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../../src/data-dir.ts';
import { EXPECTED, writeCctuFixture, type CctuFixture } from '../../support/cctu-fixture.ts';

// The acceptance path of CCTU's own benchmark, through the real CLI: a fixture in CCTU's format is imported, a
// scripted model plays the suite with the Python tools and validators in the Python sandbox, and the SR/PSR the run
// reports are the hand computation of test/support/cctu-fixture.ts (CCTU's rules); then one imported task is served
// over MCP to a client.

const run = promisify(execFile);
const SANDBOX = path.join(REPO_ROOT, 'bin/sandbox.js');

let fixture: CctuFixture;
let suite: string;

beforeAll(async () => {
  fixture = writeCctuFixture();
  suite = path.join(fixture.dir, 'suite');
  await run(process.execPath, [SANDBOX, 'import', 'cctu', '--data', fixture.data, '--check-code', fixture.checkCode, '--out', suite], { timeout: 120_000 });
}, 180_000);

const mean = (values: number[]) => (100 * values.reduce((sum, value) => sum + value, 0)) / values.length;

describe('an imported CCTU suite', () => {
  it('runs with a scripted model, and its SR/PSR are CCTU\'s by hand', { timeout: 300_000 }, async () => {
    const out = path.join(fixture.dir, 'run');
    const { stdout } = await run(process.execPath, [SANDBOX, 'run', '--suite', suite, '--model', `scripted:${fixture.script}`, '--out', out, '--concurrency', '2'], { timeout: 280_000 });
    const summary = JSON.parse(readFileSync(path.join(out, 'summary.json'), 'utf8')) as {
      episodes: Array<{ taskId: string; status: string; score: { metrics: Record<string, number> } }>;
      tables: Array<{ title: string; rows: Array<Array<string | number>> }>;
    };
    // Per episode: the hand computation.
    for (const [sample, expected] of Object.entries(EXPECTED)) {
      const episode = summary.episodes.find((candidate) => candidate.taskId === `cctu-${sample}`);
      expect(episode, sample).toBeDefined();
      expect(episode!.status).toBe('completed');
      expect({ sr: episode!.score.metrics.sr, psr: episode!.score.metrics.psr }, sample).toEqual(expected);
    }
    // Per data source and per structure, one repeat: the mean of the hand-computed scores (std 0).
    const rows = (title: RegExp) => summary.tables.find((table) => title.test(table.title))!.rows;
    const group = (predicate: (sample: string) => boolean) => Object.entries(EXPECTED).filter(([sample]) => predicate(sample)).map(([, score]) => score);
    const row = (name: string, scores: Array<{ sr: number; psr: number }>) => [name, scores.length, `${mean(scores.map((s) => s.sr)).toFixed(1)} ± 0.0`, `${mean(scores.map((s) => s.psr)).toFixed(1)} ± 0.0`];
    const literature = (sample: string) => sample === '1_single_hop' || sample === '2_multi_hop';
    expect(rows(/by data source/)).toEqual([row('geography', group((s) => !literature(s))), row('literature', group(literature)), row('overall', group(() => true))]);
    expect(rows(/by structure/)).toEqual([row('multi_hop', group((s) => s.endsWith('multi_hop'))), row('single_hop', group((s) => s.endsWith('single_hop'))), row('overall', group(() => true))]);
    expect(stdout).toContain('CCTU official: SR / PSR by data source');
  });

  it('serves one imported task to an MCP client, its Python tool answering through the gateway', { timeout: 180_000 }, async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [SANDBOX, 'serve', '--task', path.join(suite, 'cctu-1_single_hop.json'), '--out', path.join(fixture.dir, 'served')],
      stderr: 'pipe',
    });
    const client = new Client({ name: 'cctu-acceptance', version: '1.0.0' });
    await client.connect(transport);
    try {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(['author_finder', 'birthplace_finder', 'submit_answer']));
      const found = await client.callTool({ name: 'author_finder', arguments: { book: 'Emma' } });
      // CCTU's tool text: the dict as json.dumps(..., ensure_ascii=False).
      expect(found.content).toEqual([{ type: 'text', text: '{"book": "Emma", "author": "Jane Austen"}' }]);
      const rejected = await client.callTool({ name: 'submit_answer', arguments: { answer: 'Jane Austen wrote it' } });
      expect((rejected.content as Array<{ text: string }>)[0]!.text).toMatch(/INSTRUCTION FOLLOWING ERROR: RESPONSE PUNCTUATION NOT FOLLOWED!/);
      const accepted = await client.callTool({ name: 'submit_answer', arguments: { answer: 'Jane Austen wrote it.' } });
      expect(accepted.isError).toBeFalsy();
    } finally {
      await client.close();
    }
  });
});
