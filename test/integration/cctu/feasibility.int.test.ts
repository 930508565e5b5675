import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { describe, expect, it } from 'vitest';
import { generateSuite } from '../../../episodes/cctu-generator/index.ts';
import { REPO_ROOT } from '../../../src/data-dir.ts';
import { stepOfMessage } from '../../../src/validator/build-step.ts';
import { solveSubqueries } from '../../../src/graders/cctu.ts';
import { startMockToolsServer } from '../../../src/mcp/environments/mock-tools.ts';
import { playbackMessage } from '../../../src/models/playback-message.ts';
import { CctuTaskSchema, type CctuTask } from '../../../src/schemas/cctu-task.ts';
import { createStepValidator } from '../../../src/validator/index.ts';

/**
 * Plays a task's reference through the real validator (one fold over its steps, messages built as the
 * reference model builds them) and the real mock-tools server; returns what went wrong, if anything.
 */
async function referenceProblems(task: CctuTask): Promise<string[]> {
  const problems: string[] = [];
  const server = await startMockToolsServer(task.environment.servers[0] as CctuTask['environment']['servers'][number], { task });
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await server.connect(serverTransport);
  const client = new Client({ name: 'feasibility', version: '1.0.0' });
  await client.connect(clientTransport);
  const validator = await createStepValidator(task.constraints, task.tools.map(({ name, description, parameters }) => ({ name, description, parameters })), { timeoutMs: 2_000 });
  const outputs: Array<{ tool: string; text: string }> = [];
  try {
    for (const [index, step] of task.reference!.trajectory.entries()) {
      const message = playbackMessage(step, index + 1);
      const verdicts = await validator.check(stepOfMessage(message, index + 1));
      for (const verdict of verdicts) problems.push(`round ${index + 1}: ${verdict.category}: ${verdict.message}`);
      for (const call of message.tool_calls ?? []) {
        const result = await client.callTool({ name: call.function.name, arguments: JSON.parse(call.function.arguments) as Record<string, unknown> });
        const text = (result.content as Array<{ text: string }>)[0]?.text ?? '';
        if (result.isError) problems.push(`round ${index + 1}: ${call.function.name} failed: ${text}`);
        outputs.push({ tool: call.function.name, text });
      }
    }
    // One output solves at most one subquery (the grader's rule 8).
    solveSubqueries(task.grading.subqueries, outputs).forEach((solved, index) => {
      const subquery = task.grading.subqueries[index]!;
      if (!solved) problems.push(`subquery "${subquery.query}" not solved: "${subquery.answer}" is in no output of ${subquery.tool} left for it`);
    });
  } finally {
    validator.dispose();
    await client.close();
  }
  return problems;
}

async function allProblems(tasks: readonly CctuTask[]): Promise<Record<string, string[]>> {
  const found: Record<string, string[]> = {};
  for (const task of tasks) {
    const problems = await referenceProblems(task);
    if (problems.length > 0) found[task.id] = problems;
  }
  return found;
}

describe('CCTU suite feasibility (real validator, real mock-tools server)', () => {
  it('every committed task in episodes/cctu passes its constraints and solves every subquery with its reference', async () => {
    const folder = path.join(REPO_ROOT, 'episodes/cctu');
    const files = (await readdir(folder)).filter((file) => file.endsWith('.json'));
    expect(files).toHaveLength(200);
    const tasks = await Promise.all(files.map(async (file) => CctuTaskSchema.parse(JSON.parse(await readFile(path.join(folder, file), 'utf8')))));
    expect(await allProblems(tasks)).toEqual({});
  }, 300_000);

  it('another seed gives a different suite that is just as feasible', async () => {
    const one = generateSuite({ seed: 1, perStructure: 50 });
    const two = generateSuite({ seed: 2, perStructure: 50 });
    expect(two.map((task) => task.query)).not.toEqual(one.map((task) => task.query));
    // Rule 8 (one output solves at most one subquery, in order): the generator plays each reference's outputs
    // through the grader's matching and draws again when one output would take two answers (seed 2 had such a
    // task, cctu-pmh-004 of the first generator), so no seed needs an exception.
    expect(await allProblems(two)).toEqual({});
  }, 300_000);
});
