import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../../src/data-dir.ts';
import { gradeEpisode } from '../../../src/styles/grade.ts';
import type { TrajectoryEvent } from '../../../src/schemas/event.ts';
import { TaskSchema } from '../../../src/schemas/task.ts';

/** Which tool message held each golden answer (the episode page shows it beside the agent's answer). */
describe('CCTU grader: where each golden answer was found', () => {
  it('names the seq of the first executed tool message of the golden tool that holds it; a blocked call or another tool does not count', async () => {
    const task = TaskSchema.parse(JSON.parse(await readFile(path.join(REPO_ROOT, 'episodes/cctu/cctu2-sh-001.json'), 'utf8')));
    const tool = 'mountain_featured_tech_company_finder';
    const time = '2026-01-01T00:00:00Z';
    let seq = 0;
    const event = (body: Record<string, unknown>) => ({ schemaVersion: 1, seq: seq++, time, ...body }) as unknown as TrajectoryEvent;
    const call = (round: number, id: string, name: string, disposition: string, content: string) => [
      event({ type: 'tool-call', round, callId: id, name, arguments: '{}', disposition }),
      event({ type: 'tool-result', round, callId: id, name, content, isError: false, durationMs: 1 }),
    ];
    const events = [
      event({ type: 'episode-start', taskId: task.id, model: 'scripted', settings: { enforcement: 'observe', seed: 0, repeat: 0, execute: false }, versions: {}, messages: [], tools: [] }),
      // seq 1-2: a blocked call whose (feedback) text happens to hold the answer: not a tool output
      ...call(1, 'a', tool, 'blocked', 'Isovale Software'),
      // seq 3-4: another tool's output holding it: not the golden tool
      ...call(2, 'b', 'other_tool', 'executed', 'Isovale Software'),
      // seq 5-6: the golden tool without it; seq 7-8: the golden tool with it (lower-cased: CCTU's match is case-free)
      ...call(3, 'c', tool, 'executed', 'nothing here'),
      ...call(4, 'd', tool, 'executed', 'the company is isovale software'),
      event({ type: 'episode-end', status: 'completed', reason: 'final answer accepted', finalAnswer: 'Isovale Software', counts: { rounds: 4, toolCalls: 4, blockedCalls: 1, rejectedAnswers: 0 }, constraintStatus: {}, durationMs: 5 }),
    ];
    const score = await gradeEpisode(task, events);
    expect(score.details.subqueries).toEqual([{ query: 'What is the featured tech company of the mountain "Mount Elrin"?', tool, answer: 'Isovale Software', solved: true, seq: 8 }]);
  });

  it('is null when no tool message held it', async () => {
    const task = TaskSchema.parse(JSON.parse(await readFile(path.join(REPO_ROOT, 'episodes/cctu/cctu2-sh-001.json'), 'utf8')));
    const start = { schemaVersion: 1, seq: 0, time: 't', type: 'episode-start', taskId: task.id, model: 'm', settings: { enforcement: 'observe', seed: 0, repeat: 0, execute: false }, versions: {}, messages: [], tools: [] };
    const end = { schemaVersion: 1, seq: 1, time: 't', type: 'episode-end', status: 'completed', reason: 'r', finalAnswer: 'x', counts: { rounds: 1, toolCalls: 0, blockedCalls: 0, rejectedAnswers: 0 }, constraintStatus: {}, durationMs: 1 };
    const score = await gradeEpisode(task, [start, end] as unknown as TrajectoryEvent[]);
    expect((score.details.subqueries as Array<{ solved: boolean; seq: number | null }>).map(({ solved, seq }) => [solved, seq])).toEqual([[false, null]]);
  });
});
