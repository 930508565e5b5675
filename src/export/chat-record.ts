import type { TrajectoryEvent } from '../schemas/event.ts';
import type { EpisodeScore } from '../schemas/score.ts';

/** One message of an exported episode, in OpenAI chat form, with the sandbox's marks (`feedback`). */
export interface ExportMessage {
  role: 'system' | 'user' | 'assistant' | 'tool';
  content: string | null;
  /** assistant: the calls it made (arguments are the JSON text the model produced). */
  tool_calls?: Array<{ id: string; type: 'function'; function: { name: string; arguments: string } }>;
  /** assistant: reasoning text some providers return beside the content. */
  reasoning?: string;
  /** tool: the call it answers, and the tool's name. */
  tool_call_id?: string;
  name?: string;
  /**
   * true on a message the sandbox wrote rather than the world: a user message rejecting an answer or nudging the
   * agent (`feedback_kind` constraint | protocol), a tool message answering a call that was blocked (`constraint`)
   * or not run by the protocol (`protocol`).
   */
  feedback?: true;
  feedback_kind?: string;
  /** user: who said it, on a conversation's user turn (a service episode's customer). */
  speaker?: string;
}

/** The validator's verdicts on one step of the agent (a message with tool calls, or a final answer). */
export interface ExportStep {
  round: number;
  kind: string;
  /** Index in `messages` of the assistant message the step is. */
  message_index: number | null;
  /** block: the verdicts were applied; observe: only recorded. */
  enforcement: string;
  verdicts: Array<{ constraint_id: string; category: string; effect: string; call_id: string | null; message: string }>;
}

/** One episode as SFT and RL pipelines read it: the message list, the tools offered, per-step verdicts, the scores. */
export interface ExportRecord {
  id: string;
  task_id: string;
  repeat: number;
  style: string | null;
  model: string;
  enforcement: string;
  status: string | null;
  reason: string | null;
  final_answer: string | null;
  messages: ExportMessage[];
  tools: Array<{ type: 'function'; function: { name: string; description: string; parameters: unknown } }>;
  steps: ExportStep[];
  /** From the run's summary.json; null when the episode was not graded (never 0). */
  passed: boolean | null;
  metrics: Record<string, number | null> | null;
  /** The metric `--reward` names (passed counts 1/0); null when not graded or the style has no such metric. */
  reward: number | null;
}

/**
 * An episode's record from its trajectory, the way the engine builds the conversation (src/engine/run-episode.ts):
 * the episode-start messages, then per model response its assistant message, each of its calls' tool message
 * (`tool-result`: a blocked or skipped call's is the feedback the agent read), and a feedback user message where
 * the gate added one, and a conversation's user turns (the customer's words, with their speaker). A plan's executor calls are recorded as tool calls but are not the agent's and not in its
 * conversation (their call ids are in no assistant message): they are left out.
 */
export function chatRecord(id: string, events: readonly TrajectoryEvent[], score: EpisodeScore | null, reward: string | null): ExportRecord {
  const start = events.find((event) => event.type === 'episode-start');
  if (start?.type !== 'episode-start') throw new Error(`${id}: no episode-start`);
  const end = events.findLast((event) => event.type === 'episode-end');
  const messages: ExportMessage[] = start.messages.map((message) => ({ role: message.role, content: message.content }));
  const steps: ExportStep[] = [];
  const calls = new Set<string>();
  const dispositions = new Map<string, string>();
  let lastAssistant: number | null = null;
  for (const event of events) {
    if (event.type === 'model-response') {
      const message: ExportMessage = { role: 'assistant', content: event.message.content };
      if (event.message.tool_calls && event.message.tool_calls.length > 0) message.tool_calls = event.message.tool_calls.map((call) => ({ id: call.id, type: 'function', function: call.function }));
      if (event.message.reasoning) message.reasoning = event.message.reasoning;
      for (const call of event.message.tool_calls ?? []) calls.add(call.id);
      lastAssistant = messages.push(message) - 1;
    } else if (event.type === 'constraint-check') {
      steps.push({
        round: event.step.round,
        kind: event.step.kind,
        message_index: lastAssistant,
        enforcement: event.enforcement,
        verdicts: event.verdicts.map((verdict) => ({ constraint_id: verdict.constraintId, category: verdict.category, effect: verdict.effect, call_id: verdict.callId ?? null, message: verdict.message })),
      });
    } else if (event.type === 'tool-call') {
      dispositions.set(event.callId, event.disposition);
    } else if (event.type === 'tool-result' && calls.has(event.callId)) {
      const disposition = dispositions.get(event.callId);
      const message: ExportMessage = { role: 'tool', tool_call_id: event.callId, name: event.name, content: event.content };
      if (disposition === 'blocked' || disposition === 'skipped') Object.assign(message, { feedback: true, feedback_kind: disposition === 'blocked' ? 'constraint' : 'protocol' });
      messages.push(message);
    } else if (event.type === 'feedback') {
      messages.push({ role: 'user', content: event.content, feedback: true, feedback_kind: event.kind });
    } else if (event.type === 'user-turn' && !event.hangUp) {
      // a conversation's other side: its words are the agent's next user message (a hang-up ends the episode instead)
      messages.push({ role: 'user', content: event.content, speaker: event.speaker });
    }
  }
  const metrics = score ? score.metrics : null;
  return {
    id,
    task_id: start.taskId,
    repeat: start.settings.repeat,
    style: score?.style ?? null,
    model: start.model,
    enforcement: start.settings.enforcement,
    status: end?.type === 'episode-end' ? end.status : null,
    reason: end?.type === 'episode-end' ? end.reason : null,
    final_answer: end?.type === 'episode-end' ? end.finalAnswer : null,
    messages,
    tools: start.tools.map((tool) => ({ type: 'function', function: { name: tool.name, description: tool.description, parameters: tool.parameters } })),
    steps,
    passed: score ? score.passed : null,
    metrics,
    reward: rewardOf(score, reward),
  };
}

/** The reward a pipeline trains on: `passed` as 1/0, or a metric of the score; null when there is none. */
function rewardOf(score: EpisodeScore | null, reward: string | null): number | null {
  if (!score || reward === null) return null;
  if (reward === 'passed') return score.passed ? 1 : 0;
  const value = score.metrics[reward];
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}
