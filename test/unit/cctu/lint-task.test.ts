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
    expect(issues).toEqual([expect.objectContaining({ kind: 'infeasible', constraints: ['calls'], message: expect.stringContaining(`at most 1 tool calls, but the subqueries need at least ${multiHop.grading.subqueries.length} (one tool output solves one subquery: `) })]);
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

  // Issue 12, section 3: the two infeasible shapes hand-written tasks slipped past, caught statically.
  it('a tool the subqueries need 3 times with at most 2 calls in all, or a per-tool cap below the reference, is infeasible without running anything', () => {
    const tool = multiHop.grading.subqueries[0]!.tool;
    const threeOfOne: CctuTask = {
      ...multiHop,
      grading: { ...multiHop.grading, subqueries: [0, 1, 2].map((index) => ({ query: `q${index}`, tool, answer: 'x' })) },
      constraints: [{ id: 'calls', category: 'resource.tool_call_count', params: { min: 0, max: 2 } }],
    };
    expect(lintTask(threeOfOne)).toEqual([
      expect.objectContaining({ kind: 'infeasible', constraints: ['calls'], message: `at most 2 tool calls, but the subqueries need at least 3 (one tool output solves one subquery: 3 of ${tool})` }),
    ]);
    const perTool = withConstraints(threeOfOne, [{ id: 'per-tool', category: 'resource.specific_tool_call_count', params: { limits: { [tool]: 2 } } }]);
    expect(lintTask(perTool)).toEqual([expect.objectContaining({ kind: 'infeasible', constraints: ['per-tool'], message: `${tool} may be called 2 times, but 3 subqueries need an output of it each` })]);
    // The reference calls each tool of its steps; a cap of 0 below that is caught from the trajectory alone.
    const called = multiHop.reference!.trajectory.flatMap((step) => ('toolCalls' in step ? step.toolCalls.map((call) => call.name) : []));
    const needed = multiHop.grading.subqueries.filter((subquery) => subquery.tool === called[0]).length;
    const made = called.filter((name) => name === called[0]).length;
    expect(made).toBeGreaterThanOrEqual(needed);
    const cap = made > needed ? needed : made - 1;
    expect(lintTask(withConstraints(multiHop, [{ id: 'cap', category: 'resource.specific_tool_call_count', params: { limits: { [called[0]!]: cap } } }]))).toEqual([
      expect.objectContaining({
        kind: 'infeasible',
        constraints: ['cap'],
        message: cap < needed ? `${called[0]} may be called ${cap} time${cap === 1 ? '' : 's'}, but ${needed} subquer${needed === 1 ? 'y needs' : 'ies need'} an output of it each` : `${called[0]} may be called ${cap} time${cap === 1 ? '' : 's'}, but the reference calls it ${made} times`,
      }),
    ]);
  });

  it('chains a -> b and b -> c with a parallel group [a, c] is a conflict (transitive, across chains)', () => {
    const [a, b, c] = multiHop.tools.map((tool) => tool.name) as [string, string, string];
    const issues = lintTask(
      withConstraints(multiHop, [
        { id: 'order', category: 'behavior.sequential_dependencies', params: { chains: [[a, b], [b, c]] } },
        { id: 'together', category: 'behavior.parallel_dependencies', params: { groups: [[a, c]] } },
      ]),
    );
    expect(issues).toEqual([
      expect.objectContaining({ kind: 'conflict', constraints: ['together', 'order'], message: `${a} and ${c} must be called in the same step (parallel group [${a}, ${c}]) and ${a} in an earlier step than ${c} (ordering chains ${a} -> ${b}; ${b} -> ${c})` }),
    ]);
  });

  it('`sandbox lint --no-reference` exits 1 on both infeasible shapes', async () => {
    const folder = await mkdtemp(path.join(os.tmpdir(), 'cctu-lint-shapes-'));
    const tool = multiHop.grading.subqueries[0]!.tool;
    const [a, b, c] = multiHop.tools.map((spec) => spec.name) as [string, string, string];
    const shapes: CctuTask[] = [
      {
        ...multiHop,
        grading: { ...multiHop.grading, subqueries: [0, 1, 2].map((index) => ({ query: `q${index}`, tool, answer: 'x' })) },
        constraints: [{ id: 'calls', category: 'resource.tool_call_count', params: { min: 0, max: 2 } }],
      },
      withConstraints(multiHop, [
        { id: 'order', category: 'behavior.sequential_dependencies', params: { chains: [[a, b], [b, c]] } },
        { id: 'together', category: 'behavior.parallel_dependencies', params: { groups: [[a, c]] } },
      ]),
    ];
    for (const [index, shape] of shapes.entries()) {
      const file = path.join(folder, `shape-${index}.json`);
      await writeFile(file, JSON.stringify(shape));
      expect(await main(['lint', file, '--no-reference'])).toBe(1);
    }
  });

  it('checks that the reference solves every subquery, one output each', async () => {
    const callsOf = (tool: string) => multiHop.reference!.trajectory.flatMap((step) => ('toolCalls' in step ? step.toolCalls.filter((call) => call.name === tool) : [])).length;
    const needOf = (tool: string) => multiHop.grading.subqueries.filter((entry) => entry.tool === tool).length;
    // A subquery whose tool the reference calls exactly as often as subqueries need it: one more is one output short.
    const subquery = multiHop.grading.subqueries.find((entry) => callsOf(entry.tool) === needOf(entry.tool))!;
    expect(subquery).toBeDefined();
    const unsolvable: CctuTask = { ...multiHop, grading: { ...multiHop.grading, subqueries: [...multiHop.grading.subqueries, { ...subquery, query: 'the same again' }] } };
    expect(await referenceIssues(unsolvable)).toEqual([
      expect.objectContaining({ kind: 'reference', constraints: [], message: `the reference does not solve subquery ${unsolvable.grading.subqueries.length} ("the same again"): no output of ${subquery.tool} left to contain "${subquery.answer}" (one output solves one subquery)` }),
    ]);
    const wrong: CctuTask = { ...multiHop, grading: { ...multiHop.grading, subqueries: [{ ...subquery, answer: 'an answer no tool gives' }] } };
    expect((await referenceIssues(wrong)).map((issue) => issue.message)).toEqual([expect.stringMatching(/^the reference does not solve subquery 1 /)]);
  });

  it('plays the reference through the validators and reports what it breaks', async () => {
    for (const task of suite) expect(await referenceIssues(task)).toEqual([]);
    const broken = withConstraints(multiHop, [{ id: 'period', category: 'response.content', params: { endingPunctuation: '!' } }]);
    expect(await referenceIssues(broken)).toEqual([
      expect.objectContaining({ kind: 'reference', constraints: ['period'], message: expect.stringMatching(/^the reference breaks it in round \d: .*must end with "!"/) }),
    ]);
  });
});
