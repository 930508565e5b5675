import { pc } from './colors.ts';
import type { TrajectoryEvent } from '../schemas/event.ts';
import type { EpisodeScore } from '../schemas/score.ts';

const EXCERPT = 240;

function excerpt(text: string, max = EXCERPT): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max)}… (${text.length} chars)` : flat;
}

/** Whom a person plays at this terminal through the `human` model (the agent, or a conversation's customer), if anyone. */
export type Person = 'agent' | 'customer' | undefined;

/** The side a person plays, from the episode's model and user model specs. */
export function personOf(modelSpec: string, userModelSpec: string | undefined): Person {
  if (modelSpec === 'human') return 'agent';
  return userModelSpec === 'human' ? 'customer' : undefined;
}

/**
 * One event as lines of the live transcript `sandbox episode` prints; null for events it does not show. What the
 * `human` model already shows the person is left out, so each part is printed once: playing the agent, the query,
 * the agent's own messages, tool results, feedback and the user's turns (the human model shows them in full);
 * playing the customer, the agent's replies (the human customer's view shows each one the customer hears, `[agent]`).
 */
export function formatEvent(event: TrajectoryEvent, options: { person?: Person } = {}): string | null {
  const human = options.person === 'agent';
  switch (event.type) {
    case 'episode-start': {
      const header = `${pc.bold(`task ${event.taskId}`)} · model ${event.model}${event.userModel === undefined ? '' : ` · user ${event.userModel}`} · enforcement ${event.settings.enforcement} · ${event.tools.length} tools`;
      return human ? header : `${header}\n${pc.dim(`user: ${excerpt(event.messages.at(-1)?.content ?? '', 600)}`)}`;
    }
    case 'model-response': {
      const lines = [pc.bold(pc.cyan(`── round ${event.round}`))];
      if (event.message.content && options.person === undefined) lines.push(`assistant: ${excerpt(event.message.content, 600)}`);
      return lines.join('\n');
    }
    case 'constraint-check': {
      if (event.verdicts.length === 0) return pc.green(`  ✓ constraints pass (${event.step.kind})`);
      const mode = event.enforcement === 'observe' ? ' (observed only)' : '';
      return event.verdicts.map((verdict) => pc.yellow(`  ✗ ${verdict.constraintId} [${verdict.effect}]${mode}: ${excerpt(verdict.message, 300)}`)).join('\n');
    }
    case 'tool-call': {
      const tag = event.disposition === 'executed' ? '' : pc.yellow(` (${event.disposition})`);
      return `  → ${pc.bold(event.name)}(${excerpt(event.arguments, 160)})${tag}`;
    }
    case 'tool-result':
      if (human) return null;
      return `    ${event.isError ? pc.red('✗') : pc.green('←')} ${pc.dim(excerpt(event.content))}`;
    case 'feedback':
      if (human) return null;
      return pc.magenta(`  ${event.kind} feedback: ${excerpt(event.content, 400)}`);
    case 'plan-execution': {
      const { execution } = event;
      if (execution.refused) return pc.yellow(`  plan not executed: ${execution.refused}`);
      const steps = execution.steps.map((step) => `    ${step.isError ? pc.red('✗') : pc.green('✓')} (${step.id}) ${step.tool} [${step.source}] ${step.durationMs.toFixed(0)} ms: ${pc.dim(excerpt(step.output, 160))}`);
      return [pc.bold(`  plan executed: ${execution.steps.length} steps in ${execution.wallMs.toFixed(0)} ms (sequential ${execution.sequentialMs.toFixed(0)} ms, critical path ${execution.criticalPathMs.toFixed(0)} ms)`), ...steps].join('\n');
    }
    case 'user-turn':
      if (human) return null;
      return `${pc.bold(event.speaker)}: ${excerpt(event.content, 600)}${event.hangUp ? pc.dim(` (${event.speaker} ends the conversation)`) : ''}`;
    case 'episode-end': {
      const color = event.status === 'completed' ? pc.green : event.status === 'limit' ? pc.yellow : pc.red;
      const { counts } = event;
      return [
        color(pc.bold(`── episode ${event.status}: ${event.reason}`)),
        `rounds ${counts.rounds} · tool calls ${counts.toolCalls} (blocked ${counts.blockedCalls}) · rejected answers ${counts.rejectedAnswers} · ${(event.durationMs / 1000).toFixed(2)} s`,
      ].join('\n');
    }
  }
}

/** A score as a few readable lines. */
export function formatScore(score: EpisodeScore): string {
  const metrics = Object.entries(score.metrics)
    .map(([name, value]) => `${name} ${value === null ? 'not judged' : Number.isInteger(value) ? value : value.toFixed(3)}`)
    .join(' · ');
  // passed null: undecided without a judge (a DDR task of free-text items), neither passed nor failed.
  const outcome = score.passed === null ? pc.dim('not judged') : score.passed ? pc.green('passed') : pc.red('not passed');
  return `${pc.bold('score')}: ${outcome}${metrics ? ` · ${metrics}` : ''}`;
}
