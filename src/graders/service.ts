import { replayCalls } from '../../databases/contact-center/accounts/replay-calls.ts';
import { SERVICE_TOOLS } from '../../databases/contact-center/accounts/service-tools.ts';
import { diffOutcomes, stateHash } from '../../databases/contact-center/accounts/state-diff.ts';
import type { TrajectoryEvent } from '../schemas/event.ts';
import type { EpisodeScore, SummaryTable } from '../schemas/score.ts';
import type { ServiceTask } from '../schemas/service-task.ts';
import { saysValue } from './said-values.ts';
import { goldReplay, serviceWorldOf } from './service-world.ts';
import type { StyleGrader } from './style-grader.ts';

const SERVICE_TOOL_NAMES = new Set(SERVICE_TOOLS.map((tool) => tool.name));

/** The service tools' calls an episode executed, in the order recorded, with the recorded error flag of each. */
function executedCalls(events: readonly TrajectoryEvent[]): Array<{ callId: string; tool: string; arguments: unknown; recordedError: boolean | undefined }> {
  const results = new Map(events.flatMap((event) => (event.type === 'tool-result' ? [[event.callId, event.isError] as const] : [])));
  return events.flatMap((event) => {
    if (event.type !== 'tool-call' || event.disposition !== 'executed' || !SERVICE_TOOL_NAMES.has(event.name)) return [];
    let parsed: unknown;
    try {
      parsed = JSON.parse(event.arguments);
    } catch {
      parsed = event.arguments; // not JSON: the server refused it, and so does the replay (arguments not an object)
    }
    return [{ callId: event.callId, tool: event.name, arguments: parsed, recordedError: results.get(event.callId) }];
  });
}

/** What the agent said to the customer: the text of its messages (replies, and what it says beside a call such as a transfer). */
function agentReplies(events: readonly TrajectoryEvent[]): string[] {
  return events.flatMap((event) => (event.type === 'model-response' && event.message.content ? [event.message.content] : []));
}

/**
 * Grades a service episode (issue 35) by three checks, all needed for success:
 * - state: the service calls the episode executed, replayed in order on a fresh copy of the slice, reach the same
 *   outcome (hash of the changed rows' graded columns) as the task's gold actions; on a mismatch the row-level diff is
 *   in `details.stateDiff`. A replayed call whose error flag differs from the recorded one is reported in
 *   `details.replayDivergence` (the tools are deterministic, so that means the recording is not of this slice) and
 *   fails the episode: the replayed state is then not the state the episode reached, so it proves nothing;
 * - values: each of `grading.requiredValues` said in some reply to the customer (`saysValue`);
 * - policies: no verdict of any constraint `grading.policies` names, in any step (a blocked or rejected step, or a
 *   constraint error, counts against it).
 */
export const serviceGrader: StyleGrader<ServiceTask> = {
  async grade(task: ServiceTask, events: readonly TrajectoryEvent[]): Promise<EpisodeScore> {
    const start = events.find((event) => event.type === 'episode-start');
    const end = events.findLast((event) => event.type === 'episode-end');
    const world = await serviceWorldOf(task);
    const expected = goldReplay(task, world);
    const calls = executedCalls(events);
    const actual = replayCalls(world.slice, world.now, calls);
    const expectedHash = stateHash(expected.changes);
    const actualHash = stateHash(actual.changes);
    const stateMatch = expectedHash === actualHash;
    const divergence = calls.flatMap((call, index) => (call.recordedError !== undefined && call.recordedError !== actual.outcomes[index]!.isError ? [{ callId: call.callId, tool: call.tool, recordedError: call.recordedError, replayedError: actual.outcomes[index]!.isError }] : []));

    const replies = agentReplies(events).join('\n');
    const values = task.grading.requiredValues.map((required) => ({ ...required, said: saysValue(replies, required.value, required.tolerance) }));
    const policyVerdicts = events.flatMap((event) => (event.type === 'constraint-check' ? event.verdicts.filter((verdict) => task.grading.policies.includes(verdict.constraintId)) : []));
    const violated = [...new Set(policyVerdicts.map((verdict) => verdict.constraintId))];
    const valuesSaid = values.filter((value) => value.said).length;
    const status = end?.type === 'episode-end' ? end.status : 'incomplete';
    const passed = status !== 'error' && stateMatch && divergence.length === 0 && valuesSaid === values.length && violated.length === 0;
    return {
      taskId: task.id,
      style: task.style,
      repeat: start?.type === 'episode-start' ? start.settings.repeat : 0,
      status,
      passed,
      metrics: {
        success: passed ? 1 : 0,
        state_match: stateMatch ? 1 : 0,
        // 0 when a replayed call's outcome differs from the recorded one: the replayed state is not the episode's
        state_verified: divergence.length === 0 ? 1 : 0,
        values_said: values.length === 0 ? null : valuesSaid / values.length,
        policies_followed: violated.length === 0 ? 1 : 0,
        writes: calls.filter((call) => SERVICE_TOOLS.find((tool) => tool.name === call.tool)!.writes).length,
      },
      details: {
        kind: task.grading.kind,
        outcome: task.grading.outcome,
        expectedHash,
        actualHash,
        ...(stateMatch ? {} : { stateDiff: diffOutcomes(expected.changes, actual.changes) }),
        ...(divergence.length > 0 ? { replayDivergence: divergence } : {}),
        values,
        policiesViolated: violated,
        policyVerdicts,
      },
    };
  },

  /** Success, state match, values said and policies followed: over all episodes and per problem kind. */
  summarize(scores: readonly EpisodeScore[]): SummaryTable[] {
    const mean = (values: Array<number | null | undefined>): string => {
      const known = values.filter((value): value is number => typeof value === 'number');
      return known.length === 0 ? '-' : (known.reduce((sum, value) => sum + value, 0) / known.length).toFixed(3);
    };
    const groups = new Map<string, EpisodeScore[]>([['all', [...scores]]]);
    for (const score of scores) groups.set(String(score.details.kind), [...(groups.get(String(score.details.kind)) ?? []), score]);
    return [{
      title: 'service: final state, values said, policies',
      columns: ['kind', 'episodes', 'success', 'state match', 'values said', 'policies followed'],
      rows: [...groups].map(([group, members]) => [
        group,
        members.length,
        mean(members.map((score) => score.metrics.success)),
        mean(members.map((score) => score.metrics.state_match)),
        mean(members.map((score) => score.metrics.values_said)),
        mean(members.map((score) => score.metrics.policies_followed)),
      ]),
    }];
  },
};
