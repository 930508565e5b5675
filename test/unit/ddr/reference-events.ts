import type { DdrTask } from '../../../src/schemas/ddr-task.ts';
import { EVENT_SCHEMA_VERSION, type TrajectoryEvent } from '../../../src/schemas/event.ts';

/**
 * The trajectory the engine records when the `reference` model plays a DDR task: one model-response per step,
 * each call executed with `results(stepIndex)` as its tool result, then FINISH. Used to grade references without
 * running the engine (the integration test fills results from the real database).
 */
export function referenceEvents(task: DdrTask, results: (stepIndex: number) => string = () => 'ok', rewrite: (text: string) => string = (text) => text): TrajectoryEvent[] {
  const base = { schemaVersion: EVENT_SCHEMA_VERSION, time: '2026-11-29T00:00:00.000Z' } as const;
  const events: TrajectoryEvent[] = [];
  const push = (event: Record<string, unknown>) => events.push({ ...base, seq: events.length, ...event } as TrajectoryEvent);
  push({ type: 'episode-start', taskId: task.id, model: 'reference', settings: { enforcement: 'block', seed: 0, repeat: 0, execute: false }, versions: {}, messages: [], tools: [] });
  let finalAnswer: string | null = null;
  task.reference.trajectory.forEach((step, index) => {
    const round = index + 1;
    if ('answer' in step) {
      finalAnswer = rewrite(step.answer);
      push({ type: 'model-response', round, message: { role: 'assistant', content: finalAnswer }, usage: {}, latencyMs: 0 });
      return;
    }
    const calls = step.toolCalls.map((call, callIndex) => ({ id: `call-${round}-${callIndex}`, type: 'function' as const, function: { name: call.name, arguments: JSON.stringify(call.arguments) } }));
    push({ type: 'model-response', round, message: { role: 'assistant', content: step.content === undefined ? null : rewrite(step.content), tool_calls: calls }, usage: {}, latencyMs: 0 });
    for (const call of calls) {
      push({ type: 'tool-call', round, callId: call.id, name: call.function.name, arguments: call.function.arguments, disposition: 'executed' });
      push({ type: 'tool-result', round, callId: call.id, name: call.function.name, content: results(index), isError: false, durationMs: 0 });
    }
  });
  push({
    type: 'episode-end',
    status: 'completed',
    reason: 'final answer',
    finalAnswer,
    counts: { rounds: task.reference.trajectory.length, toolCalls: task.reference.trajectory.length - 1, blockedCalls: 0, rejectedAnswers: 0 },
    constraintStatus: {},
    durationMs: 0,
  });
  return events;
}
