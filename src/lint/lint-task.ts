import type { Constraint } from '../schemas/constraint.ts';
import { isCctuTask, type Task } from '../schemas/task.ts';

/** One problem `sandbox lint` found: which task and constraint, what kind, and why. */
export interface LintIssue {
  taskId: string;
  /** The constraint(s) involved, by id. */
  constraints: string[];
  /**
   * `conflict`: two requirements contradict; `infeasible`: no trajectory can satisfy a requirement and solve the task;
   * `unknown-tool`: a constraint names a tool the task lacks; `reference`: the task's own reference breaks a constraint.
   */
  kind: 'conflict' | 'infeasible' | 'unknown-tool' | 'reference';
  message: string;
}

type Of<C extends Constraint['category']> = Extract<Constraint, { category: C }>;

function ofCategory<C extends Constraint['category']>(task: Task, category: C): Array<Of<C>> {
  return task.constraints.filter((constraint): constraint is Of<C> => constraint.category === category);
}

/** The tools a task declares, when it declares them (CCTU); other styles' tools come from their servers. */
function declaredTools(task: Task): Set<string> | undefined {
  return 'tools' in task && Array.isArray(task.tools) ? new Set(task.tools.map((tool) => tool.name)) : undefined;
}

/**
 * What the answer needs: the tools its subqueries name, how many calls of each (one tool output solves at
 * most one subquery, CCTU's rule, so two subqueries of one tool need two calls), and the depth of the
 * subquery dependencies (steps needed).
 */
function needs(task: Task): { tools: Set<string>; calls: Map<string, number>; total: number; depth: number } {
  if (!isCctuTask(task)) return { tools: new Set(), calls: new Map(), total: 0, depth: 0 };
  const subqueries = task.grading.subqueries;
  const depthOf = (index: number, seen: Set<number>): number => {
    const subquery = subqueries[index];
    if (!subquery || seen.has(index)) return 0;
    const next = new Set(seen).add(index);
    return 1 + Math.max(0, ...(subquery.dependsOn ?? []).map((parent) => depthOf(parent, next)));
  };
  const calls = new Map<string, number>();
  for (const subquery of subqueries) calls.set(subquery.tool, (calls.get(subquery.tool) ?? 0) + 1);
  return { tools: new Set(calls.keys()), calls, total: subqueries.length, depth: Math.max(0, ...subqueries.map((_, index) => depthOf(index, new Set()))) };
}

/** The calls of each tool the task's reference makes, read from its trajectory (nothing is run). */
function referenceCalls(task: Task): Map<string, number> {
  const counts = new Map<string, number>();
  for (const step of task.reference?.trajectory ?? []) {
    if (!('toolCalls' in step)) continue;
    for (const call of step.toolCalls) counts.set(call.name, (counts.get(call.name) ?? 0) + 1);
  }
  return counts;
}

/** Every ordered pair (x before y) the ordering chains imply, through several chains too (a → b and b → c give a → c). */
function precedence(chains: readonly string[][]): Map<string, Set<string>> {
  const after = new Map<string, Set<string>>();
  const edge = (from: string, to: string) => {
    if (!after.has(from)) after.set(from, new Set());
    after.get(from)!.add(to);
  };
  for (const chain of chains) chain.forEach((tool, index) => chain.slice(index + 1).forEach((later) => edge(tool, later)));
  // Transitive closure (chains are short; a few dozen tools at most).
  for (let changed = true; changed; ) {
    changed = false;
    for (const tos of after.values()) {
      for (const to of [...tos]) {
        for (const further of after.get(to) ?? []) {
          if (!tos.has(further)) {
            tos.add(further);
            changed = true;
          }
        }
      }
    }
  }
  return after;
}

/**
 * Static checks of one task's constraints against each other and against what its answer needs
 * (CCTU's manual review found these kinds of defects): empty ranges, tool-call maxima below the calls the
 * subqueries need, round maxima below the steps the dependencies and ordering chains need, JSON-only or table
 * answers that must also start or end with text, plain text that must carry bold, ordering chains and parallel
 * groups naming tools the task lacks or contradicting each other. Pure: the task in, the issues out.
 */
