import type { Plan, PlanStep } from '../schemas/plan.ts';
import { filterCriteria } from './filter-criteria.ts';
import { hopCount } from './hop-count.ts';
import { parsePlan, type PlanParseResult } from './parse-plan.ts';
import { placeholdersOf } from './placeholders.ts';
import type { DataTool } from './required-tools.ts';

/**
 * What the structural validator finds. `error`s make the plan impossible to run as written (the executor refuses
 * it, the one-shot rating is capped); `warning`s leave it runnable but flawed (metric-wise points).
 */
export type StructuralIssueCode =
  | 'not-json'
  | 'schema'
  | 'duplicate-id'
  | 'unknown-dependency'
  | 'forward-dependency'
  | 'cycle'
  | 'dangling-placeholder'
  | 'unused-dependency'
  | 'redundant-filter'
  | 'duplicate-step'
  | 'missing-tool';

export interface StructuralIssue {
  code: StructuralIssueCode;
  severity: 'error' | 'warning';
  /** The step the issue is about, when it is about one. */
  stepId?: number;
  message: string;
}

export interface StructuralReport {
  parse: PlanParseResult;
  /** The plan, when the text parsed and passed the schema. */
  plan: Plan | null;
  issues: StructuralIssue[];
  /** No error-severity issue: the plan can be executed as written. */
  executable: boolean;
  hops: number | null;
}

export interface StructuralOptions {
  /** Data tools the question needs (those the reference plan uses). */
  requiredTools?: readonly DataTool[];
  /** Domain values that count as filter criteria (queue, channel, site names…). */
  filterVocabulary?: readonly string[];
}

const ERROR_CODES = new Set<StructuralIssueCode>([
  'not-json', 'schema', 'duplicate-id', 'unknown-dependency', 'forward-dependency', 'cycle', 'dangling-placeholder',
]);

/**
 * The structural validator: JSON, schema, unique ids, dependencies that exist and come earlier, no cycle,
 * placeholders ⊆ depends_on, no unused dependency, no filter re-applied downstream, no duplicated step, and
 * tool-usage completeness. Accepts the raw answer text or an already-parsed plan.
 */
export function validatePlanStructure(input: string | Plan, options: StructuralOptions = {}): StructuralReport {
  const parse: PlanParseResult = typeof input === 'string' ? parsePlan(input) : { ok: true, plan: input, fenced: false };
  if (!parse.ok) {
    const issue: StructuralIssue = { code: parse.kind, severity: 'error', message: parse.message };
    return { parse, plan: null, issues: [issue], executable: false, hops: null };
  }
  const plan = parse.plan;
  const issues: StructuralIssue[] = [];
  const add = (code: StructuralIssueCode, message: string, stepId?: number): void => {
    issues.push({ code, severity: ERROR_CODES.has(code) ? 'error' : 'warning', message, ...(stepId === undefined ? {} : { stepId }) });
  };

  const position = new Map<number, number>();
  plan.steps.forEach((step, index) => {
    if (position.has(step.id)) add('duplicate-id', `step id ${step.id} is used by more than one step`, step.id);
    else position.set(step.id, index);
  });

  plan.steps.forEach((step, index) => {
    for (const dependency of new Set(step.depends_on)) {
      const at = position.get(dependency);
      if (at === undefined) add('unknown-dependency', `step ${step.id} depends on step ${dependency}, which does not exist`, step.id);
      else if (at >= index) add('forward-dependency', `step ${step.id} depends on step ${dependency}, which does not come earlier`, step.id);
    }
    const referenced = placeholdersOf(step.prompt);
    for (const id of referenced) {
      if (!step.depends_on.includes(id)) {
        add('dangling-placeholder', `step ${step.id} refers to (${id}) but ${id} is not in its depends_on`, step.id);
      }
    }
    for (const dependency of new Set(step.depends_on)) {
      if (!referenced.includes(dependency)) {
        add('unused-dependency', `step ${step.id} depends on step ${dependency} but its prompt never uses (${dependency})`, step.id);
      }
    }
  });

  for (const cycle of findCycles(plan)) add('cycle', `steps ${cycle.join(' → ')} depend on each other in a cycle`, cycle[0]);

  checkRedundancy(plan, options.filterVocabulary ?? [], add);

  const used = new Set(plan.steps.map((step) => step.tool));
  for (const tool of options.requiredTools ?? []) {
    if (!used.has(tool)) {
      add('missing-tool', `the question needs ${tool === 'T2S' ? 'structured data (T2S)' : 'call transcripts (RAG)'} but no step uses ${tool}`);
    }
  }

  return { parse, plan, issues, executable: !issues.some((issue) => issue.severity === 'error'), hops: hopCount(plan) };
}

