import { Tiktoken } from 'js-tiktoken/lite';
import cl100k from 'js-tiktoken/ranks/cl100k_base';
import { isCctuTask, type Task } from '../schemas/task.ts';

/** A suite's shape on CCTU's dimensions (issue 13's table), for any suite. */
export interface SuiteShape {
  tasks: number;
  distinctTools: number;
  maxOrderingChains: number;
  longestOrderingChain: number;
  selfGroupTasks: number;
  overlappingGroupTasks: number;
  meanPromptTokens: number;
  domains: number;
}

/** CCTU's figures on the same dimensions, measured on its 200 public constraint configs (constraints/README.md). */
export const CCTU_SHAPE: Omit<SuiteShape, 'tasks'> = {
  distinctTools: 411,
  maxOrderingChains: 9,
  longestOrderingChain: 7,
  selfGroupTasks: 11,
  overlappingGroupTasks: 2,
  meanPromptTokens: 4700,
  domains: 28,
};

let encoder: Tiktoken | undefined;

/** Tokens of a text with the cl100k_base encoding (bundled with js-tiktoken: nothing is downloaded). */
export function countTokens(text: string): number {
  encoder ??= new Tiktoken(cl100k);
  return encoder.encode(text).length;
}

/** What a model reads before its first move: the system message, the tools (name, description, schema) and the query. */
export function promptText(task: Task): string {
  const tools = isCctuTask(task) ? task.tools.map(({ name, description, parameters }) => ({ name, description, parameters })) : (task.environment.tools ?? []);
  return `${task.system}\n${JSON.stringify(tools)}\n${task.query}`;
}

/** Measures a suite's shape: tools, ordering chains, parallel groups, prompt length and domains. */
export function suiteShape(tasks: readonly Task[]): SuiteShape {
  const tools = new Set<string>();
  const domains = new Set<string>();
  let maxOrderingChains = 0;
  let longestOrderingChain = 0;
  let selfGroupTasks = 0;
  let overlappingGroupTasks = 0;
  let tokens = 0;
  for (const task of tasks) {
    if (isCctuTask(task)) for (const tool of task.tools) tools.add(tool.name);
    else for (const tool of task.environment.tools ?? []) tools.add(tool);
    domains.add(task.domain);
    for (const server of task.environment.servers) {
      const world = (server.options as { worldDomain?: unknown } | undefined)?.worldDomain;
      for (const domain of Array.isArray(world) ? world : typeof world === 'string' ? [world] : []) domains.add(String(domain));
    }
    let self = false;
    let overlapping = false;
    for (const constraint of task.constraints) {
      if (constraint.category === 'behavior.sequential_dependencies') {
        maxOrderingChains = Math.max(maxOrderingChains, constraint.params.chains.length);
        for (const chain of constraint.params.chains) longestOrderingChain = Math.max(longestOrderingChain, chain.length);
      }
      if (constraint.category === 'behavior.parallel_dependencies') {
        const groups = constraint.params.groups;
        if (groups.some((group) => new Set(group).size < group.length)) self = true;
        // Overlapping: a tool in two groups (CCTU reads the groups as alternatives).
        const seen = new Set<string>();
        for (const group of groups) {
          for (const tool of new Set(group)) {
            if (seen.has(tool)) overlapping = true;
            seen.add(tool);
          }
        }
      }
    }
    if (self) selfGroupTasks += 1;
    if (overlapping) overlappingGroupTasks += 1;
    tokens += countTokens(promptText(task));
  }
  return {
    tasks: tasks.length,
    distinctTools: tools.size,
    maxOrderingChains,
    longestOrderingChain,
    selfGroupTasks,
    overlappingGroupTasks,
    meanPromptTokens: tasks.length === 0 ? 0 : Math.round(tokens / tasks.length),
    domains: domains.size,
  };
}

/** The shape table beside CCTU's column: [dimension, suite, CCTU, whether the suite matches or exceeds CCTU]. */
export function shapeRows(shape: SuiteShape): Array<[string, number, string, string]> {
  const row = (label: string, key: keyof typeof CCTU_SHAPE, cctu: string): [string, number, string, string] => [label, shape[key], cctu, shape[key] >= CCTU_SHAPE[key] ? 'yes' : 'no'];
  return [
    row('distinct tool names across the suite', 'distinctTools', '≥ 411'),
    row('ordering chains per task (most)', 'maxOrderingChains', 'up to 9'),
    row('longest ordering chain (tools)', 'longestOrderingChain', '7'),
    row('tasks with a self-group [t, t]', 'selfGroupTasks', '11'),
    row('tasks with overlapping parallel groups', 'overlappingGroupTasks', '2'),
    row('mean prompt tokens (system + tools + query, cl100k)', 'meanPromptTokens', '> 4,700'),
    row('domains', 'domains', '28'),
  ];
}
