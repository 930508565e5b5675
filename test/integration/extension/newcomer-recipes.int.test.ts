import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../../src/data-dir.ts';

// AGENTS.md's newcomer recipes, applied to a temporary copy of the repository exactly as written there:
// - "Add a constraint category": the validator file in constraints/ and one schema entry in src/schemas/constraint.ts;
// - "Add a server": its folder in mcp-servers/ and one line in mcp-servers/registry.ts;
// - "Add an episode style": its folder in src/styles/ and one line in src/styles/registry.ts.
// Nothing else of the copy changes. The fixtures are test/fixtures/extension/ (a toy category, server and style).
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

/** The demo task played as the toy style `quiz` (test/fixtures/extension/styles/quiz/): its answer must name Lisbon. */
function quizTask(dir: string): string {
  const task = JSON.parse(readFileSync(path.join(REPO_ROOT, 'episodes/demo/demo.json'), 'utf8')) as Record<string, unknown>;
  const file = path.join(dir, 'quiz-demo.json');
  writeFileSync(file, `${JSON.stringify({ ...task, id: 'quiz-demo', style: 'quiz', grading: { expected: 'Lisbon' } }, null, 2)}\n`);
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
  // Recipe 3: the style's folder + one registry line.
  cpSync(path.join(fixtures, 'styles/quiz'), path.join(copy, 'src/styles/quiz'), { recursive: true });
  insertAfter(path.join(copy, 'src/styles/registry.ts'), 'export const STYLES', readFileSync(path.join(fixtures, 'style-registry-line.txt'), 'utf8'));
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

  it('without the recipe, a task of the toy style is refused when it loads (exit 3, naming the style field)', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'sandbox-recipes-task-'));
    const result = sandbox(REPO_ROOT, ['lint', quizTask(dir), '--no-reference']);
    expect(result.code).toBe(3);
    expect(result.stderr).toMatch(/style/);
  });

  it('a new episode style is played, graded, indexed, viewed and reported with no other file changed', async () => {
    const suite = path.join(copy, 'quiz-suite');
    mkdirSync(suite);
    quizTask(suite);
    const out = path.join(copy, 'runs/quiz');
    const run = sandbox(copy, ['run', '--suite', suite, '--model', 'reference', '--out', out]);
    expect(run.stderr).not.toMatch(/Error/);
    expect(run.code).toBe(0);
    // The demo reference answers "… in [[Lisbon]] …": the toy grader's rule (the answer contains the expected words) passes it.
    expect(run.stdout).toMatch(/Quiz: answers found/);
    const summary = JSON.parse(readFileSync(path.join(out, 'summary.json'), 'utf8')) as { episodes: Array<{ score: { style: string; passed: boolean } }>; tables: Array<{ title: string; rows: unknown[][] }> };
    expect(summary.episodes[0]!.score).toMatchObject({ style: 'quiz', passed: true });
    expect(summary.tables.find((table) => table.title === 'Quiz: answers found')!.rows).toEqual([[1, 1]]);

    const grade = sandbox(copy, ['grade', out, '--json']);
    expect(grade.code).toBe(0);
    expect(grade.stdout).toMatch(/"style": ?"quiz"/);

    const store = path.join(copy, 'runs/results.duckdb');
    const results = sandbox(copy, ['results', out, '--store', store, '--json']);
    expect(results.code).toBe(0);
    expect(results.stdout).toMatch(/quiz/);

    const report = sandbox(copy, ['report', out, '--format', 'md', '--out', '-']);
    expect(report.code).toBe(0);
    expect(report.stdout).toMatch(/quiz-demo/);

    // The viewer's API: the run's figures carry the style's own (its table in the store), the episode its expected panel.
    const viewer = spawn(process.execPath, [path.join(copy, 'bin/sandbox.js'), 'view', out, '--store', path.join(copy, 'runs/view.duckdb')], { cwd: copy });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let text = '';
        viewer.stdout.on('data', (chunk: Buffer) => {
          text += chunk.toString();
          const match = /viewer: (\S+)/.exec(text);
          if (match) resolve(match[1]!.replace(/\/$/, ''));
        });
        viewer.on('exit', (code) => reject(new Error(`sandbox view exited ${code}`)));
      });
      const runDetail = await (await fetch(`${url}/api/run?dir=${encodeURIComponent(out)}`)).json() as { quizAnswers: unknown[] };
      expect(runDetail.quizAnswers).toEqual([{ task_id: 'quiz-demo', expected: 'Lisbon' }]);
      const episode = await (await fetch(`${url}/api/episode?id=${encodeURIComponent(path.join(out, 'quiz-demo.0.jsonl'))}`)).json() as { expected: Record<string, unknown> };
      expect(episode.expected).toMatchObject({ available: true, panel: 'quiz-answer', rows: [{ expected: 'Lisbon', answer: expect.stringContaining('[[Lisbon]]') }] });
    } finally {
      viewer.kill();
    }
  });
});
