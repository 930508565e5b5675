import { ConstraintSchema } from '../../../src/schemas/constraint.ts';
import { describe, expect, it } from 'vitest';
import { generateSuite } from '../../../episodes/cctu-generator/index.ts';
import { main } from '../../../src/cli/main.ts';
import { lintTask, referenceIssues } from '../../../src/lint/index.ts';
import type { CctuTask } from '../../../src/schemas/cctu-task.ts';
import type { Constraint } from '../../../src/schemas/constraint.ts';
import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

const suite = generateSuite({ seed: 5, perStructure: 3 });
const multiHop = suite.find((task) => task.grading.structure === 'multi-hop') as CctuTask;

function withConstraints(task: CctuTask, constraints: Constraint[]): CctuTask {
  return { ...task, constraints };
}

describe('lintTask', () => {
  it('finds nothing in generated tasks', () => {
    expect(suite.flatMap(lintTask)).toEqual([]);
  });

  it('reports a tool-call max below the calls the subqueries need', () => {
    const issues = lintTask(withConstraints(multiHop, [{ id: 'calls', category: 'resource.tool_call_count', params: { min: 0, max: 1 } }]));
    expect(issues).toEqual([expect.objectContaining({ kind: 'infeasible', constraints: ['calls'], message: expect.stringMatching(/at most 1 tool calls, but the subqueries need at least [23] \(one call each of /) })]);
  });

  it('reports a round max below the dependent steps plus the answer; a min above its max never loads', () => {
    const issues = lintTask(withConstraints(multiHop, [{ id: 'r2', category: 'resource.interaction_rounds', params: { min: 0, max: 2 } }]));
    expect(issues.map((issue) => [issue.constraints[0], issue.kind])).toEqual([['r2', 'infeasible']]);
    expect(issues[0]?.message).toMatch(/needs \d steps of tool calls and a final answer/);
    const inverted = ConstraintSchema.safeParse({ id: 'r1', category: 'resource.interaction_rounds', params: { min: 10, max: 9 } });
    expect(inverted.success).toBe(false);
    expect(inverted.error?.issues[0]?.path).toEqual(['params', 'max']);
  });

  it('reports a JSON-only answer that must end with a period, and bold in plain text', () => {
    const issues = lintTask(
      withConstraints(multiHop, [
        { id: 'json', category: 'response.format', params: { format: 'json', requiredKeys: ['answer'] } },
        { id: 'period', category: 'response.content', params: { endingPunctuation: '.' } },
      ]),
    );
    expect(issues).toEqual([expect.objectContaining({ kind: 'conflict', constraints: ['json', 'period'], message: 'the answer must be only a JSON object and also end with "."' })]);
    const plain = lintTask(
      withConstraints(multiHop, [
        { id: 'plain', category: 'response.format', params: { format: 'plain' } },
        { id: 'bold', category: 'response.content', params: { identifiers: ['bold'] } },
      ]),
    );
    expect(plain[0]?.kind).toBe('conflict');
  });

  it('reports chains and groups naming tools the task lacks, and a group split by a chain', () => {
    const [a, b] = multiHop.tools.map((tool) => tool.name);
    const issues = lintTask(
      withConstraints(multiHop, [
        { id: 'order', category: 'behavior.sequential_dependencies', params: { chains: [[a as string, 'no_such_tool'], [a as string, b as string]] } },
        { id: 'together', category: 'behavior.parallel_dependencies', params: { groups: [[a as string, b as string]] } },
      ]),
    );
    expect(issues.map((issue) => issue.kind)).toEqual(['unknown-tool', 'conflict']);
    expect(issues[0]?.message).toBe('behavior.sequential_dependencies names no_such_tool, which the task does not declare');
  });

  it('`sandbox lint` exits 1 and names the file when a task has an issue, 0 when none', async () => {
    const folder = await mkdtemp(path.join(os.tmpdir(), 'cctu-lint-'));
    await writeFile(path.join(folder, 'good.json'), JSON.stringify(suite[0]));
    expect(await main(['lint', folder])).toBe(0);
    const bad = withConstraints(multiHop, [{ id: 'calls', category: 'resource.tool_call_count', params: { min: 0, max: 1 } }]);
    await writeFile(path.join(folder, 'bad.json'), JSON.stringify(bad));
    expect(await main(['lint', path.join(folder, 'bad.json')])).toBe(1);
  });

  it('plays the reference through the validators and reports what it breaks', () => {
    expect(suite.flatMap((task) => referenceIssues(task))).toEqual([]);
    const broken = withConstraints(multiHop, [{ id: 'period', category: 'response.content', params: { endingPunctuation: '!' } }]);
    expect(referenceIssues(broken)).toEqual([
      expect.objectContaining({ kind: 'reference', constraints: ['period'], message: expect.stringMatching(/^the reference breaks it in round \d: .*must end with "!"/) }),
    ]);
  });
});
