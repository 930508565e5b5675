import { describe, expect, it } from 'vitest';
import type { ToolOutcome } from '../../../src/mcp/connect-server.ts';
import { readFile } from 'node:fs/promises';
import { runPlan } from '../../../src/planning/index.ts';
import { createModel } from '../../../src/models/index.ts';
import type { Task } from '../../../src/schemas/task.ts';
import type { Plan } from '../../../src/schemas/plan.ts';
import { scriptedTextModel } from './scripted-text-model.ts';

/** A tool caller that records what it was asked and answers by tool name. */
function recordingCaller(answers: Record<string, ToolOutcome>) {
  const calls: Array<{ name: string; args: Record<string, unknown> }> = [];
  return {
    calls,
    async callTool(name: string, args: Record<string, unknown>): Promise<ToolOutcome> {
      calls.push({ name, args });
      return answers[name] ?? { content: `no such tool ${name}`, isError: true, durationMs: 0 };
    },
  };
}

const plan: Plan = {
  steps: [
    { id: 1, tool: 'T2S', prompt: 'Return the queue with most escalations', depends_on: [] },
    { id: 2, tool: 'RAG', prompt: 'Find supervisor requests', depends_on: [] },
    { id: 3, tool: 'LLM', prompt: 'Explain (1) with (2)', depends_on: [1, 2] },
  ],
};

describe('runPlan', () => {
  it('runs text-to-SQL through --t2s-model, and fills placeholders downstream', async () => {
    const caller = recordingCaller({
      execute_query: { content: '[{"queue":"billing"}]', isError: false, durationMs: 1 },
      search_transcripts: { content: 'I want to speak to a supervisor', isError: false, durationMs: 1 },
    });
    const model = scriptedTextModel(['```sql\nSELECT queue FROM calls LIMIT 1\n```', 'Billing escalates because customers ask for supervisors.']);
    const execution = await runPlan(plan, { callTool: caller.callTool, model, t2sModel: model });
    // The RAG step does not wait for the model's SQL: independent steps run concurrently, so order calls by name.
    // The catalog is read once first (list_tables: this caller has none, so the catalog is empty).
    expect([...caller.calls].sort((a, b) => a.name.localeCompare(b.name))).toEqual([
      { name: 'execute_query', args: { sql: 'SELECT queue FROM calls LIMIT 1', limit: 100 } },
      { name: 'list_tables', args: {} },
      { name: 'search_transcripts', args: { query: 'Find supervisor requests', k: 10, filters: {} } },
    ]);
    expect(execution.steps.map((step) => step.source)).toEqual(['text-to-sql', 'retrieval', 'model']);
    expect(execution.steps[2]?.prompt).toContain('[output of step 1: [{"queue":"billing"}]]');
    expect(execution.finalOutput).toBe('Billing escalates because customers ask for supervisors.');
  });

  it('without a model: a T2S step the offline text-to-SQL cannot translate fails with the reason, its consumers are not run', async () => {
    const caller = recordingCaller({ search_transcripts: { content: 'supervisor', isError: false, durationMs: 1 } });
    const execution = await runPlan(plan, { callTool: caller.callTool });
    expect(execution.steps.map((step) => [step.source, step.isError])).toEqual([['offline-text-to-sql', true], ['retrieval', false], ['not-run', true]]);
    // "most escalations" is no measure the translator knows (it knows "escalation rate"): it says so rather than guess.
    expect(execution.steps[0]?.output).toMatch(/^cannot translate: /);
    // The consumer says which step stopped it and that step's own reason.
    expect(execution.steps[2]?.output).toBe(`not run: step 1 failed (${execution.steps[0]!.output})`);
  });

  it('a step that reads a cut upstream result says so: nothing is cut without a word', async () => {
    // The server answers every page with the same 100 rows and counts 1,500 in all: the executor keeps 1,000
    // (MAX_STEP_ROWS) and step 1 records the cut; step 2, whose SQL reads step 1's list, records that it read a cut list.
    const rows = Array.from({ length: 100 }, (_, index) => [`C-${String(index).padStart(7, '0')}`]);
    const page = JSON.stringify({ columns: [{ name: 'call_id', type: 'VARCHAR' }], rows, row_count: 1500, truncated: true });
    const caller = recordingCaller({ execute_query: { content: page, isError: false, durationMs: 1 } });
    const chained: Plan = {
      steps: [
        { id: 1, tool: 'T2S', prompt: 'List the ids of escalated calls', depends_on: [] },
        { id: 2, tool: 'T2S', prompt: 'List the ids of the calls in (1) that were resolved', depends_on: [1] },
        { id: 3, tool: 'T2S', prompt: 'Count calls per queue', depends_on: [] },
        { id: 4, tool: 'LLM', prompt: 'Explain (2)', depends_on: [2] },
      ],
    };
    const model = scriptedTextModel(['```sql\nSELECT call_id FROM calls\n```']);
    const execution = await runPlan(chained, { callTool: caller.callTool, t2sModel: model });
    const [first, second, third, fourth] = execution.steps;
    expect(first).toMatchObject({ rows: 1000, totalRows: 1500, truncated: 'truncated: 1000 of 1500 rows' });
    expect(second!.truncated).toBe('truncated: 1000 of 1500 rows; upstream step 1 truncated: 1000 of 1500 rows');
    // A step that reads no cut result, and an LLM step (its spliced input says its own cut), carry nothing more.
    expect(third!.truncated).toBe('truncated: 1000 of 1500 rows');
    expect(fourth!.truncated).toBeUndefined();
  });

  it('LLM steps concatenate their inputs, labelled, when no model is given', async () => {
    const caller = recordingCaller({ search_transcripts: { content: 'supervisor please', isError: false, durationMs: 1 } });
    const execution = await runPlan({ steps: [plan.steps[1]!, { id: 3, tool: 'LLM', prompt: 'Summarise (2)', depends_on: [2] }] }, { callTool: caller.callTool });
    expect(execution.steps[1]).toMatchObject({ source: 'concatenation', output: 'Summarise (2)\n(2) supervisor please' });
  });

  it('marks providers generative and playback models not (the executor uses only generative ones for steps)', async () => {
    const task = JSON.parse(await readFile('episodes/demo/demo.json', 'utf8')) as Task;
    const context = { task, tools: [], env: {} };
    expect((await createModel('openai-compatible:http://127.0.0.1:9/v1#m', context)).generative).toBe(true);
    expect((await createModel('anthropic:claude-x', { ...context, env: { ANTHROPIC_API_KEY: 'k' } })).generative).toBe(true);
    expect((await createModel('reference', context)).generative).toBeFalsy();
  });
});