export function lintTask(task: Task): LintIssue[] {
  const issues: LintIssue[] = [];
  const report = (kind: LintIssue['kind'], constraints: Constraint[], message: string): void => {
    issues.push({ taskId: task.id, constraints: constraints.map((constraint) => constraint.id), kind, message });
  };
  const tools = declaredTools(task);
  const needed = needs(task);

  // Tools named by constraints must exist.
  if (tools) {
    const named: Array<[Constraint, string]> = [
      ...ofCategory(task, 'resource.specific_tool_call_count').flatMap((constraint) => Object.keys(constraint.params.limits).map((tool): [Constraint, string] => [constraint, tool])),
      ...ofCategory(task, 'behavior.sequential_dependencies').flatMap((constraint) => constraint.params.chains.flat().map((tool): [Constraint, string] => [constraint, tool])),
      ...ofCategory(task, 'behavior.parallel_dependencies').flatMap((constraint) => constraint.params.groups.flat().map((tool): [Constraint, string] => [constraint, tool])),
    ];
    for (const [constraint, tool] of named) {
      if (!tools.has(tool)) report('unknown-tool', [constraint], `${constraint.category} names ${tool}, which the task does not declare`);
    }
    for (const tool of needed.tools) {
      if (!tools.has(tool)) report('infeasible', [], `a subquery must be answered by ${tool}, which the task does not declare`);
    }
  }

  // Calls the answer needs: one per subquery (one output solves one subquery), and the calls the reference makes.
  const byReference = referenceCalls(task);
  const referenceTotal = [...byReference.values()].reduce((sum, count) => sum + count, 0);
  for (const constraint of ofCategory(task, 'resource.tool_call_count')) {
    const { max } = constraint.params;
    if (max !== undefined && max < needed.total) {
      const per = [...needed.calls].map(([tool, count]) => `${count} of ${tool}`).join(', ');
      report('infeasible', [constraint], `at most ${max} tool calls, but the subqueries need at least ${needed.total} (one tool output solves one subquery: ${per})`);
    } else if (max !== undefined && max < referenceTotal) {
      report('infeasible', [constraint], `at most ${max} tool calls, but the reference makes ${referenceTotal}`);
    }
  }
  for (const constraint of ofCategory(task, 'resource.specific_tool_call_count')) {
    for (const [tool, max] of Object.entries(constraint.params.limits)) {
      const need = needed.calls.get(tool) ?? 0;
      const made = byReference.get(tool) ?? 0;
      if (max < need) report('infeasible', [constraint], `${tool} may be called ${max} time${max === 1 ? '' : 's'}, but ${need} subquer${need === 1 ? 'y needs' : 'ies need'} an output of it each`);
      else if (max < made) report('infeasible', [constraint], `${tool} may be called ${max} time${max === 1 ? '' : 's'}, but the reference calls it ${made} times`);
    }
  }

  // Rounds the answer needs: one per dependent step, one more for every earlier tool of an ordering chain, plus the answer.
  let steps = needed.depth;
  for (const constraint of ofCategory(task, 'behavior.sequential_dependencies')) {
    for (const chain of constraint.params.chains) {
      chain.forEach((tool, index) => {
        if (needed.tools.has(tool)) steps = Math.max(steps, index + 1);
      });
    }
  }
  for (const constraint of ofCategory(task, 'resource.interaction_rounds')) {
    if (constraint.params.max !== undefined && steps > 0 && constraint.params.max < steps + 1) {
      report('infeasible', [constraint], `at most ${constraint.params.max} interaction rounds, but the answer needs ${steps} step${steps === 1 ? '' : 's'} of tool calls and a final answer (${steps + 1} rounds)`);
    }
    if (constraint.params.max > task.limits.maxRounds) {
      report('conflict', [constraint], `up to ${constraint.params.max} interaction rounds, but the task's hard limit ends the episode after ${task.limits.maxRounds}`);
    }
    if (constraint.params.min > task.limits.maxRounds) {
      report('infeasible', [constraint], `at least ${constraint.params.min} interaction rounds, above the task's hard limit of ${task.limits.maxRounds} rounds`);
    }
  }

  // Parallel requirements against each other and against ordering.
  const parallelCounts = ofCategory(task, 'behavior.parallel_calls_count');
  for (const constraint of parallelCounts) {
    if (constraint.params.unit === 'type' && tools && constraint.params.min > tools.size) {
      report('infeasible', [constraint], `a step must call ${constraint.params.min} distinct tools, but the task has only ${tools.size}`);
    }
  }
  for (const groupConstraint of ofCategory(task, 'behavior.parallel_dependencies')) {
    for (const group of groupConstraint.params.groups) {
      for (const countConstraint of parallelCounts) {
        const size = countConstraint.params.unit === 'type' ? new Set(group).size : group.length;
        if (countConstraint.params.max !== undefined && countConstraint.params.max < size) {
          report('conflict', [groupConstraint, countConstraint], `the group [${group.join(', ')}] must be called in one step (${size} ${countConstraint.params.unit === 'type' ? 'tools' : 'calls'}), but at most ${countConstraint.params.max} are allowed per step`);
        }
      }
    }
  }
  // A group's tools must share a step, so no ordering (through any number of chains) may put one before another.
  const chainConstraints = ofCategory(task, 'behavior.sequential_dependencies');
  const order = precedence(chainConstraints.flatMap((constraint) => constraint.params.chains));
  for (const [tool, later] of order) {
    if (later.has(tool)) report('conflict', chainConstraints, `the ordering chains put ${tool} before itself (a cycle), so it can never be called`);
  }
  for (const groupConstraint of ofCategory(task, 'behavior.parallel_dependencies')) {
    for (const group of groupConstraint.params.groups) {
      const clash = group.flatMap((first) => group.filter((second) => first !== second && order.get(first)?.has(second)).map((second) => [first, second] as const));
      if (clash.length > 0) {
        const [first, second] = clash[0]!;
        report('conflict', [groupConstraint, ...chainConstraints], `${first} and ${second} must be called in the same step (parallel group [${group.join(', ')}]) and ${first} in an earlier step than ${second} (ordering chains ${chainConstraints.flatMap((constraint) => constraint.params.chains).map((chain) => chain.join(' -> ')).join('; ')})`);
      }
    }
  }

  // Response requirements against each other.
  const formats = ofCategory(task, 'response.format');
  const contents = ofCategory(task, 'response.content');
  for (const format of formats) {
    for (const content of contents) {
      const literal = [content.params.startsWith && `begin with "${content.params.startsWith}"`, content.params.endsWith && `end with "${content.params.endsWith}"`, content.params.endingPunctuation && `end with "${content.params.endingPunctuation}"`].filter(Boolean);
      if ((format.params.format === 'json' || format.params.format === 'table') && literal.length > 0) {
        report('conflict', [format, content], `the answer must be only a ${format.params.format === 'json' ? 'JSON object' : 'Markdown table'} and also ${literal.join(' and ')}`);
      }
      if (format.params.format === 'plain' && content.params.identifiers?.includes('bold')) {
        report('conflict', [format, content], 'the answer must be plain text (no Markdown) and put the answer in bold (**X**, Markdown)');
      }
    }
  }
  for (const content of contents) {
    const { endsWith, endingPunctuation, keywords = [], forbiddenKeywords = [] } = content.params;
    if (endsWith !== undefined && endingPunctuation !== undefined && !endsWith.trim().endsWith(endingPunctuation)) {
      report('conflict', [content], `the answer must end with "${endsWith}" and with "${endingPunctuation}"`);
    }
    const clash = keywords.filter((keyword) => forbiddenKeywords.some((forbidden) => keyword.toLowerCase().includes(forbidden.toLowerCase())));
    if (clash.length > 0) report('conflict', [content], `${clash.map((keyword) => `"${keyword}"`).join(', ')} is both required and forbidden`);
  }
  for (const length of ofCategory(task, 'response.length')) {
    if (length.params.max === undefined) continue;
    for (const content of contents) {
      const required = [content.params.startsWith ?? '', content.params.endsWith ?? '', ...(content.params.keywords ?? [])].join(' ');
      const size = length.params.unit === 'words' ? required.split(/\s+/u).filter((word) => word !== '').length : Array.from(required.replace(/^ +| +$/g, '')).length;
      if (size > length.params.max) {
        report('infeasible', [length, content], `the required text alone (start, end, keywords) has ${size} ${length.params.unit}, above the maximum of ${length.params.max}`);
      }
    }
  }
  return issues;
}