/** Each elementary cycle found by a depth-first search, reported once (by its smallest member first). */
function findCycles(plan: Plan): number[][] {
  const byId = new Map(plan.steps.map((step) => [step.id, step]));
  const state = new Map<number, 'open' | 'done'>();
  const stack: number[] = [];
  const cycles: number[][] = [];
  const seen = new Set<string>();
  const visit = (id: number): void => {
    state.set(id, 'open');
    stack.push(id);
    for (const dependency of byId.get(id)?.depends_on ?? []) {
      if (!byId.has(dependency)) continue;
      const mark = state.get(dependency);
      if (mark === 'open') {
        const cycle = stack.slice(stack.indexOf(dependency)).reverse();
        const key = [...cycle].sort((a, b) => a - b).join(',');
        if (!seen.has(key)) {
          seen.add(key);
          cycles.push(cycle);
        }
      } else if (mark === undefined) {
        visit(dependency);
      }
    }
    stack.pop();
    state.set(id, 'done');
  };
  for (const step of plan.steps) if (!state.has(step.id)) visit(step.id);
  return cycles;
}

/**
 * A step that consumes an upstream output (through a placeholder) and re-applies a filter criterion one of its
 * ancestors already applied re-filters data that is already filtered; two steps with the same tool and the same
 * prompt do the same work twice.
 */
function checkRedundancy(
  plan: Plan,
  vocabulary: readonly string[],
  add: (code: StructuralIssueCode, message: string, stepId?: number) => void,
): void {
  const byId = new Map<number, PlanStep>(plan.steps.map((step) => [step.id, step]));
  const criteria = new Map(plan.steps.map((step) => [step.id, filterCriteria(step.prompt, vocabulary)]));
  for (const step of plan.steps) {
    const own = criteria.get(step.id) ?? new Set<string>();
    if (own.size === 0) continue;
    const ancestors = ancestorsThroughPlaceholders(step, byId);
    const repeated = new Set<string>();
    for (const ancestor of ancestors) {
      for (const criterion of criteria.get(ancestor) ?? []) if (own.has(criterion)) repeated.add(criterion);
    }
    if (repeated.size > 0) {
      const shown = [...repeated].map((criterion) => criterion.slice(criterion.indexOf(':') + 1)).join(', ');
      add('redundant-filter', `step ${step.id} re-applies ${shown}, already applied upstream`, step.id);
    }
  }
  const seen = new Map<string, number>();
  for (const step of plan.steps) {
    const key = `${step.tool}\u0000${step.prompt.trim().toLowerCase().replace(/\s+/g, ' ')}`;
    const first = seen.get(key);
    if (first !== undefined) add('duplicate-step', `step ${step.id} repeats step ${first} (same tool, same prompt)`, step.id);
    else seen.set(key, step.id);
  }
}

function ancestorsThroughPlaceholders(step: PlanStep, byId: Map<number, PlanStep>): Set<number> {
  const found = new Set<number>();
  const pending = placeholdersOf(step.prompt).filter((id) => step.depends_on.includes(id));
  while (pending.length > 0) {
    const id = pending.pop()!;
    if (found.has(id) || id === step.id) continue;
    const ancestor = byId.get(id);
    if (!ancestor) continue;
    found.add(id);
    pending.push(...ancestor.depends_on);
  }
  return found;
}
