import { describe, expect, it } from 'vitest';
import type { PlanExecutor } from '../../../src/planning/plan-executor.ts';
import { runEpisode } from '../../../src/engine/run-episode.ts';
import { planTask, scriptedModel, testServerFactory } from './fixtures.ts';

const environment = { servers: { 'mock-tools': testServerFactory() } };
const plan = '{"steps":[{"id":1,"tool":"T2S","prompt":"look a up"}]}';

describe('plan protocol', () => {
  it('the final answer is the plan; with execute, the executor runs it through recorded tool calls', async () => {
    const answers: string[] = [];
    const executor: PlanExecutor = async (context) => {
      answers.push(context.answer);
      const outcome = await context.callTool('lookup', { key: 'a' });
      return { steps: [], finalOutput: outcome.content, wallMs: 1, sequentialMs: 1, criticalPathMs: 1 };
    };
    const result = await runEpisode({ task: planTask(), model: scriptedModel([{ say: plan }]), environment, planExecutor: executor, settings: { execute: true } });
    expect(result).toMatchObject({ status: 'completed', finalAnswer: plan });
    expect(answers).toEqual([plan]);
    const executed = result.events.filter((event) => event.type === 'tool-call' || event.type === 'tool-result');
    expect(executed).toMatchObject([
      { type: 'tool-call', callId: 'plan-1', name: 'lookup', disposition: 'executed' },
      { type: 'tool-result', callId: 'plan-1', content: 'alpha', isError: false },
    ]);
    expect(result.events.find((event) => event.type === 'plan-execution')).toMatchObject({ execution: { finalOutput: 'alpha' } });
    expect(result.events.at(-1)).toMatchObject({ type: 'episode-end', counts: { toolCalls: 0 } });
  });

  it('without execute the executor is not called', async () => {
    let called = false;
    const result = await runEpisode({ task: planTask(), model: scriptedModel([{ say: plan }]), environment, planExecutor: async () => {
      called = true;
      return { steps: [], finalOutput: '', wallMs: 0, sequentialMs: 0, criticalPathMs: 0 };
    } });
    expect(result.status).toBe('completed');
    expect(called).toBe(false);
  });
});
