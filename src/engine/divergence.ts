import type { ToolOutcome } from '../mcp/connect-server.ts';
import type { EventOf } from '../schemas/event.ts';
import type { ToolSpec } from '../schemas/tool-spec.ts';
import type { Verdict } from '../schemas/step.ts';
import { sameVerdicts, type Divergence } from '../schemas/divergence.ts';

/** The servers list other tools than the recording's `episode-start` names (order counts: it is what the model saw). */
export function toolsDivergence(start: EventOf<'episode-start'>, tools: ReadonlyArray<Pick<ToolSpec, 'name'>>): Divergence | null {
  const recorded = start.tools.map((tool) => tool.name).join(',');
  const replayed = tools.map((tool) => tool.name).join(',');
  return recorded === replayed ? null : { kind: 'tools', seq: start.seq, detail: 'the servers list different tools', recorded, replayed };
}

/** The validator's verdicts on a recorded step differ from those recorded (same constraint, effect, call and message). */
export function verdictsDivergence(check: EventOf<'constraint-check'>, verdicts: readonly Verdict[]): Divergence | null {
  if (sameVerdicts(check.verdicts, verdicts)) return null;
  return { kind: 'verdicts', seq: check.seq, detail: `round ${check.step.round}: the verdicts changed`, recorded: check.verdicts, replayed: verdicts };
}

const resultOrError = (isError: boolean) => (isError ? 'an error' : 'a result');

/** A re-executed call's outcome differs from the recorded `tool-result` (text, or error against result). */
export function toolOutputDivergence(result: EventOf<'tool-result'>, outcome: Pick<ToolOutcome, 'content' | 'isError'>): Divergence | null {
  if (outcome.content === result.content && outcome.isError === result.isError) return null;
  const how = outcome.isError !== result.isError ? `${resultOrError(outcome.isError)} instead of ${resultOrError(result.isError)}` : 'different output';
  return { kind: 'tool-output', seq: result.seq, callId: result.callId, detail: `round ${result.round}: ${result.name} returned ${how}`, recorded: result.content, replayed: outcome.content };
}
