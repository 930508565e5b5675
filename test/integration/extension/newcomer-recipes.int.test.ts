import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../../src/data-dir.ts';

// AGENTS.md's two newcomer recipes, applied to a temporary copy of the repository exactly as written there:
// - "Add a constraint category": the validator file in constraints/ and one schema entry in src/schemas/constraint.ts;
// - "Add a server": its folder in mcp-servers/ and one line in mcp-servers/registry.ts.
// Nothing else of the copy changes. The fixtures are test/fixtures/extension/ (a toy category, a toy server).
const fixtures = path.join(REPO_ROOT, 'test/fixtures/extension');
let copy: string;

function sandbox(root: string, args: string[]): { code: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [path.join(root, 'bin/sandbox.js'), ...args], { cwd: root, encoding: 'utf8', timeout: 240_000 });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** Inserts `line` after the line containing `anchor` (the recipe's "one entry"); the anchor must be there once. */
function insertAfter(file: string, anchor: string, line: string): void {
  const text = readFileSync(file, 'utf8');
  const at = text.indexOf(anchor);
  expect(at, `${anchor} in ${file}`).toBeGreaterThan(-1);
  expect(text.indexOf(anchor, at + 1)).toBe(-1);
  const end = text.indexOf('\n', at) + 1;
  writeFileSync(file, text.slice(0, end) + line + text.slice(end));
}

/** The demo task with the toy category added: calling city_weather_forecast is forbidden. */
function toyTask(dir: string): string {
  const task = JSON.parse(readFileSync(path.join(REPO_ROOT, 'episodes/demo/demo.json'), 'utf8')) as { id: string; constraints: unknown[] };
  task.id = 'toy-demo';
  task.constraints.push({ id: 'no-forecast', category: 'toy.forbidden_tools', params: { tools: ['city_weather_forecast'] } });
  const file = path.join(dir, 'toy-demo.json');
  writeFileSync(file, `${JSON.stringify(task, null, 2)}\n`);
  return file;
}

beforeAll(() => {
  copy = mkdtempSync(path.join(tmpdir(), 'sandbox-recipes-'));
  const tracked = execFileSync('git', ['ls-files', '-z'], { cwd: REPO_ROOT, encoding: 'utf8' }).split('\0').filter(Boolean);
  for (const file of tracked) {
    if (file.startsWith('episodes/') && !file.startsWith('episodes/demo/')) continue; // the suites are not needed
    mkdirSync(path.dirname(path.join(copy, file)), { recursive: true });
    try {
      cpSync(path.join(REPO_ROOT, file), path.join(copy, file));
    } catch {
      // a file deleted in the working tree
    }
  }
  symlinkSync(path.join(REPO_ROOT, 'node_modules'), path.join(copy, 'node_modules'));
  // Recipe 1: the category's validator + one schema entry.
  cpSync(path.join(fixtures, 'constraints/toy.forbidden_tools.js'), path.join(copy, 'constraints/toy.forbidden_tools.js'));
  insertAfter(path.join(copy, 'src/schemas/constraint.ts'), 'A new built-in category: one entry here', readFileSync(path.join(fixtures, 'schema-entry.txt'), 'utf8'));
  // Recipe 2: the server's folder + one registry line.
  cpSync(path.join(fixtures, 'mcp-servers/echo'), path.join(copy, 'mcp-servers/echo'), { recursive: true });
  insertAfter(path.join(copy, 'mcp-servers/registry.ts'), 'export const PLAIN_SERVERS', readFileSync(path.join(fixtures, 'registry-line.txt'), 'utf8'));
}, 120_000);

afterAll(() => {
  if (copy) rmSync(copy, { recursive: true, force: true });
});

describe('the newcomer recipes (AGENTS.md)', { timeout: 600_000 }, () => {
  it('without the recipe, the toy category is refused when the task loads (exit 3)', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'sandbox-recipes-task-'));
    const result = sandbox(REPO_ROOT, ['lint', toyTask(dir), '--no-reference']);
    expect(result.code).toBe(3);
    expect(result.stderr).toMatch(/constraints\[5\]\.category/);
  });

  it('a new constraint category validates a step: lint finds the reference breaking it, and a played episode blocks the call', () => {
    const task = toyTask(copy);
    // The demo reference calls city_weather_forecast in its second message; the toy rule forbids that tool.
    const lint = sandbox(copy, ['lint', task, '--json']);
    expect(lint.stderr).not.toMatch(/Error/);
    const issues = JSON.parse(lint.stdout) as Array<{ constraints: string[]; kind: string; message: string }>;
    expect(issues).toContainEqual(expect.objectContaining({ constraints: ['no-forecast'], kind: 'reference', message: expect.stringMatching(/round 2: .*FORBIDDEN TOOLS NOT FOLLOWED!.*city_weather_forecast/) }));

    const out = path.join(copy, 'runs/toy');
    const run = sandbox(copy, ['run', '--suite', task, '--model', 'reference', '--out', out]);
    expect(run.stderr).not.toMatch(/Error:/);
    const validate = sandbox(copy, ['validate', path.join(out, 'toy-demo.0.jsonl')]);
    expect(validate.stdout).toMatch(/round 2: city_weather_forecast#\S+\n {2}no-forecast would block \S+: INSTRUCTION FOLLOWING ERROR: FORBIDDEN TOOLS NOT FOLLOWED!/);
    // Violated in round 2, not at the last checked step (the answer): `soft-satisfied` (src/validator/constraint-status.ts).
    expect(validate.stdout).toMatch(/no-forecast\s+toy\.forbidden_tools\s+soft-satisfied/);
  });

  it('a new server is listed by mcp-config and served by sandbox serve, with its own flags', async () => {
    const config = sandbox(copy, ['mcp-config', '--server', 'echo', '--prefix', '>> ', '--json']);
    expect(config.code).toBe(0);
    const entry = (JSON.parse(config.stdout) as { mcpServers: Record<string, { command: string; args: string[] }> }).mcpServers['agent-sandbox-echo']!;
    expect(entry.args).toEqual(['--no-node-snapshot', path.join(copy, 'bin/sandbox.js'), 'serve', '--server', 'echo', '--prefix', '>> ']);
    // The entry's command line, run by a real MCP client over stdio.
    const client = new Client({ name: 'recipes-test', version: '1.0.0' });
    await client.connect(new StdioClientTransport({ command: entry.command, args: entry.args, cwd: copy, stderr: 'pipe' }));
    try {
      expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['echo']);
      const result = (await client.callTool({ name: 'echo', arguments: { text: 'hi' } })) as { content: Array<{ text: string }> };
      expect(result.content[0]!.text).toBe('>> hi');
    } finally {
      await client.close();
    }
  });
});
