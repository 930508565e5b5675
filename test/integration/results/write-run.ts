import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { identityOf, RUN_FORMAT, writeRunFile } from '../../../src/engine/run-identity.ts';
import type { RunSettings } from '../../../src/schemas/event.ts';

/** One episode of a hand-made run: what its trajectory and its summary.json score say. */
export interface FixtureEpisode {
  taskId: string;
  repeat: number;
  passed: boolean | null;
  status?: 'completed' | 'limit' | 'error';
  structure?: string;
  /** constraint id → [category, status] (CCTU facts in the score details) */
  constraints?: Record<string, [string, string]>;
  /** per model call: usage as a provider reports it */
  usage?: Array<{ inputTokens?: number; outputTokens?: number; costUsd?: number }>;
  /** a blocked call with this feedback */
  blocked?: string;
}

/**
 * Writes a run folder as `sandbox run` lays it out (run.json, <task>.<repeat>.jsonl in the event schema of
 * src/schemas/event.ts, summary.json with the graders' scores), from facts chosen by the test, so the reports' expected
 * values can be derived by hand. `trajectoriesOnly`: the trajectories alone, as `sandbox episode` leaves them.
 */
export async function writeRun(dir: string, run: { model: string; enforcement?: string; repeats?: number; trajectoriesOnly?: boolean }, episodes: readonly FixtureEpisode[]): Promise<void> {
  await mkdir(dir, { recursive: true });
  const time = '2026-01-01T00:00:00.000Z';
  if (!run.trajectoriesOnly) {
    // run.json as `sandbox run` writes it (its own writer, its identity): the store must read the identity from there
    const identity = identityOf({ modelSpec: run.model, repeats: run.repeats, settings: { enforcement: (run.enforcement ?? 'block') as RunSettings['enforcement'] } });
    await writeRunFile(dir, { format: RUN_FORMAT, name: path.basename(dir), suite: 'episodes/cctu', identity, tasks: {}, concurrency: 1, versions: {}, startedAt: time, finishedAt: time, episodes: episodes.length });
  }
  for (const episode of episodes) {
    const events: Array<Record<string, unknown>> = [];
    const push = (event: Record<string, unknown>) => events.push({ schemaVersion: 1, seq: events.length, time, ...event });
    push({ type: 'episode-start', taskId: episode.taskId, model: run.model, settings: { enforcement: run.enforcement ?? 'block', seed: 0, repeat: episode.repeat, execute: false }, versions: {}, messages: [{ role: 'user', content: 'question' }], tools: [] });
    const usages = episode.usage ?? [{}];
    usages.forEach((usage, index) => {
      const round = index + 1;
      const last = index === usages.length - 1;
      push({ type: 'model-response', round, message: last ? { role: 'assistant', content: 'answer' } : { role: 'assistant', content: null, tool_calls: [{ id: `c${round}`, type: 'function', function: { name: 'lookup', arguments: '{}' } }] }, usage, latencyMs: 10 });
      if (!last) {
        const blocked = episode.blocked !== undefined && round === 1;
        push({ type: 'constraint-check', step: { kind: 'tool-calls', round, calls: [{ id: `c${round}`, name: 'lookup', arguments: '{}' }] }, verdicts: blocked ? [{ constraintId: 'tools', category: 'toolset.available_tools', effect: 'block-call', callId: `c${round}`, message: episode.blocked }] : [], enforcement: run.enforcement ?? 'block', durationMs: 1 });
        push({ type: 'tool-call', round, callId: `c${round}`, name: 'lookup', arguments: '{}', disposition: blocked ? 'blocked' : 'executed' });
        push({ type: 'tool-result', round, callId: `c${round}`, name: 'lookup', content: blocked ? episode.blocked : 'result', isError: false, durationMs: 1 });
      }
    });
    push({ type: 'episode-end', status: episode.status ?? 'completed', reason: 'final answer accepted', finalAnswer: 'answer', counts: { rounds: usages.length, toolCalls: usages.length - 1, blockedCalls: episode.blocked ? 1 : 0, rejectedAnswers: 0 }, constraintStatus: {}, durationMs: 100 });
    await writeFile(path.join(dir, `${episode.taskId}.${episode.repeat}.jsonl`), events.map((event) => `${JSON.stringify(event)}\n`).join(''));
  }
  const summary = {
    episodes: episodes.map((episode) => ({
      taskId: episode.taskId,
      repeat: episode.repeat,
      file: path.join(dir, `${episode.taskId}.${episode.repeat}.jsonl`),
      status: episode.status ?? 'completed',
      reason: 'final answer accepted',
      score: episode.passed === null ? null : {
        taskId: episode.taskId,
        style: 'cctu',
        repeat: episode.repeat,
        status: episode.status ?? 'completed',
        passed: episode.passed,
        metrics: { sr: episode.passed ? 1 : 0, psr: episode.passed ? 1 : 0 },
        details: { structure: episode.structure ?? 'single-hop', constraints: Object.entries(episode.constraints ?? {}).map(([id, [category, status]]) => ({ id, category, status })) },
      },
    })),
    tables: [],
  };
  if (!run.trajectoriesOnly) await writeFile(path.join(dir, 'summary.json'), JSON.stringify(summary, null, 2));
}
