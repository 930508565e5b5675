import type { Constraint } from '../schemas/constraint.ts';
import type { Task } from '../schemas/task.ts';
import type { ToolSpec } from '../schemas/tool-spec.ts';
import { styleOf } from '../styles/registry.ts';

/** One line saying what a constraint asks, from its description or, failing that, its category and params. */
export function describeConstraint(constraint: Constraint): string {
  if (constraint.description) return constraint.description;
  if (constraint.category === 'custom' || constraint.category === 'python') return constraint.params.name;
  return `${constraint.category} ${JSON.stringify(constraint.params)}`;
}

/** A Markdown description of a task for a person or a desktop agent: query, tools, constraints, how to answer. */
export function describeTask(task: Task, tools: readonly ToolSpec[]): string {
  const lines = [`# ${task.title}`, '', `Task \`${task.id}\` (${task.style}, ${task.domain}).`, ''];
  if (task.system) lines.push('## Scenario', '', task.system, '');
  lines.push('## Query', '', task.query, '', '## Tools', '');
  for (const tool of tools) lines.push(`- \`${tool.name}\`: ${tool.description.split('\n')[0]}`);
  if (task.constraints.length > 0) {
    lines.push('', '## Constraints (enforced on every call)', '');
    for (const constraint of task.constraints) lines.push(`- ${describeConstraint(constraint)}`);
  }
  lines.push('', '## Answering', '', answeringOf(task));
  return lines.join('\n');
}

/** How a client answers a task over the gateway: its style's words (a conversation's), else one final answer. */
export function answeringOf(task: Task): string {
  return styleOf(task.style).protocol.answering ?? 'When you are done, give the final answer with the `submit_answer` tool; a rejected answer comes back with the reason.';
}
